// Package pipeline copies a sync's tables and then streams its changes,
// checkpointing through the StateStore.
package pipeline

import (
	"context"

	"golang.org/x/sync/errgroup"

	"syncdaemon/state"
)

type Syncer struct {
	Name   string
	Store  state.StateStore
	Tables []string
}

// Bringup copies every table in its own goroutine, then flips each cursor
// to streaming and records the cutover.
func (s *Syncer) Bringup(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, t := range s.Tables {
		t := t
		g.Go(func() error { return s.copyTable(gctx, t) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return s.cutover(ctx)
}

func (s *Syncer) copyTable(ctx context.Context, table string) error {
	for chunk := int64(1); chunk <= 3; chunk++ {
		if err := s.Store.SaveProgress(ctx, s.Name, table, chunk); err != nil {
			return err
		}
	}
	return s.Store.SaveProgress(ctx, s.Name, table, -1)
}

func (s *Syncer) cutover(ctx context.Context) error {
	for _, t := range s.Tables {
		cur, err := s.Store.LoadCursor(ctx, s.Name, t)
		if err != nil {
			return err
		}
		cur.Phase = "streaming"
		if err := s.Store.SaveCursor(ctx, s.Name, cur); err != nil {
			return err
		}
	}
	return s.Store.RecordEvent(ctx, s.Name, "cutover")
}

// Register records the sync's targets: each write is a create-if-absent.
func (s *Syncer) Register(ctx context.Context, targets []string) error {
	for _, t := range targets {
		if err := s.Store.EnsureTarget(ctx, s.Name, t); err != nil {
			return err
		}
	}
	return nil
}

// Announce records that the sync started, then moves its cursors: the
// audit row comes first, the overwrite second.
func (s *Syncer) Announce(ctx context.Context) error {
	if err := s.Store.RecordEvent(ctx, s.Name, "started"); err != nil {
		return err
	}
	return s.Store.SaveCursor(ctx, s.Name, state.Cursor{Table: s.Name, Phase: "initial_copy"})
}

// Reopen registers a target, then resets its cursor.
func (s *Syncer) Reopen(ctx context.Context, target string) error {
	if err := s.Store.EnsureTarget(ctx, s.Name, target); err != nil {
		return err
	}
	return s.Store.SaveCursor(ctx, s.Name, state.Cursor{Table: target, Phase: "initial_copy"})
}

// Stream runs a streaming pass. Its writes sit at different depths of the
// package's own helpers, so the pass's list of writes grows over several
// rounds of facts, after Stream's call of it was first read.
func (s *Syncer) Stream(ctx context.Context) error { return s.pass(ctx) }

func (s *Syncer) pass(ctx context.Context) error {
	s.mark(ctx)
	s.touch(ctx)
	return s.reseed(ctx)
}

func (s *Syncer) mark(ctx context.Context) {
	_ = s.Store.SaveCursor(ctx, s.Name, state.Cursor{Table: s.Name, Phase: "streaming"})
}

func (s *Syncer) touch(ctx context.Context) {
	_ = s.Store.SaveProgress(ctx, s.Name, "touched", 0)
}

func (s *Syncer) reseed(ctx context.Context) error { return s.reset(ctx) }

func (s *Syncer) reset(ctx context.Context) error {
	return s.Store.SaveProgress(ctx, s.Name, "all", -1)
}

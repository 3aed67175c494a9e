// Package daemon runs each sync under its ownership lock, in an errgroup.
package daemon

import (
	"context"

	"golang.org/x/sync/errgroup"

	"syncdaemon/pipeline"
	"syncdaemon/state"
)

type Daemon struct {
	store state.StateStore
	syncs []string
}

func (d *Daemon) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, name := range d.syncs {
		held, release, err := d.store.Acquire(gctx, name)
		if err != nil {
			return err
		}
		if !held {
			continue
		}
		name := name
		g.Go(func() error {
			defer release()
			return d.runSync(gctx, name)
		})
	}
	return g.Wait()
}

// runSync registers the sync, then brings it up in a goroutine per run.
func (d *Daemon) runSync(ctx context.Context, name string) error {
	if err := d.store.PutSync(ctx, name, "primary"); err != nil { // want `StateStore.PutSync \(Pool.Exec \(INSERT syncs\) at statepg.go:\d+, via \*statepg.Store.PutSync\) writes to PostgreSQL without a fencing token.* \(runSync makes 1 more unfenced write under this lease: see the related positions\)`
		return err
	}
	s := &pipeline.Syncer{Name: name, Store: d.store, Tables: []string{"a", "b"}}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return s.Bringup(gctx) })
	return g.Wait()
}

// Restart registers the targets (create-if-absent: safe from a stale
// owner) and announces the sync: the finding names the cursor overwrite,
// not the audit row that comes first.
func (d *Daemon) Restart(ctx context.Context, name string) error {
	held, release, err := d.store.Acquire(ctx, name)
	if err != nil || !held {
		return err
	}
	defer release()
	s := &pipeline.Syncer{Name: name, Store: d.store}
	if err := s.Register(ctx, []string{"t1"}); err != nil {
		return err
	}
	return s.Announce(ctx) // want `Syncer.Announce \(Pool.Exec \(INSERT cursors\) at statepg.go:\d+, via \*statepg.Store.SaveCursor, via StateStore.SaveCursor\) writes to PostgreSQL`
}

// Resume registers a target (create-if-absent) before moving a cursor: the
// finding names the cursor, and lists nothing else, since the other write
// is safe.
func (d *Daemon) Resume(ctx context.Context, name string) error {
	held, release, err := d.store.Acquire(ctx, name)
	if err != nil || !held {
		return err
	}
	defer release()
	s := &pipeline.Syncer{Name: name, Store: d.store}
	return s.Reopen(ctx, "t1") // want `Syncer.Reopen \(Pool.Exec \(INSERT cursors\) at statepg.go:\d+, via \*statepg.Store.SaveCursor, via StateStore.SaveCursor\) writes to PostgreSQL`
}

// Enlist only registers targets: every write it reaches is safe from a
// stale owner, so it stays quiet.
func (d *Daemon) Enlist(ctx context.Context, name string) error {
	held, release, err := d.store.Acquire(ctx, name)
	if err != nil || !held {
		return err
	}
	defer release()
	s := &pipeline.Syncer{Name: name, Store: d.store}
	return s.Register(ctx, []string{"t1", "t2"})
}

// Follow streams under the lock: the finding lists every write of the
// pass, the deepest too.
func (d *Daemon) Follow(ctx context.Context, name string) error {
	held, release, err := d.store.Acquire(ctx, name)
	if err != nil || !held {
		return err
	}
	defer release()
	s := &pipeline.Syncer{Name: name, Store: d.store}
	return s.Stream(ctx) // want `Syncer.Stream \(.*; it reaches 3 unfenced writes: Syncer.mark at pipeline.go:\d+, Syncer.touch at pipeline.go:\d+, Syncer.reseed at pipeline.go:\d+\) writes to PostgreSQL`
}

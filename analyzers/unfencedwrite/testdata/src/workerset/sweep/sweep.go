// Package sweep runs the leader's cleanup as a list of steps.
package sweep

import (
	"context"
	"database/sql"
	"fmt"
)

type Sweeper struct{ db *sql.DB }

func New(db *sql.DB) *Sweeper { return &Sweeper{db: db} }

// Run runs each step in turn: every one of them writes, so a call of Run
// names all their writes, not only the first step's.
func (s *Sweeper) Run(ctx context.Context) error {
	steps := []func(context.Context) error{s.expireSessions, s.closeAccounts}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (s *Sweeper) expireSessions(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "UPDATE sessions SET state = $1 WHERE id = $2", "expired", 1)
	return err
}

func (s *Sweeper) closeAccounts(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", 0, 1)
	return err
}

// A Phase is one named step of a sweep, as operators' reconcilers list
// theirs, with the step that undoes it.
type Phase struct {
	Name string
	Run  func(context.Context) error
	Undo func(context.Context) error
}

// RunPhases runs the named phases in turn: a phase's Run is run for every
// element, so a call of RunPhases names the writes of each phase that
// writes (wait writes nothing).
func (s *Sweeper) RunPhases(ctx context.Context) error {
	phases := []Phase{
		{Name: "expire sessions", Run: s.expireSessions},
		{Name: "wait", Run: s.wait},
		{Name: "close accounts", Run: s.closeAccounts},
	}
	for _, p := range phases {
		if err := p.Run(ctx); err != nil {
			return fmt.Errorf("phase %s: %w", p.Name, err)
		}
	}
	return nil
}

// Rehearse runs only the phases' Run, which here writes nothing; their
// Undo writes, but the loop does not call it.
func (s *Sweeper) Rehearse(ctx context.Context) error {
	phases := []Phase{
		{Name: "expire sessions", Run: s.wait, Undo: s.expireSessions},
		{Name: "close accounts", Run: s.wait, Undo: s.closeAccounts},
	}
	for _, p := range phases {
		if err := p.Run(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (s *Sweeper) wait(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

// DryRun replaces each phase's Run with wait before calling it: the
// phases' own Run functions are not what the loop calls.
func (s *Sweeper) DryRun(ctx context.Context) error {
	phases := []Phase{
		{Name: "expire sessions", Run: s.expireSessions},
		{Name: "close accounts", Run: s.closeAccounts},
	}
	for _, p := range phases {
		p.Run = s.wait
		if err := p.Run(ctx); err != nil {
			return err
		}
	}
	return nil
}

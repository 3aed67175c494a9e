// Package sweep runs the leader's cleanup as a list of steps.
package sweep

import (
	"context"
	"database/sql"
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

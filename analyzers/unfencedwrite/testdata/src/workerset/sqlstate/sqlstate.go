// Package sqlstate keeps the leader's progress in PostgreSQL.
package sqlstate

import (
	"context"
	"database/sql"
)

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

func (s *Store) SaveProgress(ctx context.Context, step string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE progress SET step = $1 WHERE id = 1", step); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "UPDATE progress_log SET last = $1 WHERE id = 1", step)
	return err
}

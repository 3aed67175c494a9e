// Package pgruns implements runs.Store on PostgreSQL with plain
// statements.
package pgruns

import (
	"context"
	"database/sql"
	"time"
)

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

// Reschedule moves a run and clears its attempt count: a stale caller's
// call undoes a newer claimant's progress.
func (s *Store) Reschedule(ctx context.Context, id string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE notification_runs SET next_at = $1, attempts = 0 WHERE id = $2`, at, id)
	return err
}

func (s *Store) Due(ctx context.Context, now time.Time) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM notification_runs WHERE next_at <= $1`, now)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

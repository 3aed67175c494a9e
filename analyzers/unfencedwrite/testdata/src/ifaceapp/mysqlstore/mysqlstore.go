// Package mysqlstore is the MySQL implementation of the journal.
package mysqlstore

import (
	"context"
	"database/sql"
)

type Store struct{ db *sql.DB }

func (s *Store) Record(ctx context.Context, job, event string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE journal SET last_event = ? WHERE job = ?", event, job)
	return err
}

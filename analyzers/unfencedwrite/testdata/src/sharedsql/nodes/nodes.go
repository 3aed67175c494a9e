// Package nodes keeps the cluster's view of its peers in SQLite or, in
// production, in PostgreSQL, which every holder shares.
package nodes

import (
	"context"
	"database/sql"

	_ "github.com/lib/pq"
	_ "github.com/mattn/go-sqlite3"
)

type Store struct{ db *sql.DB }

func Open(driver, dsn string) (*Store, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// MarkOffline records a peer as offline.
func (s *Store) MarkOffline(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE nodes SET status = 'offline' WHERE id = ?`, id)
	return err
}

// Package nodes keeps this node's view of the cluster in SQLite, a file of
// its own node: the program opens no other SQL database.
package nodes

import (
	"context"
	"database/sql"

	_ "github.com/mattn/go-sqlite3"
)

type Store struct{ db *sql.DB }

func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// MarkOffline records a peer as offline in this node's database.
func (s *Store) MarkOffline(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE nodes SET status = 'offline' WHERE id = ?`, id)
	return err
}

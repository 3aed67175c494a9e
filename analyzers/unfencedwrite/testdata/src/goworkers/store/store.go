// Package store is the SQL side of the syncer.
package store

import (
	"context"
	"database/sql"
)

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

// PutApp overwrites the application's row with the spec it was given.
func (s *Store) PutApp(ctx context.Context, name, spec string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE apps SET spec = $1 WHERE name = $2", spec, name)
	return err
}

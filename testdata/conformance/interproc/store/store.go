// Package store is a repository layer: it knows nothing about locks, and
// the workers in other packages call it while holding one.
package store

import (
	"context"
	"database/sql"
	"errors"
)

// ErrStale means a newer lease holder already wrote.
var ErrStale = errors.New("store: stale fence")

// Store wraps the checkpoint table.
type Store struct {
	DB *sql.DB
}

// SaveCheckpoint writes the offset unconditionally.
func (s *Store) SaveCheckpoint(ctx context.Context, stream string, offset int64) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE checkpoints SET "offset" = $2 WHERE stream = $1`, stream, offset)
	return err
}

// SaveCheckpointFenced writes the offset only for a fence not older than
// the stored one.
func (s *Store) SaveCheckpointFenced(ctx context.Context, stream string, offset, fence int64) error {
	res, err := s.DB.ExecContext(ctx,
		`UPDATE checkpoints SET "offset" = $2, fence = $3 WHERE stream = $1 AND fence <= $3`, stream, offset, fence)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrStale
	}
	return nil
}

// Checkpoint reads the offset.
func (s *Store) Checkpoint(ctx context.Context, stream string) (int64, error) {
	var offset int64
	err := s.DB.QueryRowContext(ctx, `SELECT "offset" FROM checkpoints WHERE stream = $1`, stream).Scan(&offset)
	return offset, err
}

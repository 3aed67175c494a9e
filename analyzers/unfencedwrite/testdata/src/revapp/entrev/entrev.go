// Package entrev stores revisions in the database. It imports migrate, so
// migrate's Executor reaches it only through main's wiring.
package entrev

import (
	"context"
	"database/sql"

	"revapp/migrate"
)

type Revisions struct{ db *sql.DB }

func New(db *sql.DB) *Revisions { return &Revisions{db: db} }

// Open returns the revision store as the interface, as a driver-aware
// constructor does.
func Open(db *sql.DB) (migrate.RevisionReadWriter, error) { return New(db), nil }

func (s *Revisions) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	r := &migrate.Revision{Version: version}
	err := s.db.QueryRowContext(ctx, `SELECT applied FROM revisions WHERE version = $1`, version).Scan(&r.Applied)
	return r, err
}

func (s *Revisions) WriteRevision(ctx context.Context, r *migrate.Revision) error {
	_, err := s.db.ExecContext(ctx, `UPDATE revisions SET applied = $1, executed_at = $2 WHERE version = $3`, r.Applied, r.ExecutedAt, r.Version)
	return err
}

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

// Archive, Audit and Mirror are more journals, as a job runner has many
// jobs: a finding lists three of the others and counts the rest.
type Archive struct{ db *sql.DB }

func (a *Archive) Record(ctx context.Context, job, event string) error {
	_, err := a.db.ExecContext(ctx, "INSERT INTO archive (job, event) VALUES (?, ?)", job, event)
	return err
}

type Audit struct{ db *sql.DB }

func (a *Audit) Record(ctx context.Context, job, event string) error {
	_, err := a.db.ExecContext(ctx, "INSERT INTO audit (job, event) VALUES (?, ?)", job, event)
	return err
}

type Mirror struct{ db *sql.DB }

func (m *Mirror) Record(ctx context.Context, job, event string) error {
	_, err := m.db.ExecContext(ctx, "UPDATE mirror SET last_event = ? WHERE job = ?", event, job)
	return err
}

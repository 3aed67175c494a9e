// Package store writes the daily reports under a redsync lock.
package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-redsync/redsync/v4"
)

type Reports struct {
	rs *redsync.Redsync
	db *sql.DB
}

func New(rs *redsync.Redsync, db *sql.DB) *Reports { return &Reports{rs: rs, db: db} }

// Report creates the day's report of a kind: the unique index on (day,
// kind) would reject a stale holder's second one, but a Go migration run
// after it may have dropped it.
func (r *Reports) Report(ctx context.Context, day time.Time, kind int16, body string) error {
	m := r.rs.NewMutex("reports")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := r.db.ExecContext(ctx, `INSERT INTO daily_reports (day, kind, body) VALUES ($1, $2, $3)`, day, kind, body); err != nil { // want `without a fencing token`
		return err
	}
	return nil
}

// Run records a run under a key the database draws: every holder's is new.
func (r *Reports) Run(ctx context.Context, day time.Time) error {
	m := r.rs.NewMutex("reports")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := r.db.ExecContext(ctx, `INSERT INTO report_runs (day) VALUES ($1)`, day) // want `without a fencing token`
	return err
}

// Weekly creates the week's report of a kind under the primary key (week,
// kind) of a table defined after the Go migration.
func (r *Reports) Weekly(ctx context.Context, week time.Time, kind int16, body string) error {
	m := r.rs.NewMutex("reports")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := r.db.ExecContext(ctx, `INSERT INTO weekly_reports (week, kind, body) VALUES ($1, $2, $3)`, week, kind, body)
	return err
}

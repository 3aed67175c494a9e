// Package partialkeys is reduced from a gateway whose leader records the
// one live emergency lifecycle and a billing job's runs: tables whose
// partial unique indexes cover the rows where a column is NULL (live,
// not deleted). An INSERT that leaves that column out adds a row the
// index covers, so a stale holder's duplicate fails like one under a
// plain key; one that sets it, or a column whose DEFAULT fills it, adds a
// row the index does not cover, and stays reported.
package partialkeys

import (
	"context"
	"database/sql"
	"embed"
	"time"

	"github.com/go-redsync/redsync/v4"
)

//go:embed migrations/*.sql
var migrations embed.FS

type Leader struct {
	rs *redsync.Redsync
	db *sql.DB
}

func (l *Leader) lock(ctx context.Context, name string) (*redsync.Mutex, error) {
	m := l.rs.NewMutex(name)
	return m, m.LockContext(ctx)
}

// StartLifecycle inserts the live lifecycle: the singleton index admits
// one, so a stale leader's second insert fails.
func (l *Leader) StartLifecycle(ctx context.Context, reason string) error {
	m, err := l.lock(ctx, "emerg")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = l.db.ExecContext(ctx, `INSERT INTO lifecycles (started_at, reason) VALUES (now(), $1)`, reason)
	return err
}

// ImportLifecycle records a finished lifecycle: a row the index does not
// cover, which a stale importer adds again.
func (l *Leader) ImportLifecycle(ctx context.Context, start, end time.Time) error {
	m, err := l.lock(ctx, "emerg")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = l.db.ExecContext(ctx, `INSERT INTO lifecycles (started_at, ended_at, reason) VALUES ($1, $2, 'import')`, start, end) // want `without a fencing token`
	return err
}

// OpenRun opens the period's billing run: one per period and region among
// the runs not deleted.
func (l *Leader) OpenRun(ctx context.Context, period, region int) error {
	m, err := l.lock(ctx, "billing")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = l.db.ExecContext(ctx, `INSERT INTO billing_runs (period, region, status) VALUES ($1, $2, 'open')`, period, region)
	return err
}

// ReopenRun names deleted_at: whether its value is NULL is not read, so
// the row is not known to be one the index covers.
func (l *Leader) ReopenRun(ctx context.Context, period, region int, deletedAt sql.NullTime) error {
	m, err := l.lock(ctx, "billing")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = l.db.ExecContext(ctx, `INSERT INTO billing_runs (period, region, status, deleted_at) VALUES ($1, $2, 'open', $3)`, period, region, deletedAt) // want `without a fencing token`
	return err
}

// Invoice leaves archived_at to its DEFAULT, which sets it: the partial
// index covers none of these rows.
func (l *Leader) Invoice(ctx context.Context, period int) error {
	m, err := l.lock(ctx, "billing")
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = l.db.ExecContext(ctx, `INSERT INTO invoices (period) VALUES ($1)`, period) // want `without a fencing token`
	return err
}

// StartLifecycleReturning inserts the live lifecycle with RETURNING: the
// duplicate's error comes back from Scan, which the function returns.
func (l *Leader) StartLifecycleReturning(ctx context.Context, reason string) (int64, error) {
	m, err := l.lock(ctx, "emerg")
	if err != nil {
		return 0, err
	}
	defer m.UnlockContext(ctx)
	var id int64
	err = l.db.QueryRowContext(ctx, `INSERT INTO lifecycles (started_at, reason) VALUES (now(), $1) RETURNING id`, reason).Scan(&id)
	return id, err
}

// StartLifecycleBlind drops Scan's error: a stale leader's failed insert
// goes unnoticed, and it goes on as if its lifecycle were the live one.
func (l *Leader) StartLifecycleBlind(ctx context.Context, reason string) int64 {
	m, err := l.lock(ctx, "emerg")
	if err != nil {
		return 0
	}
	defer m.UnlockContext(ctx)
	var id int64
	l.db.QueryRowContext(ctx, `INSERT INTO lifecycles (started_at, reason) VALUES (now(), $1) RETURNING id`, reason).Scan(&id) // want `without a fencing token`
	return id
}

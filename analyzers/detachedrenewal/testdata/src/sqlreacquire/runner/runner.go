// Package runner holds an advisory.Lock while it migrates.
package runner

import (
	"context"
	"database/sql"

	"sqlreacquire/advisory"
)

func migrate(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = 1")
	return err
}

// run keeps the lock alive with KeepAlive, which never tells it of a failure.
func run(ctx context.Context, conn *sql.Conn, db *sql.DB) error {
	lk := advisory.New(conn, "jobs")
	if err := lk.Lock(ctx); err != nil {
		return err
	}
	go lk.KeepAlive(ctx) // want `this goroutine runs Lock.KeepAlive, which takes the MySQL lock again on a timer \(Lock.take at advisory.go:45\) to keep its session alive and tells nobody when that fails`
	return migrate(ctx, db)
}

// runCancelling hands KeepAliveOrCancel the work's cancel.
func runCancelling(ctx context.Context, conn *sql.Conn, db *sql.DB) error {
	lk := advisory.New(conn, "jobs")
	if err := lk.Lock(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go lk.KeepAliveOrCancel(ctx, cancel)
	return migrate(ctx, db)
}

// runBefore starts KeepAlive before it holds the lock: then it is a loop
// that keeps taking a lock nobody held, not a renewal of this one.
func runBefore(ctx context.Context, conn *sql.Conn, db *sql.DB) error {
	lk := advisory.New(conn, "jobs")
	go lk.KeepAlive(ctx)
	if err := lk.Lock(ctx); err != nil {
		return err
	}
	return migrate(ctx, db)
}

// runOther keeps another lock alive.
func runOther(ctx context.Context, conn *sql.Conn, db *sql.DB) error {
	lk := advisory.New(conn, "jobs")
	if err := lk.Lock(ctx); err != nil {
		return err
	}
	other := advisory.New(conn, "reports")
	go other.KeepAlive(ctx)
	return migrate(ctx, db)
}

// waitInBackground retries in a goroutine: Retry takes the lock, nothing
// held it before.
func waitInBackground(ctx context.Context, conn *sql.Conn) {
	lk := advisory.New(conn, "jobs")
	go lk.Retry(ctx)
}

package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
)

// advisoryWorker recomputes a balance under a PostgreSQL session advisory
// lock. It has the frozen-worker bug (see the package comment): the lock
// dies with its session, silently, and the write that follows carries
// nothing the database could use to refuse it.
type advisoryWorker struct {
	db   *sql.DB
	name string
	// beforeWrite, if set, runs between computing the balance and writing
	// it: the test freezes the worker there, as a GC pause would.
	beforeWrite func()
}

// step takes the account's advisory lock, recomputes the balance and
// stores it. It returns errBusy if another worker holds the lock.
func (w *advisoryWorker) step(ctx context.Context, account int64) error {
	// A session lock belongs to one connection: pin one, or the lock is
	// taken on whichever pooled connection runs the statement.
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()

	var locked bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", account).Scan(&locked); err != nil {
		return fmt.Errorf("taking the advisory lock on account %d: %w", account, err)
	}
	if !locked {
		return errBusy
	}
	defer w.unlock(context.WithoutCancel(ctx), conn, account)

	balance, err := sumLedger(ctx, w.db, account)
	if err != nil {
		return err
	}
	// A pause here outlives the session, and with it the lock (t2-t4 in the
	// timeline). The UPDATE below runs on another pooled connection and
	// succeeds whoever holds the lock now.
	if w.beforeWrite != nil {
		w.beforeWrite()
	}
	_, err = w.db.ExecContext(ctx, "UPDATE balances SET amount = $1, computed_by = $2 WHERE id = $3", balance, w.name, account)
	return err
}

// unlock releases the account's advisory lock. It reports, but cannot
// act on, a lock that was already gone: by then the write is done.
func (w *advisoryWorker) unlock(ctx context.Context, conn *sql.Conn, account int64) {
	var held bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock($1)", account).Scan(&held); err != nil || !held {
		log.Printf("account %d: advisory lock was not held at unlock (err=%v): another worker may have written meanwhile", account, err)
	}
}

package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// errLeaseLost says a fenced write was refused: a worker with a newer fence
// has written since this worker's lease was granted.
var errLeaseLost = errors.New("lease lost: a newer holder has written")

// leaseWorker recomputes a balance under a lease row whose grant hands out a
// fence, and makes every write conditional on it: the fix for the bug.
type leaseWorker struct {
	db   *sql.DB
	name string
	ttl  time.Duration
	// beforeWrite, if set, runs between computing the balance and writing
	// it: the test freezes the worker there, as a GC pause would.
	beforeWrite func()
}

// step takes the account's lease, recomputes the balance and stores it
// only if no newer holder has. It returns errBusy if the lease is held, and
// errLeaseLost if a newer holder wrote first.
func (w *leaseWorker) step(ctx context.Context, account int64) error {
	fence, err := acquireLease(ctx, w.db, account, w.name, w.ttl)
	if err != nil {
		return err
	}
	defer releaseLease(context.WithoutCancel(ctx), w.db, account, fence)

	balance, err := sumLedger(ctx, w.db, account)
	if err != nil {
		return err
	}
	// However long a pause here, the row only changes if no holder with a
	// newer fence has written it.
	if w.beforeWrite != nil {
		w.beforeWrite()
	}
	res, err := w.db.ExecContext(ctx, "UPDATE balances SET amount = $3, computed_by = $4, fence = $2 WHERE id = $1 AND fence <= $2", account, fence, balance, w.name)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("account %d with fence %d: %w", account, fence, errLeaseLost)
	}
	return nil
}

// acquireLease grants holder the lease on account for ttl if it is free or
// expired, and returns its fence. The fence comes from the granting
// statement itself, one more than the last grant's, so a holder paused
// anywhere after this call has an older fence than every later holder.
//
//fencelint:acquire
func acquireLease(ctx context.Context, db *sql.DB, account int64, holder string, ttl time.Duration) (int64, error) {
	var fence int64
	err := db.QueryRowContext(ctx, `
		INSERT INTO leases AS l (id, holder, fence, expires_at)
		VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond')
		ON CONFLICT (id) DO UPDATE
			SET holder = excluded.holder, fence = l.fence + 1, expires_at = excluded.expires_at
			WHERE l.expires_at < now()
		RETURNING fence`, account, holder, ttl.Milliseconds()).Scan(&fence)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errBusy
	}
	if err != nil {
		return 0, fmt.Errorf("taking the lease on account %d: %w", account, err)
	}
	return fence, nil
}

// releaseLease ends the lease early so the next worker need not wait for
// it to expire; only the grant with this fence can release it.
//
//fencelint:release
func releaseLease(ctx context.Context, db *sql.DB, account, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE leases SET expires_at = now() WHERE id = $1 AND fence = $2", account, fence)
	return err
}

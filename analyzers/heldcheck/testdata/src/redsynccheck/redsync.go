// Package redsynccheck holds a redsync mutex and asks it whether it still
// holds before writing.
package redsynccheck

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

var errLost = errors.New("lost the lock")

type job struct {
	mu  *redsync.Mutex
	db  *sql.DB
	rdb *redis.Client
}

// valid asks every Redis node, then writes: the answer is stale by then.
func (j *job) valid(ctx context.Context) error {
	ok, err := j.mu.Valid() // want `Mutex.Valid only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE invoices\) at line 32`
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	_, err = j.db.ExecContext(ctx, "UPDATE invoices SET sent = true WHERE batch = 7")
	return err
}

// validContext guards a Redis write in the same condition as the error.
func (j *job) validContext(ctx context.Context) error {
	if ok, err := j.mu.ValidContext(ctx); err == nil && ok { // want `Mutex.ValidContext only tells that the lease was held when it ran, yet it guards the unfenced write (cmdable\.)?Set at line 39`
		return j.rdb.Set(ctx, "report:latest", "v2", 0).Err()
	}
	return errLost
}

// until compares the local estimate of the expiry with the clock.
func (j *job) until(ctx context.Context) {
	if time.Now().Before(j.mu.Until()) { // want `Mutex.Until only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE invoices\) at line 47`
		j.db.ExecContext(ctx, "DELETE FROM invoices WHERE batch = 7")
	}
}

// untilMargin keeps a margin: it narrows the window, it does not close it.
func (j *job) untilMargin(ctx context.Context) {
	if time.Until(j.mu.Until()) > 2*time.Second { // want `Mutex.Until only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE invoices\)`
		j.db.ExecContext(ctx, "UPDATE invoices SET sent = false WHERE batch = 8")
	}
}

// fenced writes with a fence the database compares: fine.
func (j *job) fenced(ctx context.Context, token int64) error {
	if ok, err := j.mu.Valid(); err != nil || !ok {
		return errLost
	}
	res, err := j.db.ExecContext(ctx, "UPDATE invoices SET sent = true, fence = $1 WHERE batch = 7 AND fence < $1", token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errLost
	}
	return nil
}

// expired writes only once the lock is gone (a cleanup of its own state):
// the check does not vouch for it.
func (j *job) expired(ctx context.Context) {
	if time.Now().After(j.mu.Until()) {
		j.db.ExecContext(ctx, "UPDATE workers SET state = 'idle' WHERE name = 'invoicer'")
	}
}

// reportOnly puts the answer in a metric.
func (j *job) reportOnly(gauge func(float64)) {
	if ok, _ := j.mu.Valid(); ok {
		gauge(1)
	} else {
		gauge(0)
	}
}

// valueFence fences with the mutex's random value: a weak token, which is
// weaktoken's to report, not heldcheck's.
func (j *job) valueFence(ctx context.Context) error {
	if ok, err := j.mu.Valid(); err != nil || !ok {
		return errLost
	}
	res, err := j.db.ExecContext(ctx, "UPDATE invoices SET sent = true, fence = $1 WHERE batch = 9 AND fence < $1", j.mu.Value())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errLost
	}
	return nil
}

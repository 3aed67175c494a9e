// Package retriedacquire takes a lock document of its own (declared with the
// directives) through a helper that, when the lock it finds is stale, marks
// the stale holder's operation failed and acquires again.
package retriedacquire

import (
	"context"
	"database/sql"
	"errors"
)

// Lock is a lease row other agents delete once its heartbeat is 30 s old.
type Lock struct {
	db *sql.DB
	op string
}

// StaleError says the lock was held by an operation whose holder stopped
// heart-beating; the lock is gone now.
type StaleError struct{ OP string }

func (e StaleError) Error() string { return "stale lock of " + e.OP }

// Acquire inserts the lock row; false if another agent holds it.
//
//fencelint:acquire
func (l *Lock) Acquire(ctx context.Context) (bool, error) {
	res, err := l.db.ExecContext(ctx, `INSERT INTO locks (name, op) VALUES ('backup', $1) ON CONFLICT DO NOTHING`, l.op)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Release deletes the lock row.
//
//fencelint:release
func (l *Lock) Release(ctx context.Context) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM locks WHERE name = 'backup' AND op = $1`, l.op)
	return err
}

// Agent runs backups, one at a time across agents.
type Agent struct {
	db *sql.DB
}

// acquire takes the lock; when it finds a stale one, it marks that
// operation failed (where nothing is held yet) and tries again.
func (a *Agent) acquire(ctx context.Context, l *Lock) (bool, error) {
	got, err := l.Acquire(ctx)
	if err == nil {
		return got, nil
	}
	var stale StaleError
	if !errors.As(err, &stale) {
		return false, err
	}
	if _, err := a.db.ExecContext(ctx, `UPDATE backups SET status = 'error' WHERE op = $1`, stale.OP); err != nil {
		return false, err
	}
	return l.Acquire(ctx)
}

// Backup marks its backup done under the lock, with nothing that fences it.
func (a *Agent) Backup(ctx context.Context, l *Lock, op string) error {
	got, err := a.acquire(ctx, l)
	if err != nil || !got {
		return err
	}
	defer l.Release(context.Background())
	_, err = a.db.ExecContext(ctx, `UPDATE backups SET status = 'done' WHERE op = $1`, op) // want `without a fencing token`
	return err
}

// acquireAudited writes after it took the lock: that is work done under the
// lock (reported here), so it is no wrapper its callers hold the lock by.
func (a *Agent) acquireAudited(ctx context.Context, l *Lock) (bool, error) {
	got, err := l.Acquire(ctx)
	if err != nil || !got {
		return false, err
	}
	_, err = a.db.ExecContext(ctx, `UPDATE agents SET last_lock = now() WHERE op = $1`, l.op) // want `without a fencing token`
	return true, err
}

// Restore takes the lock through acquireAudited.
func (a *Agent) Restore(ctx context.Context, l *Lock, op string) error {
	got, err := a.acquireAudited(ctx, l)
	if err != nil || !got {
		return err
	}
	defer l.Release(context.Background())
	_, err = a.db.ExecContext(ctx, `UPDATE restores SET status = 'done' WHERE op = $1`, op)
	return err
}

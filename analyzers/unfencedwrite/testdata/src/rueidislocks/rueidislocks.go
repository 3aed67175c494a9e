// Package rueidislocks is a billing worker that closes invoices under a
// rueidislock lock per account: the lock is the context WithContext
// returns, released by the cancel func returned beside it.
package rueidislocks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/redis/rueidis/rueidislock"
)

var errMoved = errors.New("the invoice moved meanwhile")

type worker struct {
	locker rueidislock.Locker
	db     *sql.DB
}

// closeInvoice totals the open lines and overwrites the invoice.
func (w *worker) closeInvoice(ctx context.Context, account int64) error {
	ctx, cancel, err := w.locker.WithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	defer cancel()
	var total int64
	if err := w.db.QueryRowContext(ctx, "SELECT coalesce(sum(amount), 0) FROM lines WHERE account = $1 AND open", account).Scan(&total); err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx, "UPDATE invoices SET total = $1, state = 'closed' WHERE account = $2", total, account) // want `DB.ExecContext \(UPDATE invoices\) writes to SQL database without a fencing token while the rueidislock lock taken by Locker.WithContext \(line 24\) is held`
	return err
}

// tryClose gives up when another worker holds the account.
func (w *worker) tryClose(ctx context.Context, account, total int64) error {
	lockCtx, cancel, err := w.locker.TryWithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if errors.Is(err, rueidislock.ErrNotLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	defer cancel()
	_, err = w.db.ExecContext(lockCtx, "UPDATE invoices SET total = $1 WHERE account = $2", total, account) // want `DB.ExecContext \(UPDATE invoices\) writes to SQL database without a fencing token while the rueidislock lock taken by Locker.TryWithContext`
	return err
}

// closeVersioned writes only over the version it read, and checks.
func (w *worker) closeVersioned(ctx context.Context, account, total, version int64) error {
	ctx, cancel, err := w.locker.WithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	defer cancel()
	res, err := w.db.ExecContext(ctx, "UPDATE invoices SET total = $1, version = version + 1 WHERE account = $2 AND version = $3", total, account, version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errMoved
	}
	return nil
}

// audit releases the lock before it writes: the write is not under it.
func (w *worker) audit(ctx context.Context, account int64) error {
	lockCtx, cancel, err := w.locker.WithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	var n int64
	err = w.db.QueryRowContext(lockCtx, "SELECT count(*) FROM lines WHERE account = $1", account).Scan(&n)
	cancel()
	if err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx, "UPDATE accounts SET audited_lines = $1 WHERE id = $2", n, account)
	return err
}

// failed is reached only when the lock was not taken.
func (w *worker) failed(ctx context.Context, account int64) error {
	_, cancel, err := w.locker.TryWithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err == nil {
		cancel()
		return nil
	}
	_, err = w.db.ExecContext(ctx, "UPDATE accounts SET lock_state = $2 WHERE id = $1", account, "contended")
	return err
}

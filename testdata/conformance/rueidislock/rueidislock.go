// Package rueidislock is a billing worker that closes invoices under a
// rueidislock lock per account, compiled against the real rueidis.
package rueidislock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

// NewLocker builds the Locker on one Redis.
func NewLocker(addr string) (rueidislock.Locker, error) {
	return rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption: rueidis.ClientOption{InitAddress: []string{addr}},
		KeyMajority:  1,
	})
}

// Worker closes invoices.
type Worker struct {
	Locker rueidislock.Locker
	DB     *sql.DB
	Redis  rueidis.Client
}

// CloseInvoice overwrites the invoice's total under the lock, on its ctx.
func (w *Worker) CloseInvoice(ctx context.Context, account, total int64) error {
	ctx, cancel, err := w.Locker.WithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	defer cancel()
	_, err = w.DB.ExecContext(ctx, "UPDATE invoices SET total = $1 WHERE account = $2", total, account) // want unfencedwrite:"without a fencing token while the rueidislock lock taken by Locker.WithContext"
	return err
}

// TryClose discards the lock's ctx: the work never hears that it is lost.
func (w *Worker) TryClose(ctx context.Context, account, total int64) error {
	_, cancel, err := w.Locker.TryWithContext(ctx, fmt.Sprintf("invoice:%d", account)) // want detachedrenewal:"this discards the context Locker.TryWithContext returns"
	if errors.Is(err, rueidislock.ErrNotLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	defer cancel()
	_, err = w.DB.ExecContext(ctx, "UPDATE invoices SET total = $1 WHERE account = $2", total, account) // want unfencedwrite:"while the rueidislock lock taken by Locker.TryWithContext"
	return err
}

// CloseVersioned writes only over the version it read, and checks.
func (w *Worker) CloseVersioned(ctx context.Context, account, total, version int64) error {
	ctx, cancel, err := w.Locker.ForceWithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	defer cancel()
	res, err := w.DB.ExecContext(ctx, "UPDATE invoices SET total = $1, version = version + 1 WHERE account = $2 AND version = $3", total, account, version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("the invoice moved meanwhile")
	}
	return nil
}

// CacheTotal keeps the invoice's total in Redis under the lock: a SET the
// rueidis builder spells, and a SET NX that only seeds.
func (w *Worker) CacheTotal(ctx context.Context, account, total int64) error {
	ctx, cancel, err := w.Locker.WithContext(ctx, fmt.Sprintf("invoice:%d", account))
	if err != nil {
		return err
	}
	defer cancel()
	key := fmt.Sprintf("invoice:%d:total", account)
	seed := w.Redis.B().Set().Key(key + ":first").Value(fmt.Sprint(total)).Nx().Build()
	if err := w.Redis.Do(ctx, seed).Error(); err != nil && !rueidis.IsRedisNil(err) {
		return err
	}
	return w.Redis.Do(ctx, w.Redis.B().Set().Key(key).Value(fmt.Sprint(total)).Build()).Error() // want unfencedwrite:"Do SET writes to Redis without a fencing token while the rueidislock lock"
}

// Package retriedlocks is a report generator whose jobs wait for their
// locks through four retry libraries, compiled against the real modules:
// each retried try-lock makes the retrying call the acquire.
package retriedlocks

import (
	"context"
	"database/sql"
	"errors"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/bsm/redislock"
	"github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
	retry "github.com/sethvargo/go-retry"
)

var errBusy = errors.New("report locked by another generator")

// Reports renders tenants' monthly reports.
type Reports struct {
	db     *sql.DB
	conn   *sql.Conn // the session the advisory locks live on
	rdb    *redis.Client
	rs     *redsync.Redsync
	locker *redislock.Client
}

// lockTenant takes the tenant's advisory lock on the dedicated session.
func (r *Reports) lockTenant(ctx context.Context, tenant int64) (int64, error) {
	var ok bool
	if err := r.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", tenant).Scan(&ok); err != nil {
		return 0, err
	}
	if !ok {
		return 0, errBusy
	}
	return tenant, nil
}

func (r *Reports) unlockTenant(ctx context.Context, tenant int64) {
	r.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", tenant)
}

// Render waits for the tenant through failsafe-go's Executor.
func (r *Reports) Render(ctx context.Context, tenant int64, body []byte) error {
	exec := failsafe.NewExecutor[int64](retrypolicy.WithDefaults[int64]())
	key, err := exec.GetWithExecution(func(failsafe.Execution[int64]) (int64, error) {
		return r.lockTenant(ctx, tenant)
	})
	if err != nil {
		return err
	}
	defer r.unlockTenant(ctx, key)
	_, err = r.db.ExecContext(ctx, `UPDATE reports SET body = $1 WHERE tenant = $2`, body, tenant) // want unfencedwrite:`ExecContext \(UPDATE reports\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Executor.GetWithExecution's retried closure \(line 53\) is held`
	return err
}

// Publish waits for a redsync mutex through failsafe-go's Run.
func (r *Reports) Publish(ctx context.Context, tenant string, url string) error {
	m := r.rs.NewMutex("publish:"+tenant, redsync.WithTries(1))
	if err := failsafe.Run(func() error { return m.TryLockContext(ctx) }, retrypolicy.WithDefaults[any]()); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return r.rdb.Set(ctx, "report:url:"+tenant, url, 0).Err() // want unfencedwrite:`Set writes to Redis without a fencing token while the redsync lock taken by failsafe.Run's retried closure \(line 67\) is held`
}

// Archive waits with cenkalti/backoff v4, handing it a method value.
func (r *Reports) Archive(ctx context.Context, tenant int64) error {
	var archiver = &archiver{reports: r, tenant: tenant}
	if err := backoff.RetryNotify(archiver.lock, backoff.NewExponentialBackOff(), func(err error, d time.Duration) {}); err != nil {
		return err
	}
	defer r.unlockTenant(ctx, tenant)
	_, err := r.db.ExecContext(ctx, `UPDATE reports SET archived = true WHERE tenant = $1`, tenant) // want unfencedwrite:`ExecContext \(UPDATE reports\) writes to SQL database without a fencing token while the PostgreSQL lock taken by backoff.RetryNotify\(archiver.lock\) \(line 77\) is held`
	return err
}

type archiver struct {
	reports *Reports
	tenant  int64
}

// lock is backoff's Operation: it takes the tenant's lock or fails.
func (a *archiver) lock() error {
	_, err := a.reports.lockTenant(context.Background(), a.tenant)
	return err
}

// Total waits for a bsm/redislock lock with cenkalti/backoff v5, whose
// Retry takes the operation after a context.
func (r *Reports) Total(ctx context.Context, tenant string, total int64) error {
	lock, err := backoffv5.Retry(ctx, func() (*redislock.Lock, error) {
		return r.locker.Obtain(ctx, "total:"+tenant, 10*time.Second, nil)
	}, backoffv5.WithMaxTries(5))
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return r.rdb.Set(ctx, "report:total:"+tenant, total, 0).Err() // want unfencedwrite:`Set writes to Redis without a fencing token while the bsm/redislock lock taken by backoff.Retry's retried closure \(line 99\) is held`
}

// Reindex waits with avast/retry-go's DoWithData.
func (r *Reports) Reindex(ctx context.Context, tenant int64) error {
	key, err := retrygo.DoWithData(func() (int64, error) {
		return r.lockTenant(ctx, tenant)
	}, retrygo.Attempts(5))
	if err != nil {
		return err
	}
	defer r.unlockTenant(ctx, key)
	_, err = r.db.ExecContext(ctx, `DELETE FROM report_index WHERE tenant = $1`, tenant) // want unfencedwrite:`ExecContext \(DELETE report_index\) writes to SQL database without a fencing token while the PostgreSQL lock taken by retry.DoWithData's retried closure \(line 111\) is held`
	return err
}

// Snapshot waits with sethvargo/go-retry's DoValue, whose function takes
// the context it retries under.
func (r *Reports) Snapshot(ctx context.Context, tenant int64, snapshot []byte) error {
	key, err := retry.DoValue(ctx, retry.WithMaxRetries(5, retry.NewFibonacci(time.Second)), func(ctx context.Context) (int64, error) {
		key, err := r.lockTenant(ctx, tenant)
		if errors.Is(err, errBusy) {
			return 0, retry.RetryableError(err)
		}
		return key, err
	})
	if err != nil {
		return err
	}
	defer r.unlockTenant(ctx, key)
	_, err = r.db.ExecContext(ctx, `UPDATE reports SET snapshot = $1 WHERE tenant = $2`, snapshot, tenant) // want unfencedwrite:`ExecContext \(UPDATE reports\) writes to SQL database without a fencing token while the PostgreSQL lock taken by retry.DoValue's retried closure \(line 125\) is held`
	return err
}

// Refresh retries a cache refresh, not a lock: nothing is held, and the
// write is no lease's.
func (r *Reports) Refresh(ctx context.Context, tenant string) error {
	return backoff.Retry(func() error {
		return r.rdb.Expire(ctx, "report:url:"+tenant, time.Hour).Err()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// Package retriedlocks takes its locks through retry libraries, which call
// a try-lock again until it succeeds: the retry's call is the acquire, and
// the writes after it run under the lock.
package retriedlocks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/bsm/redislock"
	"github.com/cenkalti/backoff/v4"
	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/redis/go-redis/v9"
	retry "github.com/sethvargo/go-retry"
)

var errLocked = errors.New("locked by another worker")

// tryAdvisoryLock takes a session advisory lock on conn, or fails.
func tryAdvisoryLock(ctx context.Context, conn *sql.Conn, key int64) (int64, error) {
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil {
		return 0, err
	}
	if !ok {
		return 0, errLocked
	}
	return key, nil
}

func releaseAdvisoryLock(ctx context.Context, conn *sql.Conn, key int64) {
	conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", key)
}

// UserStore merges user metadata under a per-user advisory lock.
type UserStore struct {
	db   *sql.DB
	conn *sql.Conn
}

// UpdateMetadata retries the try-lock with failsafe-go until it gets it,
// then writes the merged metadata through the pool.
func (s *UserStore) UpdateMetadata(ctx context.Context, userID int64, merged string) error {
	v, err := failsafe.Get(func() (any, error) {
		return tryAdvisoryLock(ctx, s.conn, userID)
	}, retrypolicy.WithDefaults[any]())
	if err != nil {
		return fmt.Errorf("lock user %d: %w", userID, err)
	}
	key, ok := v.(int64)
	if !ok {
		return errLocked
	}
	defer releaseAdvisoryLock(ctx, s.conn, key)
	_, err = s.db.ExecContext(ctx, `UPDATE users SET metadata = $1 WHERE id = $2`, merged, userID) // want `ExecContext \(UPDATE users\) writes to SQL database without a fencing token while the PostgreSQL lock taken by failsafe.Get's retried closure \(line 49\) is held`
	return err
}

// UpdateEmail takes the same lock through an Executor.
func (s *UserStore) UpdateEmail(ctx context.Context, userID int64, email string) error {
	exec := failsafe.NewExecutor[int64](retrypolicy.WithDefaults[int64]())
	key, err := exec.Get(func() (int64, error) {
		return tryAdvisoryLock(ctx, s.conn, userID)
	})
	if err != nil {
		return err
	}
	defer releaseAdvisoryLock(ctx, s.conn, key)
	_, err = s.db.ExecContext(ctx, `UPDATE users SET email = $1 WHERE id = $2`, email, userID) // want `ExecContext \(UPDATE users\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Executor.Get's retried closure \(line 67\) is held`
	return err
}

// RecordFailure retries a write, not a lock: nothing is held.
func (s *UserStore) RecordFailure(ctx context.Context, userID int64) error {
	return retrygo.Do(func() error {
		_, err := s.db.ExecContext(ctx, `UPDATE users SET failures = failures + 1 WHERE id = $1`, userID)
		return err
	}, retrygo.Attempts(3))
}

// Rebalancer moves shard assignments under a Redis lock it waits for with
// exponential backoff.
type Rebalancer struct {
	rdb    *redis.Client
	locker *redislock.Client
}

// Rebalance writes the plan once the lock is obtained.
func (r *Rebalancer) Rebalance(ctx context.Context, plan string) error {
	var lock *redislock.Lock
	err := backoff.Retry(func() error {
		var err error
		lock, err = r.locker.Obtain(ctx, "rebalance", 30*time.Second, nil)
		return err
	}, backoff.NewExponentialBackOff())
	if err != nil {
		// Not held here: the failure is recorded for the operators.
		return r.rdb.Incr(ctx, "rebalance:lock-failures").Err()
	}
	defer lock.Release(ctx)
	return r.rdb.Set(ctx, "shards:plan", plan, 0).Err() // want `Set writes to Redis without a fencing token while the bsm/redislock lock taken by backoff.Retry's retried closure \(line 96\) is held`
}

// Compactor compacts a tenant's segments under an advisory lock.
type Compactor struct {
	db   *sql.DB
	conn *sql.Conn
}

// tryLock asks go-retry to try again while another compactor holds it.
func (c *Compactor) tryLock(ctx context.Context) error {
	var ok bool
	if err := c.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(7)").Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return retry.RetryableError(errLocked)
	}
	return nil
}

// Compact hands the try-lock to go-retry as a method value.
func (c *Compactor) Compact(ctx context.Context, tenant string) error {
	if err := retry.Do(ctx, retry.WithMaxRetries(5, retry.NewFibonacci(time.Second)), c.tryLock); err != nil {
		return err
	}
	defer c.conn.ExecContext(ctx, "SELECT pg_advisory_unlock(7)")
	_, err := c.db.ExecContext(ctx, `UPDATE segments SET merged_into = $1 WHERE tenant = $2`, tenant+"-merged", tenant) // want `ExecContext \(UPDATE segments\) writes to SQL database without a fencing token while the PostgreSQL lock taken by retry.Do\(Compactor.tryLock\) \(line 129\) is held`
	return err
}

// CompactFenced writes only when its fence is newer than the segment's.
func (c *Compactor) CompactFenced(ctx context.Context, tenant string, fence int64) error {
	if err := retry.Do(ctx, retry.NewFibonacci(time.Second), c.tryLock); err != nil {
		return err
	}
	defer c.conn.ExecContext(ctx, "SELECT pg_advisory_unlock(7)")
	res, err := c.db.ExecContext(ctx, `UPDATE segments SET merged_into = $1, fence = $3 WHERE tenant = $2 AND fence < $3`, tenant+"-merged", tenant, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errLocked
	}
	return nil
}

// Package mail sends the service's periodic mails, one cron at a time
// across the replicas, under task locks kept in the database.
package mail

import (
	"context"
	"database/sql"
	"time"

	"leaserows/repo"
)

const helloLock = "customer_hello_mail"

// Controller sends the mails.
type Controller struct {
	Locks   *repo.LockController
	History *repo.NotificationHistoryRepository
	Leaders *repo.LeaderRepository
	DB      *sql.DB
}

// SayHello records a hello sent to each user under the task lock: a holder
// paused past lock_until records it after the next holder has sent and
// recorded it too.
func (c *Controller) SayHello(users []int64) {
	if !c.Locks.TryLock(helloLock, time.Now().Add(24*time.Hour).UnixMicro()) {
		return
	}
	defer c.Locks.ReleaseLock(helloLock)
	for _, u := range users {
		c.History.SetLastNotificationTimeToNow(u, "hello") // want `SetLastNotificationTimeToNow \(DB.Exec \(INSERT notification_history\) at tasklock.go:\d+\) writes to SQL database without a fencing token while the lease row taken by LockController.TryLock \(line 27\) is held: a holder paused past the lease's expiry still adds its rows`
	}
}

// SayHelloLong renews the lock between batches; the renewal and the
// release are the lock's own statements, not work it guards.
func (c *Controller) SayHelloLong(batches [][]int64) {
	if !c.Locks.TryLock(helloLock, time.Now().Add(time.Hour).UnixMicro()) {
		return
	}
	defer c.Locks.ReleaseLock(helloLock)
	for _, batch := range batches {
		if err := c.Locks.ExtendLock(helloLock, time.Now().Add(time.Hour).UnixMicro()); err != nil {
			return
		}
		for _, u := range batch {
			c.History.SetLastNotificationTimeToNow(u, "hello") // want `SetLastNotificationTimeToNow .* while the lease row taken by LockController.TryLock \(line [0-9]+\) is held`
		}
	}
}

// SayHelloUnlocked writes where the lock was not won: no lease is held.
func (c *Controller) SayHelloUnlocked(users []int64) {
	if c.Locks.TryLock(helloLock, time.Now().Add(time.Hour).UnixMicro()) {
		defer c.Locks.ReleaseLock(helloLock)
		return
	}
	for _, u := range users {
		c.History.SetLastNotificationTimeToNow(u, "skipped")
	}
}

// SweepThenSend sweeps expired locks first: the sweep lets go of nothing
// it holds, so the write after it is still under the lock.
func (c *Controller) SweepThenSend(tasks *repo.TaskLockRepository, u int64) {
	if !c.Locks.TryLock(helloLock, time.Now().Add(time.Hour).UnixMicro()) {
		return
	}
	defer c.Locks.ReleaseLock(helloLock)
	_ = tasks.CleanupExpiredLocks()
	c.History.SetLastNotificationTimeToNow(u, "hello") // want `SetLastNotificationTimeToNow .* while the lease row taken by LockController.TryLock \(line [0-9]+\) is held`
}

// ReleaseThenLog writes once it has let the lock go: no lease is held.
func (c *Controller) ReleaseThenLog(u int64) {
	if !c.Locks.TryLock(helloLock, time.Now().Add(time.Hour).UnixMicro()) {
		return
	}
	c.Locks.ReleaseLock(helloLock)
	c.History.SetLastNotificationTimeToNow(u, "done")
}

// Fenced writes carry a token the store checks.
func (c *Controller) Fenced(ctx context.Context, id, fence int64) error {
	if !c.Locks.TryLock(helloLock, time.Now().Add(time.Hour).UnixMicro()) {
		return nil
	}
	defer c.Locks.ReleaseLock(helloLock)
	return c.History.SaveDoc(ctx, id, "body", fence)
}

// Reconcile claims leadership by the row it changes, and writes while it
// holds it.
func (c *Controller) Reconcile(ctx context.Context, self string) error {
	if _, err := c.Leaders.Claim(ctx, "reconciler", self, 15*time.Second); err != nil {
		return err // sql.ErrNoRows: another replica leads
	}
	_, err := c.DB.ExecContext(ctx, `UPDATE quotas SET used = $1 WHERE tenant = $2`, 10, "t1") // want `ExecContext \(UPDATE quotas\) writes to SQL database without a fencing token while the lease row taken by LeaderRepository.Claim \(line 96\) is held: .*have the claim bump a token in the lease row`
	return err
}

// ClaimJobDirect claims a job lock in place and writes only where the
// claim changed a row.
func (c *Controller) ClaimJobDirect(ctx context.Context, job int64, self string) error {
	res, err := c.DB.ExecContext(ctx, `UPDATE job_locks SET owner = $1, locked_until = now() + interval '1 minute'
		WHERE job_id = $2 AND locked_until < now()`, self, job)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		_, err = c.DB.ExecContext(ctx, `UPDATE jobs SET skipped = skipped + 1 WHERE id = $1`, job)
		return err
	}
	_, err = c.DB.ExecContext(ctx, `UPDATE jobs SET state = 'done' WHERE id = $1`, job) // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the lease row in job_locks taken by ExecContext`
	return err
}

// BumpFence is a fencing write, not a claim: docs is no lock table, and
// the WHERE compares the very value it writes.
func (c *Controller) BumpFence(ctx context.Context, id, fence int64) error {
	res, err := c.DB.ExecContext(ctx, `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2`, "b", fence, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	_, err = c.DB.ExecContext(ctx, `UPDATE stats SET last = $1 WHERE id = $2`, fence, id)
	return err
}

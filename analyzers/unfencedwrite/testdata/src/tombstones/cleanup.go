// Package tombstones cleans up objects queued for deletion, one object at a
// time across the replicas, under a PostgreSQL advisory lock held on a
// connection of its own.
package tombstones

import (
	"context"
	"database/sql"
)

// Cleaner deletes objects queued for deletion.
type Cleaner struct {
	DB   *sql.DB
	Conn *sql.Conn
}

func (c *Cleaner) lock(ctx context.Context, key string) bool {
	var ok bool
	err := c.Conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(hashtext($1))", key).Scan(&ok)
	return err == nil && ok
}

func (c *Cleaner) unlock(ctx context.Context, key string) {
	c.Conn.ExecContext(ctx, "SELECT pg_advisory_unlock(hashtext($1))", key)
}

// CleanupObject removes an object's rows once they are marked deleted, and
// marks its queue item deleted: both change nothing a second time.
func (c *Cleaner) CleanupObject(ctx context.Context, key string) error {
	if !c.lock(ctx, key) {
		return nil
	}
	defer c.unlock(ctx, key)
	if _, err := c.DB.ExecContext(ctx, `DELETE FROM object_keys WHERE object_key = $1 AND is_deleted = TRUE`, key); err != nil {
		return err
	}
	_, err := c.DB.ExecContext(ctx, `UPDATE queue SET is_deleted = $1 WHERE queue_name = $2 AND item = $3`, true, "delete_object", key)
	return err
}

// MarkDone sets a boolean state only where it was not set yet: a
// compare-and-set a stale holder's copy finds moved on.
func (c *Cleaner) MarkDone(ctx context.Context, id int64) error {
	if !c.lock(ctx, "jobs") {
		return nil
	}
	defer c.unlock(ctx, "jobs")
	_, err := c.DB.ExecContext(ctx, `UPDATE referrals SET on_paid_plan = TRUE WHERE invitee = $1 AND on_paid_plan = FALSE`, id)
	return err
}

// FinishJob marks a job done: a stale holder's done = true can cover the
// retry the next holder started, so it is judged.
func (c *Cleaner) FinishJob(ctx context.Context, job int64) error {
	if !c.lock(ctx, "jobs") {
		return nil
	}
	defer c.unlock(ctx, "jobs")
	_, err := c.DB.ExecContext(ctx, `UPDATE jobs SET done = TRUE WHERE id = $1`, job) // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
	return err
}

// RestoreObject marks an object live again: no tombstone.
func (c *Cleaner) RestoreObject(ctx context.Context, key string) error {
	if !c.lock(ctx, key) {
		return nil
	}
	defer c.unlock(ctx, key)
	_, err := c.DB.ExecContext(ctx, `UPDATE object_keys SET is_deleted = FALSE WHERE object_key = $1`, key) // want `ExecContext \(UPDATE object_keys\) writes to SQL database without a fencing token`
	return err
}

// ArchiveFolder archives a folder, which users unarchive: judged.
func (c *Cleaner) ArchiveFolder(ctx context.Context, id int64) error {
	if !c.lock(ctx, "folders") {
		return nil
	}
	defer c.unlock(ctx, "folders")
	_, err := c.DB.ExecContext(ctx, `UPDATE folders SET archived = TRUE WHERE id = $1`, id) // want `ExecContext \(UPDATE folders\) writes to SQL database without a fencing token`
	return err
}

// PurgeAll tombstones every row: no key pins the rows the holder saw.
func (c *Cleaner) PurgeAll(ctx context.Context) error {
	if !c.lock(ctx, "objects") {
		return nil
	}
	defer c.unlock(ctx, "objects")
	_, err := c.DB.ExecContext(ctx, `UPDATE object_keys SET is_deleted = TRUE WHERE kind = 'thumb'`) // want `ExecContext \(UPDATE object_keys\) writes to SQL database without a fencing token`
	return err
}

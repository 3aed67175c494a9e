// Package repo keeps leases as rows of task_lock (ente's museum server):
// a claim takes a row over only once its lease has run out, a release
// deletes it by name, an extension pushes its end out.
package repo

import (
	"database/sql"
	"time"
)

type TaskLockRepository struct {
	DB *sql.DB
}

// AcquireLock claims the named lease until lockUntil; it reports whether
// this caller holds it now.
func (r *TaskLockRepository) AcquireLock(name string, lockUntil int64, lockedBy string) (bool, error) {
	res, err := r.DB.Exec(`INSERT INTO task_lock(task_name, lock_until, locked_at, locked_by) VALUES($1, $2, $3, $4)
		ON CONFLICT ON CONSTRAINT task_lock_pkey DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4
		WHERE task_lock.lock_until < $3`, name, lockUntil, time.Now().UnixMicro(), lockedBy)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ExtendLock pushes the end of a lease this caller holds out.
func (r *TaskLockRepository) ExtendLock(name string, lockUntil int64, lockedBy string) (bool, error) {
	res, err := r.DB.Exec(`UPDATE task_lock SET locked_at = $1, lock_until = $2 WHERE task_name = $3 AND locked_by = $4`,
		time.Now().UnixMicro(), lockUntil, name, lockedBy)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseLock lets the named lease go.
func (r *TaskLockRepository) ReleaseLock(name string) error {
	_, err := r.DB.Exec(`DELETE FROM task_lock WHERE task_name = $1`, name)
	return err
}

// CacheRepository keeps computed values that expire: an entry past its
// end is recomputed and replaced. It guards nothing.
type CacheRepository struct {
	DB *sql.DB
}

// Refresh replaces the entry if it has expired, and reports whether it did.
func (r *CacheRepository) Refresh(key, value string, until time.Time) (bool, error) {
	res, err := r.DB.Exec(`INSERT INTO cache_entries (key, value, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET value = $2, expires_at = $3 WHERE cache_entries.expires_at < now()`, key, value, until)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

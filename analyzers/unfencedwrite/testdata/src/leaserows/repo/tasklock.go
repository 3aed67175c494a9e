// Package repo keeps the service's task locks in a table of its own: a row
// per task, taken over once lock_until has passed.
package repo

import (
	"context"
	"database/sql"
	"time"
)

// TaskLockRepository reads and writes the task_lock table.
type TaskLockRepository struct {
	DB *sql.DB
}

// AcquireLock takes the task's row, or takes it over from a holder whose
// lock_until has passed; it reports whether it did.
func (r *TaskLockRepository) AcquireLock(name string, lockUntil int64, lockedBy string) (bool, error) {
	res, err := r.DB.Exec(`INSERT INTO task_lock(task_name, lock_until, locked_at, locked_by) VALUES($1, $2, $3, $4)
		ON CONFLICT ON CONSTRAINT task_lock_pkey DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4
		WHERE task_lock.lock_until < $3`, name, lockUntil, time.Now().UnixMicro(), lockedBy)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

// ExtendLock moves lock_until on while the holder still has the row.
func (r *TaskLockRepository) ExtendLock(name string, lockUntil int64, lockedBy string) (bool, error) {
	res, err := r.DB.Exec(`UPDATE task_lock SET locked_at = $1, lock_until = $2 WHERE task_name = $3 AND locked_by = $4`,
		time.Now().UnixMicro(), lockUntil, name, lockedBy)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseLock lets the task's row go.
func (r *TaskLockRepository) ReleaseLock(name string) error {
	_, err := r.DB.Exec(`DELETE FROM task_lock WHERE task_name = $1`, name) // want `DB.Exec \(DELETE task_lock\) lets the lease row in task_lock go without checking it is still this holder's: a holder paused past the row's expiry deletes the row the next holder took`
	return err
}

// ReleaseOwnLock lets the task's row go only while it is still this
// holder's.
func (r *TaskLockRepository) ReleaseOwnLock(name, lockedBy string) (bool, error) {
	res, err := r.DB.Exec(`DELETE FROM task_lock WHERE task_name = $1 AND locked_by = $2`, name, lockedBy)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseLocksBy lets go of every row this host holds, at shutdown.
func (r *TaskLockRepository) ReleaseLocksBy(lockedBy string) error {
	_, err := r.DB.Exec(`DELETE FROM task_lock WHERE locked_by = $1`, lockedBy)
	return err
}

// CleanupExpiredLocks sweeps rows whose holders are long gone; it lets go
// of no lock a caller holds.
func (r *TaskLockRepository) CleanupExpiredLocks() error {
	_, err := r.DB.Exec(`DELETE FROM task_lock WHERE lock_until < $1`, time.Now().UnixMicro())
	return err
}

// LeaderRepository keeps one row per leadership, renewed by its holder and
// taken over by another replica once it has expired.
type LeaderRepository struct {
	DB *sql.DB
}

// Claim takes leadership of name for ttl, or renews it; the new expiry is
// returned by the row it changed.
func (r *LeaderRepository) Claim(ctx context.Context, name, holder string, ttl time.Duration) (time.Time, error) {
	var until time.Time
	err := r.DB.QueryRowContext(ctx, `UPDATE leader SET holder = $1, expires_at = now() + $3::interval
		WHERE name = $2 AND (expires_at < now() OR holder = $1) RETURNING expires_at`, holder, name, ttl.String()).Scan(&until)
	return until, err
}

// NotificationHistoryRepository records which mails were sent.
type NotificationHistoryRepository struct {
	DB *sql.DB
}

// SetLastNotificationTimeToNow records a mail sent to the user.
func (r *NotificationHistoryRepository) SetLastNotificationTimeToNow(userID int64, templateID string) error {
	_, err := r.DB.Exec(`INSERT INTO notification_history(user_id, template_id, sent_time) VALUES($1, $2, $3)`,
		userID, templateID, time.Now().UnixMicro())
	return err
}

// SaveDoc writes a document fenced by the token its caller was handed.
func (r *NotificationHistoryRepository) SaveDoc(ctx context.Context, id int64, body string, fence int64) error {
	res, err := r.DB.ExecContext(ctx, `UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2`, body, fence, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

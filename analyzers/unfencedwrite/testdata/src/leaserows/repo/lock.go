package repo

// LockController takes the task locks for the service's crons.
type LockController struct {
	TaskLockingRepo *TaskLockRepository
	HostName        string
}

// TryLock reports whether this host got the task's lock.
func (c *LockController) TryLock(lockID string, lockUntil int64) bool {
	ok, err := c.TaskLockingRepo.AcquireLock(lockID, lockUntil, c.HostName)
	if err != nil || !ok {
		return false
	}
	return true
}

// ExtendLock keeps the task's lock while a long job runs.
func (c *LockController) ExtendLock(lockID string, lockUntil int64) error {
	_, err := c.TaskLockingRepo.ExtendLock(lockID, lockUntil, c.HostName)
	return err
}

// ReleaseLock lets the task's lock go.
func (c *LockController) ReleaseLock(lockID string) {
	_ = c.TaskLockingRepo.ReleaseLock(lockID)
}

// Package queue is reduced from Harness's merge queue: reset locks the
// branch and lets it go in a deferred call of the func LockBranch
// returned, so it is no acquire wrapper and what its caller writes after it
// is not under the branch lock.
package queue

import (
	"context"
	"database/sql"

	"releasefuncs/locker"
)

type Service struct {
	db     *sql.DB
	locker locker.Locker
	keep   func()
}

// reset reads the entries under the branch lock and releases it.
func (s *Service) reset(ctx context.Context, repoID int64, branch string) {
	unlock, err := s.locker.LockBranch(ctx, repoID, branch)
	if err != nil {
		return
	}
	defer unlock()
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM entries WHERE repo_id = $1`, repoID)
	if err == nil {
		rows.Close()
	}
}

// rewrite writes under the branch lock before the deferred release.
func (s *Service) rewrite(ctx context.Context, repoID int64, branch string) {
	unlock, err := s.locker.LockBranch(ctx, repoID, branch)
	if err != nil {
		return
	}
	defer unlock()
	s.db.ExecContext(ctx, `UPDATE entries SET state = 'pending' WHERE repo_id = $1`, repoID) // want `writes to SQL database without a fencing token while the redsync lock taken by Locker.LockBranch \(line \d+\) is held`
}

// unlockedEarly calls the release before its last write.
func (s *Service) unlockedEarly(ctx context.Context, repoID int64, branch string) error {
	unlock, err := s.locker.LockBranch(ctx, repoID, branch)
	if err != nil {
		return err
	}
	unlock()
	_, err = s.db.ExecContext(ctx, `UPDATE entries SET state = 'pending' WHERE repo_id = $1`, repoID)
	return err
}

// Process resets, then reprocesses with no lock held: reset let go.
func (s *Service) Process(ctx context.Context, repoID int64, branch string) error {
	s.reset(ctx, repoID, branch)
	_, err := s.db.ExecContext(ctx, `UPDATE queues SET processed_at = now() WHERE repo_id = $1`, repoID)
	return err
}

// begin keeps the release for later: it returns holding the lock.
func (s *Service) begin(ctx context.Context, repoID int64, branch string) error {
	unlock, err := s.locker.LockBranch(ctx, repoID, branch)
	if err != nil {
		return err
	}
	s.keep = unlock
	return nil
}

// Merge writes after begin, which still holds the branch lock.
func (s *Service) Merge(ctx context.Context, repoID int64, branch string) error {
	if err := s.begin(ctx, repoID, branch); err != nil {
		return err
	}
	defer s.keep()
	_, err := s.db.ExecContext(ctx, `UPDATE queues SET merged = true WHERE repo_id = $1`, repoID) // want `writes to SQL database without a fencing token while the redsync lock taken by Service.begin`
	return err
}

// annotate's func only logs: the lock stays held after it is called.
func (s *Service) annotate(ctx context.Context, repoID int64) error {
	note, err := s.locker.LockWithNote(ctx, "repo")
	if err != nil {
		return err
	}
	note("writing")
	_, err = s.db.ExecContext(ctx, `UPDATE queues SET noted = true WHERE repo_id = $1`, repoID) // want `writes to SQL database without a fencing token while the redsync lock taken by Locker.LockWithNote`
	return err
}

// check reads under the repository lock and lets go in a deferred closure
// that calls the func LockRepo returned (defer func() { _ = unlock(ctx) }()),
// as Replicare's migration runner does: it is no acquire wrapper.
func (s *Service) check(ctx context.Context, repoID int64) error {
	unlock, err := s.locker.LockRepo(ctx, "check")
	if err != nil {
		return err
	}
	defer func() { _ = unlock(ctx) }()
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM entries WHERE repo_id = $1`, repoID)
	if err == nil {
		rows.Close()
	}
	return err
}

// Open writes after check, which let go: no lock is held.
func (s *Service) Open(ctx context.Context, repoID int64) error {
	if err := s.check(ctx, repoID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE queues SET opened = true WHERE repo_id = $1`, repoID)
	return err
}

// repair writes before the deferred closure lets go: under the lock.
func (s *Service) repair(ctx context.Context, repoID int64) error {
	unlock, err := s.locker.LockRepo(ctx, "repair")
	if err != nil {
		return err
	}
	defer func() { _ = unlock(ctx) }()
	_, err = s.db.ExecContext(ctx, `UPDATE entries SET state = 'repaired' WHERE repo_id = $1`, repoID) // want `writes to SQL database without a fencing token while the redsync lock taken by Locker.LockRepo \(line \d+\) is held`
	return err
}

// hold keeps a release it may never call: the closure reassigns the
// variable, so what it calls is not known to be the release.
func (s *Service) hold(ctx context.Context, repoID int64) error {
	unlock, err := s.locker.LockRepo(ctx, "hold")
	if err != nil {
		return err
	}
	defer func() {
		unlock = func(context.Context) error { return nil }
		_ = unlock(ctx)
	}()
	return nil
}

// Close writes after hold, which still holds the repository lock.
func (s *Service) Close(ctx context.Context, repoID int64) error {
	if err := s.hold(ctx, repoID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `UPDATE queues SET closed = true WHERE repo_id = $1`, repoID) // want `writes to SQL database without a fencing token while the redsync lock taken by Service.hold`
	return err
}

// AddIndex writes under the lock LockLoaded handed over, until the
// deferred release.
func (s *Service) AddIndex(ctx context.Context, space string) error {
	unlock, err := s.locker.LockLoaded(ctx, space, func() error { return nil })
	if err != nil {
		return err
	}
	defer unlock()
	_, err = s.db.ExecContext(ctx, `UPDATE spaces SET indexes = indexes + 1 WHERE name = $1`, space) // want `writes to SQL database without a fencing token while the redsync lock taken by Locker.LockLoaded \(line \d+\) is held`
	return err
}

// Reindex writes under the lock LockDone handed over.
func (s *Service) Reindex(ctx context.Context, space string) error {
	unlock, err := s.locker.LockDone(ctx, space, func() error { return nil })
	if err != nil {
		return err
	}
	defer unlock()
	_, err = s.db.ExecContext(ctx, `UPDATE spaces SET reindexed = true WHERE name = $1`, space) // want `writes to SQL database without a fencing token while the redsync lock taken by Locker.LockDone \(line \d+\) is held`
	return err
}

// Recheck writes after LockChecked, which let go (a hard negative).
func (s *Service) Recheck(ctx context.Context, space string) error {
	unlock, err := s.locker.LockChecked(ctx, space)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = s.db.ExecContext(ctx, `UPDATE spaces SET checked = true WHERE name = $1`, space)
	return err
}

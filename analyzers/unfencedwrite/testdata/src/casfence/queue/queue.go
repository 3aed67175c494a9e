// Package queue is reduced from Harness's merge queue and auto-merge: they
// hold a redsync branch lock, but what they write commits with a
// compare-and-swap of the target branch (fenced), or is appended only after
// it succeeded. Writes the compare-and-swap does not decide stay reported.
package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	"github.com/go-redsync/redsync/v4"

	"casfence/merge"
)

type Service struct {
	db    *sql.DB
	rs    *redsync.Redsync
	tx    merge.Transactor
	git   merge.Git
	merge *merge.Service
}

var errPrecondition = errors.New("precondition failed")

// fastForward deletes the merged entries and marks their pull requests
// merged in a transaction that commits only if the target branch moves
// from the expected SHA, then appends an activity for each.
func (s *Service) fastForward(ctx context.Context, branch, expected, merged string, ids []int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	err := s.tx.WithTx(ctx, func(ctx context.Context) error {
		for _, id := range ids {
			if _, err := s.db.ExecContext(ctx, `DELETE FROM merge_queue_entries WHERE pullreq_id = $1`, id); err != nil {
				return err
			}
			if _, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id); err != nil {
				return err
			}
		}
		err := s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}})
		if errors.Is(err, errPrecondition) {
			return errPrecondition
		}
		if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}

	for _, id := range ids {
		s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'merged')`, id)
		s.merge.DeleteBranchTry(ctx, id, "feature")
		s.db.ExecContext(ctx, `UPDATE repositories SET num_merged = num_merged + 1 WHERE id = $1`, id) // want `DB.ExecContext \(UPDATE repositories\) writes to SQL database without a fencing token`
	}
	return nil
}

// autoMerge merges through the merge service, whose nil error says the
// compare-and-swap succeeded, and appends after it.
func (s *Service) autoMerge(ctx context.Context, branch string, prID int64, refs []merge.RefUpdate) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'merging')`, prID) // want `DB.ExecContext \(INSERT pullreq_activities\) writes to SQL database without a fencing token`
	if err := s.merge.TxRefAndDatabaseUpdate(ctx, prID, refs); err != nil {
		return err
	}
	s.merge.DeleteBranchTry(ctx, prID, "feature")
	s.merge.Reopen(ctx, prID) // want `Service.Reopen \(DB.ExecContext \(UPDATE pullreqs\) at merge.go:\d+\) writes to SQL database without a fencing token`
	return nil
}

// ignoredCAS logs a failed compare-and-swap and commits anyway: the
// transaction's writes survive a stale holder's failed CAS.
func (s *Service) ignoredCAS(ctx context.Context, branch, expected, merged string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id) // want `DB.ExecContext \(UPDATE pullreqs\) writes to SQL database without a fencing token`
		if err := s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}}); err != nil {
			log.Printf("update refs: %v", err)
		}
		return nil
	})
}

// earlyCommit returns nil before the compare-and-swap on one path.
func (s *Service) earlyCommit(ctx context.Context, branch, expected, merged string, id int64, dryRun bool) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id); err != nil { // want `DB.ExecContext \(UPDATE pullreqs\) writes to SQL database without a fencing token`
			return err
		}
		if dryRun {
			return nil
		}
		return s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}})
	})
}

// retried runs the same steps in a retry helper, not a transaction: the
// update stays written when the compare-and-swap fails.
func (s *Service) retried(ctx context.Context, branch, expected, merged string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return retry(ctx, func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id); err != nil { // want `DB.ExecContext \(UPDATE pullreqs\) writes to SQL database without a fencing token`
			return err
		}
		return s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}})
	})
}

func retry(ctx context.Context, fn func(ctx context.Context) error) error {
	var err error
	for range 3 {
		if err = fn(ctx); err == nil {
			return nil
		}
	}
	return err
}

// mergeAndRecord appends after Merge, whose nil error says its
// compare-and-swap succeeded.
func (s *Service) mergeAndRecord(ctx context.Context, branch, expected, merged string, prID int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	if err := s.merge.Merge(ctx, prID, branch, expected, merged); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'merged')`, prID)
	return err
}

// skipRefs may commit with the error of a statement that is no CAS.
func (s *Service) skipRefs(ctx context.Context, branch, expected, merged string, id int64, skip bool) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id); err != nil { // want `DB.ExecContext \(UPDATE pullreqs\) writes to SQL database without a fencing token`
			return err
		}
		if skip {
			_, err := s.db.ExecContext(ctx, `SELECT pg_notify('skipped', $1)`, branch)
			return err
		}
		return s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}})
	})
}

// sharedErr assigns the compare-and-swap's error to a variable it shares
// with its caller, as Harness's fastForward does (err = s.git.UpdateRefs).
func (s *Service) sharedErr(ctx context.Context, branch, expected, merged string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	err := m.LockContext(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	err = s.tx.WithTx(ctx, func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, id); err != nil {
			return err
		}
		err = s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}})
		if errors.Is(err, errPrecondition) {
			return errPrecondition
		}
		if err != nil {
			return fmt.Errorf("update refs: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'merged')`, id)
	return err
}

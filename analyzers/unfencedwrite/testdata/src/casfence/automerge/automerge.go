// Package automerge is reduced from Harness's auto-merge: under a redsync
// branch lock it updates the pull request by the version it read (a
// compare-and-set that returns an error when it lost) and, in the same
// transaction, writes rows that commit only with it.
package automerge

import (
	"context"
	"database/sql"
	"log"

	"github.com/go-redsync/redsync/v4"

	"casfence/merge"
	"casfence/prstore"
)

// PullReqStore is implemented by *prstore.Store.
type PullReqStore interface {
	Find(ctx context.Context, id int64) (*prstore.PullReq, error)
	Update(ctx context.Context, pr *prstore.PullReq) error
	UpdateLoose(ctx context.Context, pr *prstore.PullReq) error
	UpdateIgnoring(ctx context.Context, pr *prstore.PullReq) error
}

type Service struct {
	db  *sql.DB
	rs  *redsync.Redsync
	tx  merge.Transactor
	git merge.Git
	prs PullReqStore
}

// disable clears the pull request's auto-merge state and deletes its
// auto-merge row in the transaction whose version-checked update must win:
// a holder paused past the lock's expiry finds the version moved on, and
// its delete rolls back with the update.
func (s *Service) disable(ctx context.Context, branch string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		pr, err := s.prs.Find(ctx, id)
		if err != nil {
			return err
		}
		pr.SubState = ""
		if err := s.prs.Update(ctx, pr); err != nil {
			return err
		}
		_, err = s.db.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, id)
		return err
	})
}

// ignoredConflict logs a lost compare-and-set and commits anyway.
func (s *Service) ignoredConflict(ctx context.Context, branch string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		pr, err := s.prs.Find(ctx, id)
		if err != nil {
			return err
		}
		if err := s.prs.Update(ctx, pr); err != nil {
			log.Printf("update: %v", err)
		}
		_, err = s.db.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, id) // want `DB.ExecContext \(DELETE auto_merges\) writes to SQL database without a fencing token`
		return err
	})
}

// loose relies on a store whose nil error does not say the version matched.
func (s *Service) loose(ctx context.Context, branch string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		pr, err := s.prs.Find(ctx, id)
		if err != nil {
			return err
		}
		if err := s.prs.UpdateLoose(ctx, pr); err != nil {
			return err
		}
		_, err = s.db.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, id) // want `DB.ExecContext \(DELETE auto_merges\) writes to SQL database without a fencing token`
		return err
	})
}

// ignoring relies on a store that swallows some errors of its write.
func (s *Service) ignoring(ctx context.Context, branch string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		pr, err := s.prs.Find(ctx, id)
		if err != nil {
			return err
		}
		if err := s.prs.UpdateIgnoring(ctx, pr); err != nil {
			return err
		}
		_, err = s.db.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, id) // want `DB.ExecContext \(DELETE auto_merges\) writes to SQL database without a fencing token`
		return err
	})
}

// afterGitCAS deletes after git's compare-and-swap in the transaction: the
// reference is not a row the transaction keeps locked, so the next holder
// may move it on and write before this transaction commits.
func (s *Service) afterGitCAS(ctx context.Context, branch, expected, merged string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.tx.WithTx(ctx, func(ctx context.Context) error {
		if err := s.git.UpdateRefs(ctx, merge.UpdateRefsParams{Refs: []merge.RefUpdate{{Name: branch, Old: expected, New: merged}}}); err != nil {
			return err
		}
		_, err := s.db.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, id) // want `DB.ExecContext \(DELETE auto_merges\) writes to SQL database without a fencing token`
		return err
	})
}

// record appends an activity only after the version-checked update won,
// then bumps a counter, which the compare-and-set does not decide.
func (s *Service) record(ctx context.Context, branch string, id int64) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	pr, err := s.prs.Find(ctx, id)
	if err != nil {
		return err
	}
	if err := s.prs.Update(ctx, pr); err != nil {
		return err
	}
	s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'auto-merge-disabled')`, id)
	s.db.ExecContext(ctx, `UPDATE repositories SET num_changes = num_changes + 1 WHERE id = $1`, id) // want `DB.ExecContext \(UPDATE repositories\) writes to SQL database without a fencing token`
	return nil
}

// recordInline checks the rows of its own version-checked update before
// appending; an append reached when the update lost is reported.
func (s *Service) recordInline(ctx context.Context, branch string, id, version int64, force bool) error {
	m := s.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	res, err := s.db.ExecContext(ctx, `UPDATE pullreqs SET sub_state = '', version = version + 1 WHERE id = $1 AND version = $2`, id, version)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 && !force {
		return prstore.ErrVersionConflict
	}
	s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'auto-merge-disabled')`, id) // want `DB.ExecContext \(INSERT pullreq_activities\) writes to SQL database without a fencing token`
	if n == 0 {
		return prstore.ErrVersionConflict
	}
	s.db.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'recorded')`, id)
	return nil
}

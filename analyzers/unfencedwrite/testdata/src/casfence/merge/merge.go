// Package merge is reduced from Harness's merge service: a pull request is
// marked merged in a database transaction that commits only if the git
// reference update (a compare-and-swap from the SHA the merge was computed
// on) succeeds.
package merge

import (
	"context"
	"database/sql"
)

// RefUpdate moves a reference from Old (the expected current value) to New.
type RefUpdate struct {
	Name string
	Old  string
	New  string
}

type UpdateRefsParams struct {
	RepoUID string
	Refs    []RefUpdate
}

// Git is the git service the application calls over RPC.
type Git interface {
	UpdateRefs(ctx context.Context, params UpdateRefsParams) error
	DeleteBranch(ctx context.Context, branch string) error
}

// Transactor runs txFn in a database transaction, committed only when it
// returns nil.
type Transactor interface {
	WithTx(ctx context.Context, txFn func(ctx context.Context) error) error
}

type Service struct {
	DB  *sql.DB
	Tx  Transactor
	Git Git
}

// TxRefAndDatabaseUpdate marks the pull request merged and moves the
// target branch in one transaction: it returns nil only after the
// compare-and-swap succeeded.
func (s *Service) TxRefAndDatabaseUpdate(ctx context.Context, prID int64, refs []RefUpdate) error {
	return s.Tx.WithTx(ctx, func(ctx context.Context) error {
		if _, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, prID); err != nil {
			return err
		}
		if err := s.Git.UpdateRefs(ctx, UpdateRefsParams{Refs: refs}); err != nil {
			return err
		}
		return nil
	})
}

// DeleteBranchTry deletes the source branch and appends an activity row.
func (s *Service) DeleteBranchTry(ctx context.Context, prID int64, branch string) bool {
	if err := s.Git.DeleteBranch(ctx, branch); err != nil {
		return false
	}
	s.DB.ExecContext(ctx, `INSERT INTO pullreq_activities (pullreq_id, kind) VALUES ($1, 'branch-deleted')`, prID)
	return true
}

// Reopen overwrites the pull request's state.
func (s *Service) Reopen(ctx context.Context, prID int64) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET state = 'open' WHERE id = $1`, prID)
	return err
}

// Merge moves the branch from the SHA it read to the merge commit and marks
// the pull request merged, in one transaction: it returns the
// transaction's error, nil only after the compare-and-swap succeeded.
func (s *Service) Merge(ctx context.Context, prID int64, branch, expected, merged string) error {
	return s.Tx.WithTx(ctx, func(ctx context.Context) error {
		if _, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET state = 'merged' WHERE id = $1`, prID); err != nil {
			return err
		}
		return s.Git.UpdateRefs(ctx, UpdateRefsParams{Refs: []RefUpdate{{Name: branch, Old: expected, New: merged}}})
	})
}

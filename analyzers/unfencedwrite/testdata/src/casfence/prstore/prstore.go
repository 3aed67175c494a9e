// Package prstore is reduced from Harness's pull request store: Update
// writes a pull request only over the version its caller read and returns
// ErrVersionConflict when no row matched, so its nil error says the
// compare-and-set won.
package prstore

import (
	"context"
	"database/sql"
	"errors"

	"casfence/dberr"
)

var ErrVersionConflict = errors.New("version conflict")

type PullReq struct {
	ID       int64
	SubState string
	Version  int64
}

type Store struct {
	DB *sql.DB
}

// Find reads a pull request.
func (s *Store) Find(ctx context.Context, id int64) (*PullReq, error) {
	pr := &PullReq{ID: id}
	err := s.DB.QueryRowContext(ctx, `SELECT sub_state, version FROM pullreqs WHERE id = $1`, id).Scan(&pr.SubState, &pr.Version)
	if err != nil {
		return nil, dberr.Wrap(err, "find pull request")
	}
	return pr, nil
}

// Update is a compare-and-set: a nil error only when the version matched.
func (s *Store) Update(ctx context.Context, pr *PullReq) error {
	res, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET sub_state = $1, version = version + 1 WHERE id = $2 AND version = $3`, pr.SubState, pr.ID, pr.Version)
	if err != nil {
		return dberr.Wrap(err, "update pull request")
	}
	n, err := res.RowsAffected()
	if err != nil {
		return dberr.Wrap(err, "rows affected")
	}
	if n == 0 {
		return ErrVersionConflict
	}
	return nil
}

// UpdateLoose checks the version but returns nil when it did not match:
// its nil error says nothing about who won.
func (s *Store) UpdateLoose(ctx context.Context, pr *PullReq) error {
	res, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET sub_state = $1, version = version + 1 WHERE id = $2 AND version = $3`, pr.SubState, pr.ID, pr.Version)
	if err != nil {
		return dberr.Wrap(err, "update pull request")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	return nil
}

// UpdateIgnoring swallows some errors of the write: it may return nil
// though nothing was written.
func (s *Store) UpdateIgnoring(ctx context.Context, pr *PullReq) error {
	res, err := s.DB.ExecContext(ctx, `UPDATE pullreqs SET sub_state = $1, version = version + 1 WHERE id = $2 AND version = $3`, pr.SubState, pr.ID, pr.Version)
	if err != nil {
		return dberr.Ignore(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrVersionConflict
	}
	return nil
}

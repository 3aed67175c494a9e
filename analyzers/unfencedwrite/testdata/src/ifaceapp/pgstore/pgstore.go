// Package pgstore is the PostgreSQL implementation of the domain's stores.
package pgstore

import (
	"context"
	"database/sql"
	"errors"

	"ifaceapp/domain"
)

var ErrStale = errors.New("stale fence")

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

func (s *Store) InsertRun(ctx context.Context, r domain.Run) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO runs (job, ended) VALUES ($1, $2)`, r.Job, r.Ended)
	return err
}

func (s *Store) LastRun(ctx context.Context, job string) (domain.Run, error) {
	var r domain.Run
	err := s.db.QueryRowContext(ctx, `SELECT id, job, ended FROM runs WHERE job = $1 ORDER BY ended DESC LIMIT 1`, job).Scan(&r.ID, &r.Job, &r.Ended)
	return r, err
}

func (s *Store) SaveRun(ctx context.Context, r domain.Run, fence int64) error {
	res, err := s.db.ExecContext(ctx, `UPDATE runs SET ended = $1, fence = $2 WHERE id = $3 AND fence < $2`, r.Ended, fence, r.ID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrStale
	}
	return nil
}

func (s *Store) Record(ctx context.Context, job, event string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE journal SET last_event = $2 WHERE job = $1`, job, event)
	return err
}

package sqlforms

import (
	"context"
	"database/sql"
	"fmt"
)

// Queries kept in package-level variables, struct fields and maps are
// followed to the constants assigned to them.

var (
	markDone  = "UPDATE runs SET state = 'done' WHERE id = $1"
	markFence = `UPDATE runs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2`
	statsSQL  = "SELECT count(*) FROM runs"
)

var queries = map[string]string{
	"finish":       "UPDATE runs SET finished_at = now() WHERE id = $1",
	"finishFenced": "UPDATE runs SET finished_at = now(), fence = $2 WHERE id = $1 AND fence < $2",
}

// A Store keeps its statements in fields set once, from constants.
type Store struct {
	db     *sql.DB
	conn   *sql.Conn
	retry  string
	retryF string
	custom string

	lastVersion int64 // the version this holder last wrote, kept in memory
}

func NewStore(db *sql.DB, conn *sql.Conn) *Store {
	return &Store{
		db:     db,
		conn:   conn,
		retry:  "UPDATE runs SET attempts = attempts + 1 WHERE id = $1",
		retryF: "UPDATE runs SET attempts = attempts + 1, fence = $2 WHERE id = $1 AND fence < $2",
	}
}

// WithCustom sets a statement the caller chose: the field is not one text.
func (s *Store) WithCustom(q string) *Store {
	s.custom = q
	return s
}

func (s *Store) lock(ctx context.Context, job int64) error {
	_, err := s.conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job))
	return err
}

func (s *Store) globals(ctx context.Context, job, fence int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, markDone, job); err != nil { // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	var n int
	if err := s.db.QueryRowContext(ctx, statsSQL).Scan(&n); err != nil {
		return err
	}
	return checked(s.db.ExecContext(ctx, markFence, job, fence))
}

func (s *Store) fields(ctx context.Context, job, fence int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, s.retry, job); err != nil { // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.db.ExecContext(ctx, s.custom, job); err != nil {
		return err
	}
	return checked(s.db.ExecContext(ctx, s.retryF, job, fence))
}

func (s *Store) named(ctx context.Context, job, fence int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, queries["finish"], job); err != nil { // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	return checked(s.db.ExecContext(ctx, queries["finishFenced"], job, fence))
}

// checked turns a write that changed nothing into errStale.
func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

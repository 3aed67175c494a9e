// Package dotsqlstore keeps its statements in a dotsql file embedded with
// //go:embed, and runs them by name with the real dotsql while it holds a
// job's advisory lock.
package dotsqlstore

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"

	"github.com/qustavo/dotsql"
)

//go:embed queries.sql
var queries string

// Jobs runs jobs.
type Jobs struct {
	dot  *dotsql.DotSql
	db   *sql.DB
	conn *sql.Conn
}

// Open loads the named statements.
func Open(db *sql.DB, conn *sql.Conn) (*Jobs, error) {
	dot, err := dotsql.LoadFromString(queries)
	if err != nil {
		return nil, err
	}
	return &Jobs{dot: dot, db: db, conn: conn}, nil
}

// Finish marks the job done: unfenced, then fenced.
func (j *Jobs) Finish(ctx context.Context, job, tok int64) error {
	var ok bool
	if err := j.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", job).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	if _, err := j.dot.ExecContext(ctx, j.db, "finish-job", job); err != nil { // want unfencedwrite:"DotSql.ExecContext \\(UPDATE jobs\\) writes to SQL database without a fencing token"
		return err
	}
	res, err := j.dot.ExecContext(ctx, j.db, "finish-job-fenced", job, tok)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("stale fence")
	}
	return nil
}

// Archive takes the job's lock with the named query "lease-job": a lease
// like the constant form, so the unfenced write under it is reported, and
// the one after "unlease-job" gave it up is not.
func (j *Jobs) Archive(ctx context.Context, job int64) error {
	row, err := j.dot.QueryRowContext(ctx, j.conn, "lease-job", job)
	if err != nil {
		return err
	}
	var ok bool
	if err := row.Scan(&ok); err != nil || !ok {
		return err
	}
	if _, err := j.db.ExecContext(ctx, "UPDATE jobs SET state = 'archived' WHERE id = $1", job); err != nil { // want unfencedwrite:"DB.ExecContext \\(UPDATE jobs\\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock"
		return err
	}
	if _, err := j.dot.ExecContext(ctx, j.conn, "unlease-job", job); err != nil {
		return err
	}
	_, err = j.db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = $1", job)
	return err
}

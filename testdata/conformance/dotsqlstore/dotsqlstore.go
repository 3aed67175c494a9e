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

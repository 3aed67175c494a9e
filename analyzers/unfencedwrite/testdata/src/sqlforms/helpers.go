package sqlforms

import (
	"context"
	"database/sql"
	"fmt"
)

// A DB sends every statement through helpers of its own.
type DB struct {
	pool *sql.DB
	conn *sql.Conn
}

// exec runs q with args and returns the result to the caller.
func (d *DB) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return d.pool.ExecContext(ctx, q, args...)
}

// run runs q and drops the result: nobody can read rows affected.
func (d *DB) run(ctx context.Context, q string, args ...any) error {
	_, err := d.exec(ctx, q, args...)
	return err
}

// execOne runs q and fails unless it changed exactly one row.
func (d *DB) execOne(ctx context.Context, q string, args ...any) error {
	res, err := d.pool.ExecContext(ctx, q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errStale
	}
	return nil
}

// lock takes the advisory lock on the pinned connection, through a helper
// whose SQL is a parameter.
func (d *DB) lock(ctx context.Context, job int64) error {
	return d.onConn(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job))
}

func (d *DB) onConn(ctx context.Context, q string, args ...any) error {
	_, err := d.conn.ExecContext(ctx, q, args...)
	return err
}

func (d *DB) finish(ctx context.Context, job, fence int64) error {
	if err := d.onConn(ctx, "SELECT pg_advisory_lock($1)", job); err != nil {
		return err
	}
	if err := d.run(ctx, "UPDATE runs SET state = 'done' WHERE id = $1", job); err != nil { // want `DB.run \(UPDATE runs\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_advisory_lock \(line 50\) is held`
		return err
	}
	if err := d.run(ctx, "UPDATE runs SET fence = $2 WHERE id = $1 AND fence < $2", job, fence); err != nil { // want `DB.run \(UPDATE runs\) is fenced but its rows-affected count is never read`
		return err
	}
	if err := d.execOne(ctx, "UPDATE runs SET fence = $2 WHERE id = $1 AND fence < $2", job, fence); err != nil {
		return err
	}
	if err := d.execOne(ctx, "UPDATE runs SET fence = $2 WHERE id = $1 AND fence < $2", job, 7); err != nil { // want `DB.execOne \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	res, err := d.exec(ctx, "UPDATE runs SET fence = $2 WHERE id = $1 AND fence < $2", job, fence)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

func (d *DB) finishWrapped(ctx context.Context, job int64) error {
	if err := d.lock(ctx, job); err != nil {
		return err
	}
	return d.run(ctx, "DELETE FROM runs WHERE id = $1", job) // want `DB.run \(DELETE runs\) writes to SQL database without a fencing token while the PostgreSQL lock taken by DB.lock`
}

// Package sqlforms is a job runner that builds its SQL at run time: advisory
// locks keyed by a number formatted into the text, statements assembled
// with + and fmt.Sprintf around constant fragments, queries kept in
// package-level variables, struct fields and maps, and a helper of its own
// that every statement goes through.
package sqlforms

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

var errStale = errors.New("stale fence")

// lockKey takes a session advisory lock whose key is formatted into the
// text, as real code does when the key is a job number.
func lockKey(ctx context.Context, conn *sql.Conn, key int64) (bool, error) {
	var ok bool
	err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock("+strconv.FormatInt(key, 10)+")").Scan(&ok)
	return ok, err
}

// runJob holds a lock taken with run-time SQL and writes through the pool.
func runJob(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64) error {
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock("+strconv.FormatInt(job, 10)+")").Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return nil
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET state = 'done' WHERE id = $1", "runs"), job) // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock \(line 29\) is held`
	return err
}

// runJobWrapped takes the lock through lockKey, which returns holding it.
func runJobWrapped(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, table string) error {
	ok, err := lockKey(ctx, conn, job)
	if err != nil || !ok {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE "+table+" SET state = 'done' WHERE id = $1", job) // want `ExecContext \(UPDATE <run-time name>\) writes to SQL database without a fencing token while the PostgreSQL lock taken by sqlforms.lockKey \(line 41\) is held`
	return err
}

// runJobFenced formats the table name in and carries the token as a
// parameter: fenced.
func runJobFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64, table string) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", table), job, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// runJobTokenInText formats the token itself into the text: still a fence.
func runJobTokenInText(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, "UPDATE runs SET state = 'done' WHERE id = $1 AND fence <= "+strconv.FormatInt(fence, 10), job)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// runJobConstantInText formats a constant where the token should be: that
// compares with a literal, which fences nothing.
func runJobConstantInText(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE runs SET state = 'done' WHERE id = $1 AND fence < %d", 7), job) // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	return err
}

// runJobFilter builds the WHERE clause at run time: fencelint says it
// cannot see it rather than guess.
func runJobFilter(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, filter string) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'done' WHERE "+filter, job) // want `ExecContext \(UPDATE runs\) writes to SQL database while the PostgreSQL advisory lock taken by pg_advisory_lock \(line 93\) is held, and fencelint could not see its WHERE clause`
	return err
}

// runJobFilterFenced has a run-time filter ANDed with a visible fence.
func runJobFilterFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64, filter string) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, "UPDATE runs SET state = 'done' WHERE fence < $1 AND "+filter, fence)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// runJobFilterValue formats only a value into a visible WHERE clause
// without a fence: unfenced, seen whole.
func runJobFilterValue(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf("DELETE FROM runs WHERE id = %d", job)) // want `ExecContext \(DELETE runs\) writes to SQL database without a fencing token`
	return err
}

// runDynamic sends text fencelint cannot see at all: not a write.
func runDynamic(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, query string) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, query, job)
	return err
}

// readUnderLock reads with a run-time ORDER BY: not a write.
func readUnderLock(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, order string) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, "SELECT id FROM runs ORDER BY "+order)
	if err != nil {
		return err
	}
	return rows.Close()
}

// unlockThenWrite releases the lock with run-time SQL before writing.
func unlockThenWrite(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_lock(%d)", job)); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_unlock(%d)", job)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'idle' WHERE id = $1", job)
	return err
}

// Package sqladvisory is a nightly billing job that serializes itself with a
// PostgreSQL advisory lock.
package sqladvisory

import (
	"context"
	"database/sql"
	"errors"
)

var errStale = errors.New("stale fence")

// closeInvoices takes a session advisory lock on a pinned connection and
// then writes through the pool: the write is not fenced.
func closeInvoices(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", 42).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return nil
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", 42)

	_, err = db.ExecContext(ctx, `UPDATE invoices SET state = 'closed' WHERE due < now()`) // want `ExecContext \(UPDATE invoices\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock \(line 22\) is held`
	return err
}

// closeInvoicesOnConn writes through the connection that holds the lock: if
// the session died, the lock went with it and so does this write.
func closeInvoicesOnConn(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", 42)
	_, err := conn.ExecContext(ctx, `UPDATE invoices SET state = 'closed' WHERE due < now()`)
	return err
}

// closeInvoicesFenced carries the lease's token in the WHERE clause and
// checks the result.
func closeInvoicesFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, fence int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE invoices SET state = 'closed', fence = $1 WHERE due < now() AND fence <= $1`, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// closeInvoicesIgnored has a fence but never looks at the result.
func closeInvoicesIgnored(ctx context.Context, db *sql.DB, conn *sql.Conn, fence int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE invoices SET fence = $1 WHERE fence < $1`, fence) // want `DB.ExecContext \(UPDATE invoices\) is fenced but its rows-affected count is never read`
	return err
}

// storedOnly stores the token but never compares it.
func storedOnly(ctx context.Context, db *sql.DB, conn *sql.Conn, fence int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `UPDATE invoices SET fence = $1 WHERE id = 7`, fence) // want `without a fencing token`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// noLock writes with no lease held: nothing to report.
func noLock(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `DELETE FROM sessions WHERE expires < now()`)
	return err
}

// afterUnlock writes after releasing the lock.
func afterUnlock(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", 42); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `DELETE FROM sessions WHERE expires < now()`)
	return err
}

// failedLock writes only on the path where the lock was not taken.
func failedLock(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	var ok bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", 42).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		_, err := db.ExecContext(ctx, `INSERT INTO skipped_runs (at) VALUES (now())`)
		return err
	}
	return nil
}

// xact holds a transaction-level lock: writes in the same transaction are
// fenced by it.
func xact(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", 42); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE invoices SET state = 'closed'`); err != nil {
		return err
	}
	return tx.Commit()
}

// releasedByClosure releases through a closure before writing.
func releasedByClosure(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 42); err != nil {
		return err
	}
	release := func() { conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", 42) }
	release()
	_, err := db.ExecContext(ctx, `DELETE FROM sessions WHERE expires < now()`)
	return err
}

// mysqlGetLock serializes with MySQL's GET_LOCK and writes through the pool.
func mysqlGetLock(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 10)", "nightly").Scan(&got); err != nil {
		return err
	}
	if !got.Valid || got.Int64 != 1 {
		return nil
	}
	defer conn.ExecContext(ctx, "SELECT RELEASE_LOCK(?)", "nightly")
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance * 1.01 WHERE id = ?", 7) // want `DB.ExecContext \(UPDATE accounts\) writes to SQL database without a fencing token while the MySQL lock taken by GET_LOCK`
	return err
}

// Package stmtlists is a schema-change runner that holds a MySQL GET_LOCK
// on a connection of its own and sends its statements as lists through
// dbconn's helpers.
package stmtlists

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"stmtlists/dbconn"
)

var cfg = &dbconn.Config{MaxRetries: 5}

// lock takes the table's lock on conn.
func lock(ctx context.Context, conn *sql.Conn, table string) error {
	var got int
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", table).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errors.New("locked")
	}
	return nil
}

// upsertRows replays row images into the shadow table under the lock:
// nothing in the REPLACE says whose run it is.
func upsertRows(ctx context.Context, db *sql.DB, conn *sql.Conn, cols string, rows []string) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	stmt := fmt.Sprintf("REPLACE INTO _orders_new (%s) VALUES %s", cols, strings.Join(rows, ", "))
	_, err := dbconn.RetryableTransaction(ctx, db, cfg, stmt) // want `dbconn.RetryableTransaction \(REPLACE _orders_new\) writes to SQL database without a fencing token while the MySQL lock taken by stmtlists.lock \(line 33\) is held`
	return err
}

// finish marks the run done with its fence and records it in an audit
// table: the UPDATE is fenced, the INSERT beside it is not.
func finish(ctx context.Context, db *sql.DB, conn *sql.Conn, id, fence int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	done := fmt.Sprintf("UPDATE migrations SET state = 'done', fence = %d WHERE id = %d AND fence <= %d", fence, id, fence)
	audit := fmt.Sprintf("INSERT INTO migration_log (migration_id, event) VALUES (%d, 'done')", id)
	_, err := dbconn.RetryableTransaction(ctx, db, cfg, done, audit) // want `dbconn.RetryableTransaction \(INSERT migration_log\) writes to SQL database without a fencing token`
	return err
}

// finishFenced sends only the fenced UPDATE, and a read beside it.
func finishFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, id, fence int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	done := fmt.Sprintf("UPDATE migrations SET state = 'done', fence = %d WHERE id = %d AND fence <= %d", fence, id, fence)
	n, err := dbconn.RetryableTransaction(ctx, db, cfg, "SELECT state FROM migrations WHERE id = 1", done)
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("stale fence")
	}
	return nil
}

// progress only reads under the lock.
func progress(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	_, err := dbconn.RetryableTransaction(ctx, db, cfg, "SELECT COUNT(*) FROM _orders_new", "SELECT watermark FROM _checkpoint WHERE id = 1")
	return err
}

// cutover swaps the tables under LOCK TABLES on the lock's connection.
func cutover(ctx context.Context, conn *sql.Conn, tl *dbconn.TableLock, keys string) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	return tl.ExecUnderLock(ctx, // want `TableLock.ExecUnderLock \(DELETE _orders_new\) writes to SQL database without a fencing token`
		"SELECT 1",
		"DELETE FROM _orders_new WHERE id IN ("+keys+")",
	)
}

// purge sends a slice of statements it spells out.
func purge(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	stmts := []string{
		"DELETE FROM _checkpoint WHERE id = 1",
		"UPDATE migrations SET state = 'purged' WHERE id = 1",
	}
	return dbconn.ExecAll(ctx, db, stmts) // want `dbconn.ExecAll \(DELETE _checkpoint\) writes to SQL database without a fencing token`
}

// resume goes through helpers that pass their statements on.
func resume(ctx context.Context, db *sql.DB, conn *sql.Conn, id int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	if err := dbconn.ApplyAll(ctx, db, "UPDATE migrations SET state = 'running' WHERE id = 1"); err != nil { // want `dbconn.ApplyAll \(UPDATE migrations\) writes to SQL database without a fencing token`
		return err
	}
	if err := dbconn.Apply(ctx, db, fmt.Sprintf("DELETE FROM _orders_new WHERE id > %d", id)); err != nil { // want `dbconn.Apply \(DELETE _orders_new\) writes to SQL database without a fencing token`
		return err
	}
	return dbconn.WithRetry(ctx, db, "UPDATE _checkpoint SET watermark = ? WHERE id = 1", id) // want `dbconn.WithRetry \(UPDATE _checkpoint\) writes to SQL database without a fencing token`
}

// announce logs what it is about to do: Traced never sends its notes.
func announce(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	return dbconn.Traced(ctx, db, "DELETE FROM _orders_new: dropping the shadow table's rows", "UPDATE migrations: marking the run")
}

// schedule only prepares the cleanup: it runs after the lock is released.
func schedule(ctx context.Context, db *sql.DB, conn *sql.Conn) (func(context.Context) error, error) {
	if err := lock(ctx, conn, "orders"); err != nil {
		return nil, err
	}
	defer conn.ExecContext(ctx, "SELECT RELEASE_LOCK('orders')")
	return dbconn.Prepared(db, "DELETE FROM _orders_new"), nil
}

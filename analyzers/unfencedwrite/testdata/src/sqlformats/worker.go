// Package sqlformats is a schema-change runner that holds a MySQL GET_LOCK
// on a connection of its own and formats its SQL with sqlescape, in the
// statement or in the dbutil helpers.
package sqlformats

import (
	"context"
	"database/sql"
	"errors"

	"sqlformats/dbutil"
	"sqlformats/sqlescape"
)

var errStale = errors.New("stale fence")

// lock takes the table's lock on conn.
func lock(ctx context.Context, conn *sql.Conn, table string) error {
	var got int
	if err := conn.QueryRowContext(ctx, sqlescape.MustEscapeSQL("SELECT GET_LOCK(%?, %?)", table, 0)).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errors.New("locked")
	}
	return nil
}

// checkpoint records progress through the pool under the lock: nothing in
// the REPLACE says whose run it is.
func checkpoint(ctx context.Context, db *sql.DB, conn *sql.Conn, watermark string) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, sqlescape.MustEscapeSQL("SELECT RELEASE_LOCK(%?)", "orders"))
	return dbutil.Exec(ctx, db, "REPLACE INTO %n (id, watermark) VALUES (1, %?)", "_checkpoint", watermark) // want `dbutil.Exec \(REPLACE _checkpoint\) writes to SQL database without a fencing token while the MySQL lock taken by sqlformats.lock \(line 32\) is held`
}

// finish formats the statement in place.
func finish(ctx context.Context, db *sql.DB, conn *sql.Conn, id int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, sqlescape.MustEscapeSQL("SELECT RELEASE_LOCK(%?)", "orders"))
	_, err := db.ExecContext(ctx, sqlescape.MustEscapeSQL("UPDATE %n SET state = 'done' WHERE id = %?", "migrations", id)) // want `DB.ExecContext \(UPDATE migrations\) writes to SQL database without a fencing token`
	return err
}

// finishFenced compares the run's fence and stops when no row changed.
func finishFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, id, fence int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	n, err := dbutil.ExecChecked(ctx, db, "UPDATE migrations SET state = 'done', fence = %? WHERE id = %? AND fence <= %?", fence, id, fence)
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}

// finishOnConn writes on the connection that holds the lock: if the session
// died, the lock went with it and so does the write.
func finishOnConn(ctx context.Context, conn *sql.Conn, id int64) error {
	if _, err := conn.ExecContext(ctx, sqlescape.MustEscapeSQL("SELECT GET_LOCK(%?, %?)", "orders", 10)); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, sqlescape.MustEscapeSQL("UPDATE migrations SET state = 'done' WHERE id = %?", id))
	return err
}

// progress only reads under the lock.
func progress(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	return dbutil.Exec(ctx, db, "SELECT watermark FROM %n WHERE id = 1", "_checkpoint")
}

// notFormatted sends text that Translate and Verbs return: neither copies
// the text it is given, so what they send is out of sight and nothing is
// claimed about it.
func notFormatted(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, sqlescape.Translate("UPDATE migrations SET state = 'done'")); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, sqlescape.Verbs("DELETE FROM migrations WHERE id = %?", 7))
	return err
}

// purge formats with a plain Sprintf wrapper of another package.
func purge(ctx context.Context, db *sql.DB, conn *sql.Conn, id int64) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, sqlescape.Sprintf("DELETE FROM %s WHERE id = %d", "migrations", id)) // want `DB.ExecContext \(DELETE migrations\) writes to SQL database without a fencing token`
	return err
}

// annotate sends what Comment makes of its text, which is not a formatter's
// result: nothing is claimed about it.
func annotate(ctx context.Context, db *sql.DB, conn *sql.Conn) error {
	if err := lock(ctx, conn, "orders"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, sqlescape.Comment("DELETE FROM migrations"))
	return err
}

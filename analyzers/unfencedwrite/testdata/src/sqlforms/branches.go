package sqlforms

import (
	"context"
	"database/sql"
)

// Query text chosen in the branches of an if is read along each path: the
// call is a write only if every path writes, and fenced only if every path
// is fenced.

// finishEither picks one of two fenced statements: fenced either way.
func finishEither(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64, archive bool) error {
	if ok, err := lockKey(ctx, conn, job); err != nil || !ok {
		return err
	}
	q := "UPDATE runs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2"
	if archive {
		q = "UPDATE runs SET state = 'archived', fence = $2 WHERE id = $1 AND fence <= $2"
	}
	res, err := db.ExecContext(ctx, q, job, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// finishOneFenced fences only one branch's statement.
func finishOneFenced(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64, force bool) error {
	if ok, err := lockKey(ctx, conn, job); err != nil || !ok {
		return err
	}
	q := "UPDATE runs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2"
	if force {
		q = "UPDATE runs SET state = 'done', fence = $2 WHERE id = $1"
	}
	res, err := db.ExecContext(ctx, q, job, fence) // want `DB.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// readOrWrite reads on one path: not judged as a write.
func readOrWrite(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, dry bool) error {
	if ok, err := lockKey(ctx, conn, job); err != nil || !ok {
		return err
	}
	q := "DELETE FROM runs WHERE id = $1"
	if dry {
		q = "SELECT count(*) FROM runs WHERE id = $1"
	}
	_, err := db.ExecContext(ctx, q, job)
	return err
}

// Lock statements chosen in branches take a lease when every path takes
// one, and give it up when some path does.

// finishOnEither locks with PostgreSQL's or MySQL's function, whichever
// the database is: a lease either way.
func finishOnEither(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, mysql bool) error {
	q := "SELECT pg_try_advisory_lock($1)"
	if mysql {
		q = "SELECT GET_LOCK(?, 10)"
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, q, job).Scan(&ok); err != nil || !ok {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'done' WHERE id = $1", job) // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock`
	return err
}

// finishThenUnlock gives the lock up with either database's function
// before it writes: nothing is held then.
func finishThenUnlock(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, mysql bool) error {
	lock, unlock := "SELECT pg_advisory_lock($1)", "SELECT pg_advisory_unlock($1)"
	if mysql {
		lock, unlock = "SELECT GET_LOCK(?, -1)", "SELECT RELEASE_LOCK(?)"
	}
	if _, err := conn.ExecContext(ctx, lock, job); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, unlock, job); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'idle' WHERE id = $1", job)
	return err
}

// probeOrLock locks only when asked: the write may run without a lease,
// and the statement is no lease of its own on the path that probes.
func probeOrLock(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64, lock bool) error {
	q := "SELECT 1"
	if lock {
		q = "SELECT pg_advisory_lock($1)"
	}
	if _, err := conn.ExecContext(ctx, q, job); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'seen' WHERE id = $1", job)
	return err
}

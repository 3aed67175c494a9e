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

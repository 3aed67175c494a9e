package sqlbuilders

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
)

// sqlxFuncs takes the lock with Get on a transaction and writes through
// sqlx's package-level functions, which take the database as an argument.
func sqlxFuncs(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx, doc Doc) error {
	var ok bool
	if err := tx.GetContext(ctx, &ok, "SELECT pg_try_advisory_xact_lock($1)", doc.ID); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	if _, err := sqlx.NamedExecContext(ctx, db, `UPDATE docs SET body = :body WHERE id = :id`, doc); err != nil { // want `NamedExecContext \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	res, err := sqlx.NamedExec(db, `UPDATE docs SET body = :body, fence = :fence WHERE id = :id AND fence < :fence`, doc)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	sqlx.MustExec(tx, `DELETE FROM docs WHERE id = $1`, doc.ID) // want `MustExec \(DELETE docs\) writes to SQL database without a fencing token`
	var id int64
	if err := sqlx.GetContext(ctx, tx, &id, `UPDATE docs SET body = $2 WHERE id = $1 RETURNING id`, doc.ID, doc.Body); err != nil { // want `GetContext \(UPDATE docs\) writes to SQL database without a fencing token`
		return err
	}
	return sqlx.GetContext(ctx, tx, &id, `UPDATE docs SET body = $2, fence = $3 WHERE id = $1 AND fence < $3 RETURNING id`, doc.ID, doc.Body, doc.Fence)
}

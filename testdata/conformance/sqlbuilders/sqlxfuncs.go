package sqlbuilders

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
)

// Reaper takes a transaction-scoped advisory lock with sqlx's Get and
// writes through sqlx's package-level functions.
func Reaper(ctx context.Context, db *sqlx.DB, run Run) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ok bool
	if err := tx.GetContext(ctx, &ok, "SELECT pg_try_advisory_xact_lock($1)", run.ID); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	if _, err := sqlx.NamedExecContext(ctx, tx, `UPDATE runs SET state = :state WHERE id = :id`, run); err != nil { // want unfencedwrite:"NamedExecContext \\(UPDATE runs\\) writes to SQL database without a fencing token"
		return err
	}
	if err := checked(sqlx.NamedExecContext(ctx, tx, `UPDATE runs SET state = :state, fence = :fence WHERE id = :id AND fence < :fence`, run)); err != nil {
		return err
	}
	return tx.Commit()
}

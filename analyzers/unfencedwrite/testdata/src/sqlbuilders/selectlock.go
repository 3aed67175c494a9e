package sqlbuilders

import (
	"context"
	"database/sql"
	"errors"

	sq "github.com/Masterminds/squirrel"
)

// selectLock takes a transaction-scoped advisory lock with a squirrel
// Select run on the transaction, then writes in it and through the pool.
func selectLock(ctx context.Context, db *sql.DB, tx *sql.Tx, id, tok int64) error {
	var ok bool
	if err := sq.Select().Column("pg_try_advisory_xact_lock(?)", id).PlaceholderFormat(sq.Dollar).
		RunWith(tx).QueryRowContext(ctx).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	if _, err := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": id}).RunWith(db).ExecContext(ctx); err != nil { // want `UpdateBuilder.ExecContext \(UPDATE runs\) writes to SQL database without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_xact_lock`
		return err
	}
	// A read under the lock is not a write.
	var state string
	return sq.Select("state").From("runs").Where(sq.Eq{"id": id}).RunWith(tx).QueryRowContext(ctx).Scan(&state)
}

// selectLockWrapped takes the same lock in a function of its own.
func lockRun(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := sq.Select("pg_advisory_xact_lock(1)").RunWith(tx).ExecContext(ctx)
	return err
}

func selectLockWrapped(ctx context.Context, db *sql.DB, tx *sql.Tx, id int64) error {
	if err := lockRun(ctx, tx, id); err != nil {
		return err
	}
	_, err := sq.Delete("runs").Where(sq.Eq{"id": id}).RunWith(db).ExecContext(ctx) // want `DeleteBuilder.ExecContext \(DELETE runs\) writes to SQL database without a fencing token while the PostgreSQL lock taken by sqlbuilders.lockRun`
	return err
}

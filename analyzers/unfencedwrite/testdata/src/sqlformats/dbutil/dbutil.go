// Package dbutil sends SQL that its callers format with sqlescape's verbs.
package dbutil

import (
	"context"
	"database/sql"

	"sqlformats/sqlescape"
)

// Exec formats stmt with args and executes it.
func Exec(ctx context.Context, db *sql.DB, stmt string, args ...any) error {
	stmt, err := sqlescape.EscapeSQL(stmt, args...)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, stmt)
	return err
}

// ExecChecked formats stmt with args, executes it and returns the number
// of rows it changed.
func ExecChecked(ctx context.Context, db *sql.DB, stmt string, args ...any) (int64, error) {
	res, err := db.ExecContext(ctx, sqlescape.MustEscapeSQL(stmt, args...))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

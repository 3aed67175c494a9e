// Package helpers is a data-access layer that knows nothing of leases.
package helpers

import (
	"context"
	"database/sql"
	"errors"
)

var ErrStale = errors.New("stale fence")

// SaveReport writes with no fence.
func SaveReport(ctx context.Context, db *sql.DB, body string) error {
	_, err := db.ExecContext(ctx, `INSERT INTO reports (body) VALUES ($1)`, body)
	return err
}

// SaveReportFenced writes only if the stored fence is older than fence.
func SaveReportFenced(ctx context.Context, db *sql.DB, body string, fence int64) error {
	res, err := db.ExecContext(ctx, `UPDATE reports SET body = $1, fence = $2 WHERE id = 1 AND fence < $2`, body, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrStale
	}
	return nil
}

// saveVia wraps SaveReport: a helper of a helper.
func SaveVia(ctx context.Context, db *sql.DB, body string) error {
	return SaveReport(ctx, db, body)
}

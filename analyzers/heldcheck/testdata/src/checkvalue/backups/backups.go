// Package backups uploads backups from the primary only; it asks whoever
// runs it whether this node is the primary through a func it is given.
package backups

import (
	"context"
	"database/sql"
	"time"
)

// Run records a backup whenever isPrimary says this node leads.
func Run(ctx context.Context, db *sql.DB, isPrimary func() bool) error {
	for ctx.Err() == nil {
		if isPrimary() {
			if _, err := db.ExecContext(ctx, `INSERT INTO backups (taken_at) VALUES (now())`); err != nil {
				return err
			}
		}
		time.Sleep(time.Minute)
	}
	return ctx.Err()
}

// Fenced compares the fence it is given, whatever isPrimary said.
func Fenced(ctx context.Context, db *sql.DB, isPrimary func() bool, fence int64) error {
	if !isPrimary() {
		return nil
	}
	res, err := db.ExecContext(ctx, `UPDATE backups SET taken_at = now(), fence = $1 WHERE fence < $1`, fence)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// Report logs whatever isPrimary says and writes either way.
func Report(ctx context.Context, db *sql.DB, isPrimary func() bool) error {
	role := "replica"
	if isPrimary() {
		role = "primary"
	}
	_, err := db.ExecContext(ctx, `INSERT INTO reports (role) VALUES ($1)`, role)
	return err
}

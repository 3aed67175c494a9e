// Package gocroncheck asks a gocron Elector before writing, as gocron's
// executor does before each run.
package gocroncheck

import (
	"context"
	"database/sql"

	"github.com/go-co-op/gocron/v2"
)

// runIfLeader writes when the elector says this instance leads.
func runIfLeader(ctx context.Context, el gocron.Elector, db *sql.DB) error {
	if err := el.IsLeader(ctx); err != nil { // want `Elector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE sessions\) at line 17`
		return nil
	}
	_, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE revoked")
	return err
}

// logOnly reports the answer.
func logOnly(ctx context.Context, el gocron.Elector, report func(bool)) {
	report(el.IsLeader(ctx) == nil)
}

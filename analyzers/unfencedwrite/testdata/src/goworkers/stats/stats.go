// Package stats keeps the daily statistics row.
package stats

import (
	"context"
	"database/sql"
	"time"
)

type Collector struct{ db *sql.DB }

func New(db *sql.DB) *Collector { return &Collector{db: db} }

// Start recomputes the statistics every day; the events package starts it
// in a goroutine while the server leads.
func (c *Collector) Start(ctx context.Context, errc chan error) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for range t.C {
		var n int
		if err := c.db.QueryRowContext(ctx, "SELECT count(*) FROM apps").Scan(&n); err != nil {
			errc <- err
			return
		}
		c.db.ExecContext(ctx, "UPDATE stats SET apps = $1 WHERE id = 1", n) // want `DB.ExecContext \(UPDATE stats\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\), handed over at events.go:\d+, that Collector.Start holds`
		c.db.ExecContext(ctx, "INSERT INTO stats_days (day) VALUES ($1) ON CONFLICT DO NOTHING", time.Now().Format("2006-01-02"))
	}
}

// Report is started by main outside any lease.
func Report(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, "UPDATE stats SET reported = now() WHERE id = 1")
}

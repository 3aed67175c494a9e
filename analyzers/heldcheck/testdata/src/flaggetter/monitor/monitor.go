// Package monitor sweeps clusters on the leader.
package monitor

import (
	"context"
	"database/sql"
	"errors"

	"flaggetter/leader"
)

type Monitor struct {
	db   *sql.DB
	gate *leader.Gate
}

// Sweep reads the gate's flag through its getter.
func (m *Monitor) Sweep(ctx context.Context) {
	if m.gate.Leading() { // want `Gate.Leading .*only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE clusters\)`
		m.db.ExecContext(ctx, "UPDATE clusters SET status = 'error' WHERE updated_at < now() - interval '1 hour'")
	}
}

// Fenced writes only with the row's version: the store rejects a stale
// sweep.
func (m *Monitor) Fenced(ctx context.Context, id, version int64) error {
	if !m.gate.Leading() {
		return nil
	}
	res, err := m.db.ExecContext(ctx, "UPDATE clusters SET status = 'error', version = version + 1 WHERE id = $1 AND version = $2", id, version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("cluster changed since it was read")
	}
	return nil
}

// Warm reads a flag the callback sets that is set elsewhere too and is not
// named for leading.
func (m *Monitor) Warm(ctx context.Context) {
	if m.gate.Ready() {
		m.db.ExecContext(ctx, "UPDATE clusters SET warmed = true")
	}
}

// Either reads a getter that answers more than the flag.
func (m *Monitor) Either(ctx context.Context) {
	if m.gate.LeadingOrReady() {
		m.db.ExecContext(ctx, "UPDATE clusters SET seen = now()")
	}
}

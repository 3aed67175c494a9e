// Package centrals reconciles the tenants' centrals.
package centrals

import (
	"context"
	"database/sql"
)

type Manager struct{ db *sql.DB }

func New(db *sql.DB) *Manager { return &Manager{db: db} }

// Reconcile writes each central's spec back from the snapshot it read.
func (m *Manager) Reconcile(ctx context.Context) error {
	var spec string
	if err := m.db.QueryRowContext(ctx, "SELECT spec FROM centrals WHERE id = $1", 7).Scan(&spec); err != nil {
		return err
	}
	_, err := m.db.ExecContext(ctx, "UPDATE centrals SET spec = $1 WHERE id = $2", spec+" routed", 7)
	return err
}

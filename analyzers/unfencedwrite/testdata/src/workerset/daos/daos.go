// Package daos implements the DAOs on PostgreSQL.
package daos

import (
	"context"
	"database/sql"

	"workerset/workers"
)

type Manager struct{ db *sql.DB }

func NewManager(db *sql.DB) *Manager { return &Manager{db: db} }

func (m *Manager) EventDao() workers.EventDao { return &EventDao{db: m.db} }

type EventDao struct{ db *sql.DB }

func (d *EventDao) AddModel(ctx context.Context, id string) error {
	_, err := d.db.ExecContext(ctx, "UPDATE events SET seen = now() WHERE id = $1", id)
	return err
}

func (d *EventDao) Latest(ctx context.Context) (string, error) { return "", nil }

// NodeDao and RouteDao implement Dao for other tables.
type NodeDao struct{ db *sql.DB }

func (d *NodeDao) AddModel(ctx context.Context, id string) error {
	_, err := d.db.ExecContext(ctx, "UPDATE nodes SET seen = now() WHERE id = $1", id)
	return err
}

type RouteDao struct{ db *sql.DB }

func (d *RouteDao) AddModel(ctx context.Context, id string) error {
	_, err := d.db.ExecContext(ctx, "UPDATE routes SET seen = now() WHERE id = $1", id)
	return err
}

var _ = []workers.Dao{&NodeDao{}, &RouteDao{}}

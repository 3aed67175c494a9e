// Package statepg is the PostgreSQL StateStore.
package statepg

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"syncdaemon/state"
)

type Store struct {
	pool *pgxpool.Pool
}

var _ state.StateStore = (*Store)(nil)

// Acquire takes the sync's ownership lock on a dedicated pooled connection.
func (s *Store) Acquire(ctx context.Context, sync string) (bool, func() error, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return false, nil, err
	}
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock(hashtext($1))", sync).Scan(&locked); err != nil {
		conn.Release()
		return false, nil, err
	}
	if !locked {
		conn.Release()
		return false, nil, nil
	}
	release := func() error {
		defer conn.Release()
		_, err := conn.Exec(context.Background(), "SELECT pg_advisory_unlock(hashtext($1))", sync)
		return err
	}
	return true, release, nil
}

func (s *Store) PutSync(ctx context.Context, name, source string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO syncs (name, source) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET source = EXCLUDED.source`, name, source)
	return err
}

func (s *Store) RecordEvent(ctx context.Context, sync, event string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO events (sync, event) VALUES ($1, $2)`, sync, event)
	return err
}

func (s *Store) SaveProgress(ctx context.Context, sync, table string, watermark int64) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO progress (sync, table_name, watermark) VALUES ($1, $2, $3)
		ON CONFLICT (sync, table_name) DO UPDATE SET watermark = EXCLUDED.watermark`, sync, table, watermark)
	return err
}

func (s *Store) LoadCursor(ctx context.Context, sync, table string) (state.Cursor, error) {
	var cur state.Cursor
	err := s.pool.QueryRow(ctx, `SELECT table_name, phase, lsn FROM cursors WHERE sync = $1 AND table_name = $2`, sync, table).
		Scan(&cur.Table, &cur.Phase, &cur.LSN)
	return cur, err
}

func (s *Store) SaveCursor(ctx context.Context, sync string, cur state.Cursor) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO cursors (sync, table_name, phase, lsn) VALUES ($1, $2, $3, $4)
		ON CONFLICT (sync, table_name) DO UPDATE SET phase = EXCLUDED.phase, lsn = EXCLUDED.lsn`, sync, cur.Table, cur.Phase, cur.LSN)
	return err
}

// EnsureTarget registers a target once: a second call changes nothing.
func (s *Store) EnsureTarget(ctx context.Context, sync, target string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO targets (sync, target) VALUES ($1, $2) ON CONFLICT DO NOTHING`, sync, target)
	return err
}

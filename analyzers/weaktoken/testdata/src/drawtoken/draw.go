// Package drawtoken draws counters as fencing tokens, in the right and the
// wrong order with the lease.
package drawtoken

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgxpool"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// A store draws its own fence and writes with it.
type store struct {
	pool *pgxpool.Pool
}

// save draws the fence and writes: quiet on its own, late when a caller
// holds a lock around it.
func (s *store) save(ctx context.Context, body string) error {
	var fence int64
	if err := s.pool.QueryRow(ctx, "SELECT nextval('docs_fence')").Scan(&fence); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, update, body, fence, 1) // want `Pool.Exec \(UPDATE docs\) is fenced with the query "SELECT nextval\('docs_fence'\)" \(line 24\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.Lock \(line 40\)`
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return sql.ErrNoRows
	}
	return nil
}

// locked calls save while holding the mutex.
func locked(ctx context.Context, s *store, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.Lock(); err != nil {
		return err
	}
	err := s.save(ctx, "body")
	m.Unlock()
	return err
}

// drawInLoop locks, draws and writes on every round: the draw is late.
func drawInLoop(ctx context.Context, pool *pgxpool.Pool, m *redsync.Mutex, bodies []string) error {
	for _, body := range bodies {
		if err := m.Lock(); err != nil {
			return err
		}
		var fence int64
		if err := pool.QueryRow(ctx, "SELECT nextval('docs_fence')").Scan(&fence); err != nil {
			return err
		}
		tag, err := pool.Exec(ctx, update, body, fence, 1) // want `is fenced with the query "SELECT nextval\('docs_fence'\)" \(line 55\), which is not a fencing token: it is drawn in a separate step after`
		m.Unlock()
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
	}
	return nil
}

// drawBeforeLock draws on every round before locking: tokens follow the
// draws, and a stale holder's older token is refused. Quiet.
func drawBeforeLock(ctx context.Context, pool *pgxpool.Pool, m *redsync.Mutex, bodies []string) error {
	for _, body := range bodies {
		var fence int64
		if err := pool.QueryRow(ctx, "SELECT nextval('docs_fence')").Scan(&fence); err != nil {
			return err
		}
		if err := m.Lock(); err != nil {
			return err
		}
		tag, err := pool.Exec(ctx, update, body, fence, 1)
		m.Unlock()
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
	}
	return nil
}

// closureParam fences a closure's write with the mutex's random value.
func closureParam(ctx context.Context, pool *pgxpool.Pool, m *redsync.Mutex) error {
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	write := func(fence string) error {
		tag, err := pool.Exec(ctx, update, "body", fence, 1) // want `is fenced with Mutex.Value\(\) \(line 100\), which is not a fencing token: redsync's value`
		if err == nil && tag.RowsAffected() == 0 {
			return sql.ErrNoRows
		}
		return err
	}
	return write(m.Value())
}

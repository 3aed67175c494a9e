// Package ledgerstore keeps a ledger's logs in PostgreSQL. Lock takes the
// ledger's session advisory lock on a connection of its own and returns a
// copy of the store bound to that connection: writes through the copy go
// through the lock's session.
package ledgerstore

import (
	"context"
	"database/sql"
)

// DB is what the store sends its statements to: the pool, or the
// connection that holds the lock.
type DB interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Store struct {
	pool *sql.DB
	db   DB
}

func New(pool *sql.DB) *Store { return &Store{pool: pool, db: pool} }

// Lock takes the ledger's lock and returns the store bound to its
// connection, and the release.
func (s *Store) Lock(ctx context.Context) (*Store, func() error, error) {
	conn, err := s.pool.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		conn.Close()
		return nil, nil, err
	}
	cp := *s
	cp.db = conn
	return &cp, func() error {
		_, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", 7)
		conn.Close()
		return err
	}, nil
}

// InsertLog appends to the ledger's hash-chained log.
func (s *Store) InsertLog(ctx context.Context, payload string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO logs (payload) VALUES ($1)`, payload)
	return err
}

// SetState moves the ledger's state.
func (s *Store) SetState(ctx context.Context, state string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE ledgers SET state = $1`, state)
	return err
}

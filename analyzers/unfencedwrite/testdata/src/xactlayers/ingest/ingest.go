// Package ingest stores operations in PostgreSQL in transactions that take
// a transaction-scoped advisory lock first: the lock and the writes made
// through that transaction commit or roll back together.
package ingest

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"xactlayers/dbutil"
	"xactlayers/queries"
)

type Op struct {
	Table   string
	Records []any
	Cancel  []string
}

type Store struct {
	pool *pgxpool.Pool
}

// acquireLock serializes the ingesters for the rest of tx.
func (s *Store) acquireLock(ctx context.Context, tx pgx.Tx, scope int) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", scope)
	return err
}

// writeOp writes op through tx: in bulk and through the generated queries.
func (s *Store) writeOp(ctx context.Context, tx pgx.Tx, op Op) error {
	if err := dbutil.Upsert(ctx, tx, op.Table, op.Records); err != nil {
		return err
	}
	return queries.New(tx).MarkJobsCancelled(ctx, op.Cancel)
}

// Store writes every op in the transaction that holds the lock.
func (s *Store) Store(ctx context.Context, ops []Op) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.acquireLock(ctx, tx, 42); err != nil {
			return err
		}
		for _, op := range ops {
			if err := s.writeOp(ctx, tx, op); err != nil {
				return err
			}
		}
		return queries.New(s.pool).WithTx(tx).MarkJobsCancelled(ctx, nil)
	})
}

// StoreOutside takes the lock in one transaction and writes through the
// pool, on other connections: the lock guards nothing the writes do.
func (s *Store) StoreOutside(ctx context.Context, ops []Op) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.acquireLock(ctx, tx, 42); err != nil {
			return err
		}
		for _, op := range ops {
			if err := queries.New(s.pool).MarkJobsCancelled(ctx, op.Cancel); err != nil { // want `writes to SQL database without a fencing token`
				return err
			}
		}
		return nil
	})
}

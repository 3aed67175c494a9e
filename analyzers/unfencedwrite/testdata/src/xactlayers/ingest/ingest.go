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
	Pools   []string
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
	if err := dbutil.UpsertRecords(ctx, tx, op.Table, op.Cancel); err != nil {
		return err
	}
	if err := markValidated(ctx, tx, op.Cancel, op.Pools); err != nil {
		return err
	}
	return queries.New(tx).MarkJobsCancelled(ctx, op.Cancel)
}

// markValidated queues one UPDATE per job and sends them through tx.
func markValidated(ctx context.Context, tx pgx.Tx, jobs []string, pools []string) error {
	batch := &pgx.Batch{}
	for _, id := range jobs {
		batch.Queue("UPDATE jobs SET validated = true, pools = $1 WHERE job_id = $2", pools, id)
	}
	return execBatch(ctx, tx, batch)
}

// execBatch sends batch on tx and reads every result.
func execBatch(ctx context.Context, tx pgx.Tx, batch *pgx.Batch) error {
	results := tx.SendBatch(ctx, batch)
	for i := 0; i < batch.Len(); i++ {
		if _, err := results.Exec(); err != nil {
			return err
		}
	}
	return results.Close()
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

// StoreBatchOutside queues the updates in the locked transaction's
// function but sends them through the pool.
func (s *Store) StoreBatchOutside(ctx context.Context, jobs, pools []string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.acquireLock(ctx, tx, 42); err != nil {
			return err
		}
		batch := &pgx.Batch{}
		for _, id := range jobs {
			batch.Queue("UPDATE jobs SET validated = true, pools = $1 WHERE job_id = $2", pools, id) // want `writes to PostgreSQL without a fencing token`
		}
		return s.pool.SendBatch(ctx, batch).Close()
	})
}

// StoreArchived writes through the transaction and, two calls down, archives
// through the pool: the archive is made on another connection.
func (s *Store) StoreArchived(ctx context.Context, op Op) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.acquireLock(ctx, tx, 42); err != nil {
			return err
		}
		return s.writeArchived(ctx, tx, op)
	})
}

func (s *Store) writeArchived(ctx context.Context, tx pgx.Tx, op Op) error {
	if err := dbutil.Upsert(ctx, tx, op.Table, op.Records); err != nil {
		return err
	}
	return s.archive(ctx, op)
}

func (s *Store) archive(ctx context.Context, op Op) error {
	return s.logArchived(ctx, op.Table)
}

func (s *Store) logArchived(ctx context.Context, table string) error {
	_, err := s.pool.Exec(ctx, "UPDATE archive_log SET archived_at = now(), tbl = $1 WHERE id = 1", table) // want `Pool.Exec \(UPDATE archive_log\) writes to PostgreSQL without a fencing token while the PostgreSQL lock taken by Store.acquireLock \(line 117, in Store.StoreArchived, under which every call of Store.logArchived is made\)`
	return err
}

// Package pgxworker drains an outbox under a PostgreSQL advisory lock taken
// on a pgx pool, and writes through pgx.
package pgxworker

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var errStale = errors.New("stale fence")

type outbox struct {
	pool *pgxpool.Pool
}

// drain locks on one pooled connection and writes through the pool: the
// session lock does not cover another connection's writes.
func (o *outbox) drain(ctx context.Context) error {
	var got bool
	if err := o.pool.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext('outbox'))`).Scan(&got); err != nil {
		return err
	}
	if !got {
		return nil
	}
	defer o.pool.Exec(ctx, `SELECT pg_advisory_unlock(hashtext('outbox'))`)
	batch := &pgx.Batch{}
	batch.Queue(`UPDATE outbox SET sent = true WHERE id = $1`, 1) // want `Batch.Queue \(UPDATE outbox\) writes to PostgreSQL without a fencing token while the PostgreSQL advisory lock taken by pg_try_advisory_lock \(line 23\) is held`
	batch.Queue(`UPDATE outbox SET sent = true, fence = @tok WHERE id = 2 AND fence < @tok`, pgx.NamedArgs{"tok": int64(7)})
	return o.pool.SendBatch(ctx, batch).Close()
}

// copyRows bulk-loads under the lock: COPY can never carry a predicate.
func (o *outbox) copyRows(ctx context.Context, conn *pgx.Conn, rows [][]any) error {
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(42)`); err != nil {
		return err
	}
	defer conn.Exec(ctx, `SELECT pg_advisory_unlock(42)`)
	_, err := o.pool.CopyFrom(ctx, pgx.Identifier{"outbox"}, []string{"id"}, pgx.CopyFromRows(rows)) // want `Pool.CopyFrom writes to PostgreSQL without a fencing token`
	return err
}

// inTx writes in the transaction that holds the transaction-level lock:
// the lock and the write commit or fail together.
func (o *outbox) inTx(ctx context.Context) error {
	tx, err := o.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(42)`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE outbox SET sent = true WHERE sent = false`); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// fencedUpsert writes with ON CONFLICT ... WHERE on the fence, and checks
// the command tag.
func (o *outbox) fencedUpsert(ctx context.Context, conn *pgx.Conn, id, fence int64, body string) error {
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(42)`); err != nil {
		return err
	}
	defer conn.Exec(ctx, `SELECT pg_advisory_unlock(42)`)
	tag, err := o.pool.Exec(ctx, `
		INSERT INTO docs (id, body, fence) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, fence = EXCLUDED.fence
		WHERE docs.fence < EXCLUDED.fence`, id, body, fence)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return errStale
	}
	return nil
}

// loop writes on every iteration while the lock is held.
func (o *outbox) loop(ctx context.Context, conn *pgx.Conn, ids []int64) error {
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(42)`); err != nil {
		return err
	}
	defer conn.Exec(ctx, `SELECT pg_advisory_unlock(42)`)
	for _, id := range ids {
		if _, err := o.pool.Exec(ctx, `DELETE FROM outbox WHERE id = $1`, id); err != nil { // want `Pool.Exec \(DELETE outbox\) writes to PostgreSQL without a fencing token`
			return err
		}
	}
	return nil
}

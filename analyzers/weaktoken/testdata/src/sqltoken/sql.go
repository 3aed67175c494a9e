// Package sqltoken draws fencing tokens from PostgreSQL.
package sqltoken

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// lateNextval takes a session advisory lock and then draws a sequence in a
// separate statement.
func lateNextval(ctx context.Context, db *sql.DB, other *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
	var fence int64
	if err := conn.QueryRowContext(ctx, "SELECT nextval('fence_seq')").Scan(&fence); err != nil {
		return err
	}
	res, err := other.ExecContext(ctx, update, "body", fence, 1) // want `is fenced with the query "SELECT nextval\('fence_seq'\)" \(line 26\), which is not a fencing token: it is drawn in a separate step after the PostgreSQL .*\(line 21\) was taken.*; use a token issued with the grant: a lease row whose acquiring UPDATE`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// leaseRow takes a lease row and its token in one statement: a real token.
func leaseRow(ctx context.Context, pool *pgxpool.Pool, db *sql.DB, me string) error {
	var fence int64
	err := pool.QueryRow(ctx, `UPDATE leases SET holder = $1, token = token + 1, expires_at = now() + interval '10 seconds'
		WHERE name = 'docs' AND (expires_at < now() OR holder = $1) RETURNING token`, me).Scan(&fence)
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, update, "body", fence, 1)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// sameStatement draws the sequence in the statement that takes the lock.
func sameStatement(ctx context.Context, db *sql.DB, other *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var ok bool
	var fence int64
	err = conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(42), nextval('fence_seq')").Scan(&ok, &fence)
	if err != nil || !ok {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
	res, err := other.ExecContext(ctx, update, "body", fence, 1)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

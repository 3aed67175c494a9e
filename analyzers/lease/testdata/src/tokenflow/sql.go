package tokenflow

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgxpool"
)

// lateNextval draws a sequence after taking the lock.
func lateNextval(ctx context.Context, db *sql.DB, m *redsync.Mutex) {
	if err := m.Lock(); err != nil {
		return
	}
	var tok int64
	if err := db.QueryRowContext(ctx, "SELECT nextval('fence_seq')").Scan(&tok); err == nil {
		probe(tok) // want `late-drawn the query "SELECT nextval\('fence_seq'\)"`
	}
	m.Unlock()
}

// earlyNextval draws before locking: ordered by draw, never stale.
func earlyNextval(ctx context.Context, db *sql.DB, m *redsync.Mutex) {
	var tok int64
	if err := db.QueryRowContext(ctx, "SELECT nextval('fence_seq')").Scan(&tok); err != nil {
		return
	}
	if err := m.Lock(); err != nil {
		return
	}
	probe(tok) // want `monotonic the query "SELECT nextval\('fence_seq'\)"`
	m.Unlock()
}

// sameStatement takes the advisory lock and draws the token in one query.
func sameStatement(ctx context.Context, conn *sql.Conn) {
	var ok bool
	var tok int64
	err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(42), nextval('fence_seq')").Scan(&ok, &tok)
	if err != nil || !ok {
		return
	}
	probe(tok) // want `monotonic the query`
	conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
}

// leaseRow is a lease taken by the statement that returns its token; the
// statement is the lease row's own, no write (leaserows.go).
func leaseRow(ctx context.Context, pool *pgxpool.Pool, me string) {
	var tok int64
	err := pool.QueryRow(ctx, `UPDATE leases SET holder = $1, token = token + 1, expires_at = now() + interval '10 seconds'
		WHERE name = 'reports' AND expires_at < now() RETURNING token`, me).Scan(&tok)
	if err != nil {
		return
	}
	probe(tok) // want `monotonic the query "UPDATE leases SET`
}

// nextToken draws a counter; whether that is late depends on its caller,
// so its fact says counter, for importers to judge at their calls.
func nextToken(ctx context.Context, db *sql.DB) (int64, error) { // want nextToken:"writes .*UPDATE counters.*" nextToken:"token counter the query .UPDATE counters.*"
	var n int64
	err := db.QueryRowContext(ctx, "UPDATE counters SET n = n + 1 WHERE name = 'fence' RETURNING n").Scan(&n)
	return n, err
}

// Draw draws a token for a caller outside any lease: nextToken is not only
// called under one, so its facts stay its callers' to judge.
func Draw(ctx context.Context, db *sql.DB) (int64, error) { // want Draw:"writes .*UPDATE counters.*" Draw:"token counter the query .UPDATE counters.*"
	return nextToken(ctx, db)
}

func helperAfterLock(ctx context.Context, db *sql.DB, m *redsync.Mutex) {
	if err := m.Lock(); err != nil {
		return
	}
	tok, err := nextToken(ctx, db)
	if err == nil {
		probe(tok) // want `late-drawn the query "UPDATE counters`
	}
	m.Unlock()
}

type lease struct{ token int64 }

// scannedIntoField fills a struct field from the sequence after locking.
func scannedIntoField(ctx context.Context, db *sql.DB, m *redsync.Mutex) {
	if err := m.Lock(); err != nil {
		return
	}
	var l lease
	_ = db.QueryRowContext(ctx, "SELECT nextval('fence_seq')").Scan(&l.token)
	probe(l.token) // want `late-drawn the query "SELECT nextval`
	m.Unlock()
}

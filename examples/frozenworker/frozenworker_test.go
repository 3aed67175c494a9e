package main

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"
)

// account is the account every test worker maintains.
const account = 42

// TestFrozenWorker plays the package comment's timeline against a real
// PostgreSQL: worker A computes the balance (100) and freezes; its lease is
// lost (its session is killed, or its lease row expires); a ledger entry
// arrives and worker B takes the lock and writes 150; then A resumes. Under
// the advisory lock A's stale 100 overwrites B's 150 (the bug); under the
// fenced lease A's write is refused with errLeaseLost and 150 stays.
func TestFrozenWorker(t *testing.T) {
	tests := []struct {
		mode string
		// loseLease takes A's lease away while A is frozen.
		loseLease   func(t *testing.T, db *sql.DB)
		wantErrA    error
		wantBalance int64
		wantBy      string
	}{
		{mode: "advisory", loseLease: killLockSession, wantErrA: nil, wantBalance: 100, wantBy: "A"},
		{mode: "lease", loseLease: expireLease, wantErrA: errLeaseLost, wantBalance: 150, wantBy: "B"},
	}
	db := startPostgres(t)
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			ctx := context.Background()
			resetTables(t, db)
			frozen, resume := make(chan struct{}), make(chan struct{})
			freeze := func() { close(frozen); <-resume }
			a, b := newWorker(tt.mode, db, "A", freeze), newWorker(tt.mode, db, "B", nil)

			errA := make(chan error, 1)
			go func() { errA <- a(ctx, account) }()
			<-frozen
			tt.loseLease(t, db)
			mustExec(t, db, "INSERT INTO ledger (account, amount) VALUES ($1, 50)", account)
			if err := b(ctx, account); err != nil {
				t.Fatalf("worker B: %v", err)
			}
			close(resume)
			if err := <-errA; !errors.Is(err, tt.wantErrA) {
				t.Errorf("worker A returned %v, want %v", err, tt.wantErrA)
			}

			var balance int64
			var by string
			if err := db.QueryRowContext(ctx, "SELECT amount, computed_by FROM balances WHERE id = $1", account).Scan(&balance, &by); err != nil {
				t.Fatal(err)
			}
			if balance != tt.wantBalance || by != tt.wantBy {
				t.Errorf("balance %d written by %s, want %d by %s", balance, by, tt.wantBalance, tt.wantBy)
			}
		})
	}
}

// newWorker returns the step function of a worker of mode named name,
// which calls freeze (if not nil) between computing and writing.
func newWorker(mode string, db *sql.DB, name string, freeze func()) func(context.Context, int64) error {
	if mode == "lease" {
		return (&leaseWorker{db: db, name: name, ttl: time.Minute, beforeWrite: freeze}).step
	}
	return (&advisoryWorker{db: db, name: name, beforeWrite: freeze}).step
}

// resetTables creates the tables empty, with account's ledger summing to
// 100 and its balances row at fence 0.
func resetTables(t *testing.T, db *sql.DB) {
	mustExec(t, db, "DROP TABLE IF EXISTS ledger, balances, leases")
	mustExec(t, db, schema)
	mustExec(t, db, "INSERT INTO ledger (account, amount) VALUES ($1, 100)", account)
	mustExec(t, db, "INSERT INTO balances (id) VALUES ($1)", account)
}

// killLockSession ends the server session holding account's advisory lock,
// as a TCP keepalive, idle timeout or failover would: the lock goes with it
// and its client is not told.
func killLockSession(t *testing.T, db *sql.DB) {
	var killed bool
	err := db.QueryRow(`SELECT pg_terminate_backend(pid) FROM pg_locks
		WHERE locktype = 'advisory' AND objid = $1 AND granted`, account).Scan(&killed)
	if err != nil || !killed {
		t.Fatalf("terminating the session that holds the advisory lock: %v, %v", killed, err)
	}
	waitUntil(t, "the advisory lock is released", func() bool {
		var n int
		err := db.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1", account).Scan(&n)
		return err == nil && n == 0
	})
}

// expireLease makes account's lease row run out, as time would while its
// holder is frozen.
func expireLease(t *testing.T, db *sql.DB) {
	mustExec(t, db, "UPDATE leases SET expires_at = now() - interval '1 second' WHERE id = $1", account)
}

// waitUntil polls cond for up to ten seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

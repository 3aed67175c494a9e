package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	pgxle "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-pgx/pgdb"
	pgsqlle "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-stdlib/pgsqldb"
)

// token is what the tests need of a generated Token.
type token interface {
	comparable
	Int64() int64
}

// tokenSource is the token-source API fencegen generates with -sequence and
// -leases; T is the package's Token.
type tokenSource[T token] interface {
	NextToken(ctx context.Context) (T, error)
	AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (T, error)
	RenewLease(ctx context.Context, name, holder string, token T, ttl time.Duration) error
	ReleaseLease(ctx context.Context, name, holder string, token T) error
}

// leaseErrors are a package's lease sentinels.
type leaseErrors struct{ held, lost error }

// TestPostgresTokenSources runs the sequence and lease token sources of the
// golden cases generated with -sequence -leases, and fences docs writes
// with lease tokens.
func TestPostgresTokenSources(t *testing.T) {
	server := pgtest.New(t)
	t.Run("pgx/v5", func(t *testing.T) {
		pool, db := openTokenSchema(t, server, "postgres-pgx/pgdb")
		store := suite.NewStore(pgxAtMost(pool, db), db, tables())
		runTokenSources[pgxle.Token](t, pgxle.NewFenced(pool), leaseErrors{pgxle.ErrLeaseHeld, pgxle.ErrLeaseLost}, store)
	})
	t.Run("database/sql", func(t *testing.T) {
		pool, db := openTokenSchema(t, server, "postgres-stdlib/pgsqldb")
		store := suite.NewStore(stdlibAtMost(pool, db), db, tables())
		runTokenSources[pgsqlle.Token](t, pgsqlle.NewFenced(db), leaseErrors{pgsqlle.ErrLeaseHeld, pgsqlle.ErrLeaseLost}, store)
	})
}

func runTokenSources[T token](t *testing.T, src tokenSource[T], errs leaseErrors, store suite.Store) {
	docs := store.Tables[0] // tables() lists docs first
	t.Run("NextToken grows", func(t *testing.T) { testNextToken(t, src) })
	t.Run("lease lifecycle", func(t *testing.T) { testLeaseLifecycle(t, src, errs) })
	t.Run("expired holder is fenced", func(t *testing.T) { testExpiredHolder(t, src, errs, store, docs) })
	t.Run("lease contention", func(t *testing.T) {
		tokens, issued := leaseTokens(src, errs, "docs-writer", 3*time.Millisecond)
		load := fencecheck.Load{Workers: 8, Rows: 2, LeasesPerWorker: 15, WritesPerLease: 3,
			MaxDelay: 5 * time.Millisecond, Timeout: 30 * time.Second, Seed: 3}
		suite.RunContention(t, store, docs, load, tokens)
		checkDistinct(t, issued())
	})
}

func testNextToken[T token](t *testing.T, src tokenSource[T]) {
	ctx := context.Background()
	var last T
	for i := range 20 {
		tok, err := src.NextToken(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && tok.Int64() <= last.Int64() {
			t.Fatalf("NextToken returned %v after %v", tok, last)
		}
		last = tok
	}
}

// testLeaseLifecycle walks one lease through acquire, a refused rival,
// re-acquire, renew, release and a successor.
func testLeaseLifecycle[T token](t *testing.T, src tokenSource[T], errs leaseErrors) {
	ctx := context.Background()
	const name, ttl = "lifecycle", time.Minute
	a1 := mustAcquire(t, src, name, "a", ttl)
	if _, err := src.AcquireLease(ctx, name, "b", ttl); !errors.Is(err, errs.held) {
		t.Fatalf("rival acquire of a live lease: got %v, want ErrLeaseHeld", err)
	}
	a2 := mustAcquire(t, src, name, "a", ttl)
	if a2.Int64() <= a1.Int64() {
		t.Errorf("re-acquire by the holder returned token %v after %v, want a greater one", a2, a1)
	}
	if err := src.RenewLease(ctx, name, "a", a2, ttl); err != nil {
		t.Errorf("renew with the current token: %v", err)
	}
	if err := src.RenewLease(ctx, name, "a", a1, ttl); !errors.Is(err, errs.lost) {
		t.Errorf("renew with a superseded token: got %v, want ErrLeaseLost", err)
	}
	if err := src.ReleaseLease(ctx, name, "b", a2); !errors.Is(err, errs.lost) {
		t.Errorf("release by a non-holder: got %v, want ErrLeaseLost", err)
	}
	if err := src.ReleaseLease(ctx, name, "a", a2); err != nil {
		t.Fatalf("release: %v", err)
	}
	if err := src.ReleaseLease(ctx, name, "a", a2); !errors.Is(err, errs.lost) {
		t.Errorf("second release: got %v, want ErrLeaseLost", err)
	}
	if b := mustAcquire(t, src, name, "b", ttl); b.Int64() <= a2.Int64() {
		t.Errorf("successor got token %v after %v, want a greater one", b, a2)
	}
}

// testExpiredHolder is the story fencing exists for: a holder pauses past
// its lease, a successor takes over and writes, and the old holder's late
// write is rejected with the successor's token.
func testExpiredHolder[T token](t *testing.T, src tokenSource[T], errs leaseErrors, store suite.Store, docs suite.Table) {
	ctx := context.Background()
	const name, key = "expiry", 301
	old := mustAcquire(t, src, name, "old", 50*time.Millisecond)
	if err := docs.Upsert(ctx, old.Int64(), key, 1); err != nil {
		t.Fatalf("write under the first lease: %v", err)
	}
	time.Sleep(100 * time.Millisecond) // the old holder pauses past its lease
	successor := mustAcquire(t, src, name, "successor", time.Minute)
	if successor.Int64() <= old.Int64() {
		t.Fatalf("successor token %v is not greater than %v", successor, old)
	}
	if err := docs.Update(ctx, successor.Int64(), key, 2); err != nil {
		t.Fatalf("successor's write: %v", err)
	}
	err := docs.Update(ctx, old.Int64(), key, 3)
	v := store.Classify(err)
	if !v.IsStale || v.Current == nil || *v.Current != successor.Int64() {
		t.Errorf("old holder's late write: got %v (%+v), want a stale error with current fence %v", err, v, successor)
	}
	if err := src.RenewLease(ctx, name, "old", old, time.Minute); !errors.Is(err, errs.lost) {
		t.Errorf("old holder's renew: got %v, want ErrLeaseLost", err)
	}
	if _, value, _, err := docs.Read(ctx, key); err != nil || value != 2 {
		t.Errorf("row value = %d (err %v), want the successor's 2", value, err)
	}
}

// leaseTokens returns a TokenFunc that takes the named lease for each
// worker, waiting while another worker holds it, and a function listing
// every token it handed out.
func leaseTokens[T token](src tokenSource[T], errs leaseErrors, name string, ttl time.Duration) (fencecheck.TokenFunc, func() []int64) {
	var mu sync.Mutex
	var issued []int64
	tokens := func(ctx context.Context, worker int) (int64, error) {
		for {
			tok, err := src.AcquireLease(ctx, name, fmt.Sprint("worker-", worker), ttl)
			if errors.Is(err, errs.held) {
				time.Sleep(200 * time.Microsecond)
				continue
			}
			if err != nil {
				return 0, err
			}
			mu.Lock()
			issued = append(issued, tok.Int64())
			mu.Unlock()
			return tok.Int64(), nil
		}
	}
	return tokens, func() []int64 { mu.Lock(); defer mu.Unlock(); return issued }
}

func checkDistinct(t *testing.T, tokens []int64) {
	t.Helper()
	seen := make(map[int64]bool)
	for _, tok := range tokens {
		if seen[tok] {
			t.Errorf("lease token %d was handed out twice", tok)
		}
		seen[tok] = true
	}
}

func mustAcquire[T token](t *testing.T, src tokenSource[T], name, holder string, ttl time.Duration) T {
	t.Helper()
	tok, err := src.AcquireLease(context.Background(), name, holder, ttl)
	if err != nil {
		t.Fatalf("%s acquiring %s: %v", holder, name, err)
	}
	return tok
}

// openTokenSchema opens a database with the test schema plus the golden
// package's fence_tokens.sql and fence_leases.sql.
func openTokenSchema(t *testing.T, server *pgtest.Server, golden string) (*pgxpool.Pool, *sql.DB) {
	t.Helper()
	pool, db := openSchema(t, server)
	for _, file := range []string{"fence_tokens.sql", "fence_leases.sql"} {
		ddl, err := os.ReadFile(filepath.Join("..", "..", "golden", golden, file))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(context.Background(), string(ddl)); err != nil {
			t.Fatalf("apply %s: %v", file, err)
		}
	}
	return pool, db
}

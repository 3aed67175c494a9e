// Package bench_test measures the throughput of fencegen's generated fenced
// UPDATE (golden case postgres-pgx) on a real PostgreSQL 15 cluster against
// the two things people write instead: a plain UPDATE (no protection) and a
// SELECT ... FOR UPDATE + UPDATE transaction (the read-compare-write
// idiom). bench.sh runs them in one go and prints the ratios.
package bench_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	pgdb "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-pgx/pgdb"
)

// rows is the number of rows the writes cycle through, so consecutive
// writes do not queue on one row lock or one heap page.
const rows = 1000

// writeFunc writes body to row id with token, which grows with every call.
type writeFunc func(ctx context.Context, pool *pgxpool.Pool, token, id int64, body string) error

// variant is one way of writing a row.
type variant struct {
	name  string
	write writeFunc
}

// variants lists the writes compared; fenced is fencegen's generated
// UpdateDoc (golden case postgres-pgx, "<=").
func variants(pool *pgxpool.Pool) []variant {
	fenced := pgdb.NewFenced(pool)
	fencedUpdate := func(ctx context.Context, _ *pgxpool.Pool, token, id int64, body string) error {
		return fenced.UpdateDoc(ctx, pgdb.TokenOf(token), pgdb.UpdateDocParams{ID: id, Body: body})
	}
	return []variant{
		{"plain", plainUpdate},
		{"fenced", fencedUpdate},
		{"select-for-update", selectForUpdate},
	}
}

// TestVariants checks that every benchmarked write really writes, so the
// benchmark measures work that happens.
func TestVariants(t *testing.T) {
	pool := openSchema(t, pgtest.New(t))
	ctx := context.Background()
	for _, v := range variants(pool) {
		token := resetRows(t, pool)
		if err := v.write(ctx, pool, token+1, 7, "written"); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		var body string
		if err := pool.QueryRow(ctx, "SELECT body FROM docs WHERE id = 7").Scan(&body); err != nil {
			t.Fatal(err)
		}
		if body != "written" {
			t.Errorf("%s: row body = %q after the write", v.name, body)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	pool := openSchema(b, pgtest.New(b))
	for _, bm := range variants(pool) {
		b.Run(bm.name, func(b *testing.B) {
			ctx := context.Background()
			token := resetRows(b, pool)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				token++
				id := int64(i%rows) + 1
				if err := bm.write(ctx, pool, token, id, strconv.Itoa(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// plainUpdate is the unprotected write: the baseline cost of the statement.
func plainUpdate(ctx context.Context, pool *pgxpool.Pool, _, id int64, body string) error {
	_, err := pool.Exec(ctx, "UPDATE docs SET body = $2 WHERE id = $1", id, body)
	return err
}

// selectForUpdate is the read-compare-write transaction people write by hand
// instead of a guarded statement.
func selectForUpdate(ctx context.Context, pool *pgxpool.Pool, token, id int64, body string) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var fence int64
		if err := tx.QueryRow(ctx, "SELECT fence FROM docs WHERE id = $1 FOR UPDATE", id).Scan(&fence); err != nil {
			return err
		}
		if fence > token {
			return errors.New("stale token")
		}
		_, err := tx.Exec(ctx, "UPDATE docs SET body = $2, fence = $3 WHERE id = $1", id, body, token)
		return err
	})
}

// resetRows gives every benchmark the same fresh table (rows rows, fence 0)
// and returns the token the writes count up from.
func resetRows(tb testing.TB, pool *pgxpool.Pool) int64 {
	tb.Helper()
	ctx := context.Background()
	for _, stmt := range []string{
		"TRUNCATE docs",
		"INSERT INTO docs (id, body, fence) SELECT g, 'x', 0 FROM generate_series(1, " + strconv.Itoa(rows) + ") g",
		"VACUUM ANALYZE docs",
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			tb.Fatal(err)
		}
	}
	return 0
}

// openSchema creates a database with the PostgreSQL test schema and returns
// a pool on it.
func openSchema(tb testing.TB, server *pgtest.Server) *pgxpool.Pool {
	tb.Helper()
	ctx := context.Background()
	schema, err := os.ReadFile("../schema/postgresql.sql")
	if err != nil {
		tb.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, server.NewDatabase(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)); err != nil {
		tb.Fatalf("apply schema: %v", err)
	}
	return pool
}

// BenchmarkUpdateInterleaved runs the variants round-robin, one write each
// in turn, and reports each one's ns/op and the throughput ratios of the
// fenced write. On a shared machine, load that comes and goes then hits
// every variant alike, so the ratios hold even when absolute times wander.
func BenchmarkUpdateInterleaved(b *testing.B) {
	pool := openSchema(b, pgtest.New(b))
	vs := variants(pool)
	token := resetRows(b, pool)
	ctx := context.Background()
	spent := make([]time.Duration, len(vs))
	count := make([]int, len(vs))
	for i := 0; b.Loop(); i++ {
		v := i % len(vs)
		token++
		start := time.Now()
		if err := vs[v].write(ctx, pool, token, int64(i%rows)+1, strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
		spent[v] += time.Since(start)
		count[v]++
	}
	perOp := make(map[string]float64)
	for v := range vs {
		perOp[vs[v].name] = float64(spent[v].Nanoseconds()) / float64(max(count[v], 1))
		b.ReportMetric(perOp[vs[v].name], vs[v].name+"-ns/op")
	}
	b.ReportMetric(perOp["plain"]/perOp["fenced"], "fenced/plain")
	b.ReportMetric(perOp["select-for-update"]/perOp["fenced"], "fenced/select-for-update")
}

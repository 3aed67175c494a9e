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

func BenchmarkUpdate(b *testing.B) {
	pool := openSchema(b, pgtest.New(b))
	fenced := pgdb.NewFenced(pool)
	fencedUpdate := func(ctx context.Context, _ *pgxpool.Pool, token, id int64, body string) error {
		return fenced.UpdateDoc(ctx, pgdb.Token(token), pgdb.UpdateDocParams{ID: id, Body: body})
	}
	for _, bm := range []struct {
		name  string
		write writeFunc
	}{
		{"plain", plainUpdate},
		{"fenced", fencedUpdate}, // fencegen's generated UpdateDoc (pgx/v5, "<=")
		{"select-for-update", selectForUpdate},
	} {
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
func resetRows(b *testing.B, pool *pgxpool.Pool) int64 {
	b.Helper()
	ctx := context.Background()
	for _, stmt := range []string{
		"TRUNCATE docs",
		"INSERT INTO docs (id, body, fence) SELECT g, 'x', 0 FROM generate_series(1, " + strconv.Itoa(rows) + ") g",
		"VACUUM ANALYZE docs",
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			b.Fatal(err)
		}
	}
	return 0
}

// openSchema creates a database with the PostgreSQL test schema and returns
// a pool on it.
func openSchema(b *testing.B, server *pgtest.Server) *pgxpool.Pool {
	b.Helper()
	ctx := context.Background()
	schema, err := os.ReadFile("../schema/postgresql.sql")
	if err != nil {
		b.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, server.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)); err != nil {
		b.Fatalf("apply schema: %v", err)
	}
	return pool
}

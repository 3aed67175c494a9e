// Package postgres_test runs fencegen's generated code against a real
// PostgreSQL 15 cluster.
package postgres_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
)

func TestPostgres(t *testing.T) {
	server := pgtest.New(t)
	for _, cmp := range []fencecheck.Comparison{fencecheck.AtMost, fencecheck.Below} {
		t.Run("hand", func(t *testing.T) {
			pool := openSchema(t, server)
			store := handStore(pool, cmp)
			suite.Run(t, store)
			t.Run("contention", func(t *testing.T) {
				suite.RunContention(t, store, store.Tables[0], suite.DefaultLoad())
			})
		})
	}
}

// openSchema creates a fresh database with the test schema and returns a
// pool on it.
func openSchema(t *testing.T, server *pgtest.Server) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	schema, err := os.ReadFile("../schema/postgresql.sql")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, server.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	return pool
}

// Package postgres_test runs fencegen's generated code, for both drivers and
// both comparisons, against a real PostgreSQL 15 cluster.
package postgres_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	pgxlt "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-pgx-lt/pgdb"
	pgxle "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-pgx/pgdb"
	pgsqlle "github.com/fencelint/fencelint/testdata/fencegen/golden/postgres-stdlib/pgsqldb"
)

// packages lists the generated packages under test (golden cases), each
// bound to a fresh database: the pgx/v5 driver over a pool, database/sql
// over pgx's stdlib.
func packages() []struct {
	name string
	bind func(pool *pgxpool.Pool, db *sql.DB) suite.Generated
} {
	return []struct {
		name string
		bind func(pool *pgxpool.Pool, db *sql.DB) suite.Generated
	}{
		{"pgx/v5 <=", pgxAtMost},
		{"pgx/v5 <", pgxBelow},
		{"database/sql <=", stdlibAtMost},
	}
}

// pgxAtMost binds golden case postgres-pgx.
func pgxAtMost(pool *pgxpool.Pool, _ *sql.DB) suite.Generated {
	return suite.Generated{
		Cmp:     fencecheck.AtMost,
		Fenced:  pgxle.NewFenced(pool),
		TokenOf: pgxle.TokenOf,
		Classify: suite.Classifier[*pgxle.StaleError, *pgxle.NotFoundError](pgxle.ErrStale, pgxle.ErrNotFound,
			func(e *pgxle.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
	}
}

// pgxBelow binds golden case postgres-pgx-lt.
func pgxBelow(pool *pgxpool.Pool, _ *sql.DB) suite.Generated {
	return suite.Generated{
		Cmp:     fencecheck.Below,
		Fenced:  pgxlt.NewFenced(pool),
		TokenOf: pgxlt.TokenOf,
		Classify: suite.Classifier[*pgxlt.StaleError, *pgxlt.NotFoundError](pgxlt.ErrStale, pgxlt.ErrNotFound,
			func(e *pgxlt.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
	}
}

// stdlibAtMost binds golden case postgres-stdlib.
func stdlibAtMost(_ *pgxpool.Pool, db *sql.DB) suite.Generated {
	return suite.Generated{
		Cmp:     fencecheck.AtMost,
		Fenced:  pgsqlle.NewFenced(db),
		TokenOf: pgsqlle.TokenOf,
		Classify: suite.Classifier[*pgsqlle.StaleError, *pgsqlle.NotFoundError](pgsqlle.ErrStale, pgsqlle.ErrNotFound,
			func(e *pgsqlle.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
	}
}

// TestPostgres runs the behaviour suite and a contention run for every
// package, each in its own database on one cluster.
func TestPostgres(t *testing.T) {
	server := pgtest.New(t)
	t.Run("widths", func(t *testing.T) { runWidths(t, server) })
	t.Run("types", func(t *testing.T) { runTypes(t, server) })
	for _, p := range packages() {
		t.Run(p.name, func(t *testing.T) {
			pool, db := openSchema(t, server)
			store := suite.NewStore(p.bind(pool, db), db, tables())
			suite.Run(t, store)
			suite.RunSchemaIsolation(t, store, "settings", "app.settings")
			t.Run("contention", func(t *testing.T) {
				for _, table := range store.Tables {
					t.Run(table.Name, func(t *testing.T) {
						suite.RunContention(t, store, table, suite.DefaultLoad(), fencecheck.Counter())
					})
				}
			})
		})
	}
}

// openSchema creates a fresh database with the test schema and returns a
// pgx pool and a database/sql handle on it.
func openSchema(t *testing.T, server *pgtest.Server) (*pgxpool.Pool, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	schema, err := os.ReadFile("../schema/postgresql.sql")
	if err != nil {
		t.Fatal(err)
	}
	// As many connections as contention workers, so the writes really
	// race in the server rather than queue for the pool.
	pool, err := pgxpool.New(ctx, server.NewDatabase(t)+" pool_max_conns=16")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	t.Cleanup(func() { db.Close() })
	return pool, db
}

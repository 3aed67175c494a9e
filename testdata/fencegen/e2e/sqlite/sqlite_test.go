// Package sqlite_test runs fencegen's generated SQLite code, for both
// comparisons, against a real SQLite database (the pure-Go
// modernc.org/sqlite driver).
package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/sqlitetest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	sqlitelt "github.com/fencelint/fencelint/testdata/fencegen/golden/sqlite-lt/sqlitedb"
	sqlitele "github.com/fencelint/fencelint/testdata/fencegen/golden/sqlite/sqlitedb"
)

// packages lists the generated packages under test, each bound to a fresh
// database.
func packages() []struct {
	name string
	bind func(db *sql.DB) suite.Generated
} {
	return []struct {
		name string
		bind func(db *sql.DB) suite.Generated
	}{
		{"<=", func(db *sql.DB) suite.Generated {
			return suite.Generated{
				Cmp:     fencecheck.AtMost,
				Fenced:  sqlitele.NewFenced(db),
				TokenOf: sqlitele.TokenOf,
				Classify: suite.Classifier[*sqlitele.StaleError, *sqlitele.NotFoundError](sqlitele.ErrStale, sqlitele.ErrNotFound,
					func(e *sqlitele.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
			}
		}},
		{"<", func(db *sql.DB) suite.Generated {
			return suite.Generated{
				Cmp:     fencecheck.Below,
				Fenced:  sqlitelt.NewFenced(db),
				TokenOf: sqlitelt.TokenOf,
				Classify: suite.Classifier[*sqlitelt.StaleError, *sqlitelt.NotFoundError](sqlitelt.ErrStale, sqlitelt.ErrNotFound,
					func(e *sqlitelt.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
			}
		}},
	}
}

// TestSQLite runs the behaviour suite and a contention run for every
// package, each on its own database file.
func TestSQLite(t *testing.T) {
	for _, p := range packages() {
		t.Run(p.name, func(t *testing.T) {
			db := openSchema(t)
			store := suite.NewStore(p.bind(db), db, tables())
			suite.Run(t, store)
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

// openSchema opens a fresh database file with the test schema.
func openSchema(t *testing.T) *sql.DB {
	t.Helper()
	schema, err := os.ReadFile("../schema/sqlite.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := sqlitetest.Open(t)
	if _, err := db.ExecContext(context.Background(), string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	return db
}

// Package mariadb_test runs fencegen's generated MySQL code, for both
// comparisons, against a real MariaDB server, with the driver's
// clientFoundRows both on and off (the generated code must not depend on
// it).
package mariadb_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/fencecheck"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/mariadbtest"
	"github.com/fencelint/fencelint/testdata/fencegen/e2e/suite"
	mysqllt "github.com/fencelint/fencelint/testdata/fencegen/golden/mysql-lt/mysqldb"
	mysqlle "github.com/fencelint/fencelint/testdata/fencegen/golden/mysql/mysqldb"
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
				Fenced:  mysqlle.NewFenced(db),
				TokenOf: mysqlle.TokenOf,
				Classify: suite.Classifier[*mysqlle.StaleError, *mysqlle.NotFoundError](mysqlle.ErrStale, mysqlle.ErrNotFound,
					func(e *mysqlle.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
			}
		}},
		{"<", func(db *sql.DB) suite.Generated {
			return suite.Generated{
				Cmp:     fencecheck.Below,
				Fenced:  mysqllt.NewFenced(db),
				TokenOf: mysqllt.TokenOf,
				Classify: suite.Classifier[*mysqllt.StaleError, *mysqllt.NotFoundError](mysqllt.ErrStale, mysqllt.ErrNotFound,
					func(e *mysqllt.StaleError) (string, *int64) { return e.Table, suite.Int64(e.Current) }),
			}
		}},
	}
}

// TestMariaDB runs the behaviour suite and a contention run for every
// package and clientFoundRows setting, each in its own database on one
// server.
func TestMariaDB(t *testing.T) {
	server := mariadbtest.New(t)
	t.Run("widths", func(t *testing.T) { runWidths(t, server) })
	for _, p := range packages() {
		for _, foundRows := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s clientFoundRows=%v", p.name, foundRows), func(t *testing.T) {
				db := openSchema(t, server, foundRows)
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
}

// openSchema creates a fresh database with the test schema and returns a
// handle on it with clientFoundRows set as asked.
func openSchema(t *testing.T, server *mariadbtest.Server, foundRows bool) *sql.DB {
	t.Helper()
	schema, err := os.ReadFile("../schema/mysql.sql")
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, server, foundRows)
	if _, err := db.ExecContext(context.Background(), string(schema)); err != nil {
		t.Fatalf("apply schema: %v", err)
	}
	return db
}

// openDB creates a fresh, empty database and returns a handle on it with
// clientFoundRows set as asked.
func openDB(t *testing.T, server *mariadbtest.Server, foundRows bool) *sql.DB {
	t.Helper()
	cfg, err := mysql.ParseDSN(server.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.ClientFoundRows = foundRows
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

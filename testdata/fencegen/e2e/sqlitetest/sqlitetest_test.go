package sqlitetest_test

import (
	"testing"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/sqlitetest"
)

// TestOpen checks that each database is fresh and writable.
func TestOpen(t *testing.T) {
	first := sqlitetest.Open(t)
	if _, err := first.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	second := sqlitetest.Open(t)
	var n int
	if err := second.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 't'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("second database already has table t: databases are not isolated")
	}
}

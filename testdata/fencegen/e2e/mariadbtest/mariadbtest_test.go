package mariadbtest_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/mariadbtest"
)

// TestServerLifecycle starts a server, checks it is MariaDB with two isolated
// databases and matched-row counting, stops it and checks nothing is left.
func TestServerLifecycle(t *testing.T) {
	s, err := mariadbtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	first := s.NewDatabase(t)
	if second := s.NewDatabase(t); first == second {
		t.Fatalf("NewDatabase returned %q twice", first)
	}
	db, err := sql.Open("mysql", first)
	if err != nil {
		t.Fatal(err)
	}
	var version string
	if err := db.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(version, "MariaDB") {
		t.Errorf("VERSION() = %q, want a MariaDB server", version)
	}
	if got := identicalUpdateRowsAffected(t, db); got != 1 {
		t.Errorf("an UPDATE writing identical values reports %d rows affected, want 1 (clientFoundRows)", got)
	}
	db.Close()

	cfg, err := mysql.ParseDSN(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.Addr); !os.IsNotExist(err) {
		t.Errorf("socket %s still exists after Stop (stat: %v)", cfg.Addr, err)
	}
}

func identicalUpdateRowsAffected(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	for _, stmt := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)",
		"INSERT INTO t VALUES (1, 7)",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	res, err := db.Exec("UPDATE t SET v = 7 WHERE id = 1")
	if err != nil {
		t.Fatal(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStartFailureShowsLog checks that a server that cannot start yields an
// error carrying the failing tool's own output.
func TestStartFailureShowsLog(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'mariadb-install-db: simulated disk full' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "mariadb-install-db"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	s, err := mariadbtest.Start()
	if err == nil {
		s.Stop()
		t.Fatal("Start succeeded with a failing mariadb-install-db")
	}
	if !strings.Contains(err.Error(), "simulated disk full") {
		t.Errorf("error does not carry the log tail:\n%v", err)
	}
}

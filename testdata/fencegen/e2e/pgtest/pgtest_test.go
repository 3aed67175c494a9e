package pgtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fencelint/fencelint/testdata/fencegen/e2e/pgtest"
)

// TestServerLifecycle starts a cluster, checks it is PostgreSQL 15 with two
// isolated databases, stops it and checks nothing is left behind.
func TestServerLifecycle(t *testing.T) {
	s, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first := s.NewDatabase(t)
	second := s.NewDatabase(t)
	if first == second {
		t.Fatalf("NewDatabase returned %q twice", first)
	}
	conn, err := pgx.Connect(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "15.") {
		t.Errorf("server_version = %q, want 15.x", version)
	}
	conn.Close(ctx)

	dir := socketDir(t, first)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s still exists after Stop (stat: %v)", dir, err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

// TestStartFailureShowsLog checks that a cluster that cannot start yields an
// error carrying initdb's own output.
func TestStartFailureShowsLog(t *testing.T) {
	// Not t.TempDir or $TMPDIR: they may be private to root, and the postgres user
	// must reach the fake initdb.
	bin, err := os.MkdirTemp("/tmp", "fake-pgbin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bin) })
	script := "#!/bin/sh\necho 'initdb: simulated disk full' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "initdb"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(bin, 0o755); err != nil { // the postgres user must reach it
		t.Fatal(err)
	}
	t.Setenv("PGTEST_BINDIR", bin)
	s, err := pgtest.Start()
	if err == nil {
		s.Stop()
		t.Fatal("Start succeeded with a failing initdb")
	}
	if !strings.Contains(err.Error(), "simulated disk full") {
		t.Errorf("error does not carry the log tail:\n%v", err)
	}
}

func socketDir(t *testing.T, dsn string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Host
}

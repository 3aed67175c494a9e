package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMain lets a test re-run this binary as fencegen itself: sqlc's
// pkg/cli ends the process with os.Exit(1) when it rejects its input, which
// only a separate process can observe.
func TestMain(m *testing.M) {
	if os.Getenv("FENCEGEN_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// TestSQLCRejectionNamesUserFile feeds a schema that only sqlc's catalog
// rejects (a view selecting a missing column): the process exits 1 with
// sqlc's message naming the user's file and line, and writes no output.
func TestSQLCRejectionNamesUserFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"schema.sql": "CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);\n\nCREATE VIEW v AS SELECT nope FROM docs;\n",
	})
	tmp := t.TempDir() // sqlc's exit skips fencegen's cleanup; keep its leftovers here
	cmd := exec.Command(os.Args[0], "-engine", "postgresql", "-schema", "../schema.sql", "-out", "db")
	cmd.Dir = filepath.Join(dir, "pkg")
	if err := os.MkdirAll(cmd.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "FENCEGEN_TEST_MAIN=1", "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want code 1; stderr:\n%s", err, stderr.String())
	}
	if want := "../schema.sql:3:25: column \"nope\" does not exist"; !bytes.Contains(stderr.Bytes(), []byte(want)) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(cmd.Dir, "db")); !os.IsNotExist(err) {
		t.Errorf("output directory exists after an error (%v)", err)
	}
}

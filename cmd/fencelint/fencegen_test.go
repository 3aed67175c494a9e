package main_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fencegenWorker writes through fencegen's output (store, copied from the
// postgres-stdlib golden) under PostgreSQL advisory locks.
const fencegenWorker = `package worker

import (
	"context"
	"database/sql"

	"example.com/app/store"
)

// lateToken locks, then draws the token in a separate statement.
func lateToken(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT nextval('fence_token_seq')").Scan(&n); err != nil {
		return err
	}
	return store.NewFenced(db).UpdateDoc(ctx, store.TokenOf(n), store.UpdateDocParams{ID: 1, Body: "b"})
}

// lateNextToken locks, then draws from fencegen's sequence.
func lateNextToken(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)"); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
	f := store.NewFenced(db)
	token, err := f.NextToken(ctx)
	if err != nil {
		return err
	}
	return f.DeleteDoc(ctx, token, store.DeleteDocParams{ID: 1})
}

// sameStatement draws the token in the statement that takes the lock.
func sameStatement(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var ok bool
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(42), nextval('fence_token_seq')").Scan(&ok, &n); err != nil || !ok {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(42)")
	return store.NewFenced(db).UpdateDoc(ctx, store.TokenOf(n), store.UpdateDocParams{ID: 1, Body: "b"})
}

// leaseTable takes fencegen's lease, whose statement hands out the token.
func leaseTable(ctx context.Context, db *sql.DB, me string) error {
	f := store.NewFenced(db)
	token, err := f.AcquireLease(ctx, "docs", me, 10e9)
	if err != nil {
		return err
	}
	defer f.ReleaseLease(ctx, "docs", me, token)
	return f.UpsertDoc(ctx, token, store.UpsertDocParams{ID: 1, Body: "b"})
}
`

// TestFencegenOutput runs fencelint standalone and as go vet's tool over a
// module that writes through fencegen's real output (the postgres-stdlib
// golden, read from testdata so it is always current): both modes report
// the tokens drawn after locking and nothing else, in the generated package
// or in the fenced calls.
func TestFencegenOutput(t *testing.T) {
	dir := t.TempDir()
	golden := filepath.Join(moduleRoot, "testdata", "fencegen", "golden", "postgres-stdlib", "pgsqldb")
	files, err := filepath.Glob(filepath.Join(golden, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fencegen golden in %s: %v", golden, err)
	}
	write := func(name, text string) {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		write("store/"+filepath.Base(f), strings.Replace(string(text), "package pgsqldb", "package store", 1))
	}
	write("go.mod", "module example.com/app\n\ngo 1.26.0\n")
	write("worker/worker.go", fencegenWorker)

	want := []finding{
		{Analyzer: "weaktoken", File: "worker.go", Line: 25},
		{Analyzer: "weaktoken", File: "worker.go", Line: 44},
	}
	standalone := run(t, dir, fencelintBin, "-json", "./...")
	if standalone.code != 0 {
		t.Fatalf("fencelint -json: exit code %d\nstderr:\n%s", standalone.code, standalone.stderr)
	}
	got, err := parseJSON(standalone.stdout)
	if err != nil {
		t.Fatalf("fencelint -json: %v\n%s", err, standalone.stdout)
	}
	checkFindings(t, "fencelint", got, want)

	vet := run(t, dir, "go", "vet", "-vettool="+fencelintBin, "-json", "./...")
	if vet.code != 0 {
		t.Fatalf("go vet -json: exit code %d\nstderr:\n%s", vet.code, vet.stderr)
	}
	got, err = parseJSONStream(vet.stdout + vet.stderr)
	if err != nil {
		t.Fatalf("go vet -json: %v\n%s%s", err, vet.stdout, vet.stderr)
	}
	checkFindings(t, "go vet", got, want)
}

// checkFindings compares findings, without their messages, with want.
func checkFindings(t *testing.T, mode string, got, want []finding) {
	t.Helper()
	var keys []finding
	for _, f := range got {
		t.Logf("%s: %v", mode, f)
		keys = append(keys, f.key())
	}
	slices.SortFunc(keys, func(a, b finding) int { return a.Line - b.Line })
	if !slices.Equal(keys, want) {
		t.Errorf("%s: findings %v, want %v", mode, keys, want)
	}
}

// parseJSONStream decodes go vet -json output: one JSON object per package
// (each as parseJSON reads), with "# package" lines between them.
func parseJSONStream(out string) ([]finding, error) {
	var lines []string
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(lines, "")))
	var all []finding
	for {
		var obj json.RawMessage
		if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
			return all, nil
		} else if err != nil {
			return nil, err
		}
		fs, err := parseJSON(string(obj))
		if err != nil {
			return nil, err
		}
		all = append(all, fs...)
	}
}

package main_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// embedModule keeps its statements in files embedded with //go:embed: one
// statement per file in a string, and named queries ("-- name: X") read
// from an embed.FS into a map at start-up, a lock statement among them.
var embedModule = map[string]string{
	"go.mod": "module example.com/embedded\n\ngo 1.26\n",
	"sql/mark_done.sql": "-- Mark a run done, whoever holds it.\n" +
		"UPDATE runs SET state = 'done' WHERE id = $1;\n",
	"sql/queries.sql": "-- name: Finish :exec\n" +
		"UPDATE runs SET finished_at = now() WHERE id = $1;\n\n" +
		"-- name: FinishFenced :execrows\n" +
		"UPDATE runs SET finished_at = now(), fence = $2 WHERE id = $1 AND fence < $2;\n\n" +
		"-- name: Lock :one\n" +
		"SELECT pg_try_advisory_lock($1);\n",
	"jobs.go": `package embedded

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"strings"
)

//go:embed sql/mark_done.sql
var markDone string

//go:embed sql/queries.sql
var files embed.FS

// queries holds the named queries of sql/queries.sql, split at start-up.
var queries = load()

func load() map[string]string {
	data, err := files.ReadFile("sql/queries.sql")
	if err != nil {
		panic(err)
	}
	m := make(map[string]string)
	for _, block := range strings.Split(string(data), "-- name: ")[1:] {
		name, body, _ := strings.Cut(block, "\n")
		m[strings.Fields(name)[0]] = body
	}
	return m
}

func finish(ctx context.Context, db *sql.DB, conn *sql.Conn, job, fence int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", job); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, markDone, job); err != nil { // finding: markDone
		return err
	}
	if _, err := db.ExecContext(ctx, queries["Finish"], job); err != nil { // finding: Finish
		return err
	}
	res, err := db.ExecContext(ctx, queries["FinishFenced"], job, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("stale")
	}
	return nil
}

// archive takes its lock with the named query Lock: a lease like the
// constant form.
func archive(ctx context.Context, db *sql.DB, conn *sql.Conn, job int64) error {
	var ok bool
	if err := conn.QueryRowContext(ctx, queries["Lock"], job).Scan(&ok); err != nil || !ok {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE runs SET state = 'archived' WHERE id = $1", job) // finding: archive
	return err
}
`,
}

// TestEmbeddedSQL checks that statements kept in embedded files are read:
// the unfenced ones are reported, the fenced named query is not.
func TestEmbeddedSQL(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), embedModule)
	got := run(t, dir, fencelintBin, "-json", "./...")
	findings, err := parseJSON(got.stdout)
	if err != nil || got.code != 0 {
		t.Fatalf("fencelint -json: exit %d, %v\nstdout:\n%s\nstderr:\n%s", got.code, err, got.stdout, got.stderr)
	}
	jobs := filepath.Join(dir, "jobs.go")
	want := []finding{
		{Analyzer: "unfencedwrite", File: "jobs.go", Line: lineOf(t, jobs, "// finding: markDone")},
		{Analyzer: "unfencedwrite", File: "jobs.go", Line: lineOf(t, jobs, "// finding: Finish")},
		{Analyzer: "unfencedwrite", File: "jobs.go", Line: lineOf(t, jobs, "// finding: archive")},
	}
	var keys []finding
	for _, f := range findings {
		keys = append(keys, f.key())
	}
	if !slices.Equal(keys, want) {
		t.Errorf("findings %v, want %v", findings, want)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const queriesSchema = "CREATE TABLE docs (id bigint PRIMARY KEY, title text NOT NULL, fence bigint);\n"

// TestQueriesFlag fences a write of -queries and passes a read through.
func TestQueriesFlag(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"schema.sql":  queriesSchema,
		"queries.sql": "-- name: GetDoc :one\nSELECT * FROM docs WHERE id = $1;\n\n-- name: SetTitle :exec\nUPDATE docs SET title = $2 WHERE id = $1;\n",
	})
	code, _, stderr := runIn(t, dir, "-engine", "postgresql", "-schema", "schema.sql", "-queries", "queries.sql", "-out", "db", "-no-version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fenced := readFile(t, filepath.Join(dir, "db", "fenced.go"))
	if !strings.Contains(fenced, "func (f *Fenced) SetTitle(ctx context.Context, token Token, arg SetTitleParams) error") {
		t.Errorf("fenced.go has no fenced SetTitle:\n%s", fenced)
	}
	sqlcGo := readFile(t, filepath.Join(dir, "db", "queries.fenced.sql.go"))
	for _, want := range []string{"func (q *Queries) GetDoc(", "func (q *Queries) fencedSetTitle("} {
		if !strings.Contains(sqlcGo, want) {
			t.Errorf("queries.fenced.sql.go lacks %q", want)
		}
	}
	if strings.Contains(sqlcGo, "func (q *Queries) SetTitle(") {
		t.Error("the write is callable without a token")
	}
}

// TestQueriesErrors checks that bad queries are reported at the user's
// file, line and column, and that nothing is written.
func TestQueriesErrors(t *testing.T) {
	for _, tc := range []struct{ name, queries, want string }{
		{
			name:    "unfenced without a reason",
			queries: "-- name: Reset :exec\n-- fencegen:unfenced\nUPDATE docs SET title = '';\n",
			want:    "queries.sql:2:1: -- fencegen:unfenced needs a reason after it",
		},
		{
			name:    "sets the fence itself",
			queries: "-- name: SetTitle :exec\nUPDATE docs SET title = $1, fence = $2 WHERE id = $3;\n",
			want:    "queries.sql:2:29: SetTitle sets fence column \"fence\" of docs itself",
		},
		{
			name:    "syntax error",
			queries: "-- name: SetTitle :exec\nUPDATE docs SET title = WHERE id = $1;\n",
			want:    "queries.sql:2:25: syntax error at or near \"WHERE\"",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"schema.sql": queriesSchema, "queries.sql": tc.queries})
			code, _, stderr := runIn(t, dir, "-engine", "postgresql", "-schema", "schema.sql", "-queries", "queries.sql", "-out", "db")
			if code != 1 || !strings.HasPrefix(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit 1 and %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "db")); !os.IsNotExist(err) {
				t.Error("output written despite the error")
			}
		})
	}
}

// TestSQLCModeQueries fences the writes among an sqlc.yaml's queries.
func TestSQLCModeQueries(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"sqlc.yaml":       "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: schema.sql\n    queries: queries\n    gen:\n      go:\n        package: db\n        out: db\n        sql_package: pgx/v5\n",
		"schema.sql":      queriesSchema,
		"queries/a.sql":   "-- name: RemoveDoc :exec\nDELETE FROM docs WHERE id = $1;\n",
		"queries/b.sql":   "-- name: CountDocs :one\nSELECT count(*) FROM docs;\n",
		"queries/c.sql.x": "not a queries file",
	})
	code, _, stderr := runIn(t, dir, "-sqlc", "sqlc.yaml", "-no-version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fenced := readFile(t, filepath.Join(dir, "db", "fenced", "fenced.go"))
	if !strings.Contains(fenced, "func (f *Fenced) RemoveDoc(ctx context.Context, token Token, arg RemoveDocParams) error") {
		t.Errorf("fenced.go has no fenced RemoveDoc")
	}
	// b.sql writes nothing: its query is sqlc's already, so no copy of it.
	if _, err := os.Stat(filepath.Join(dir, "db", "fenced", "b.fenced.sql.go")); !os.IsNotExist(err) {
		t.Errorf("the fenced package repeats a query that writes no fenced table (%v)", err)
	}
	if sqlcGo := readFile(t, filepath.Join(dir, "db", "fenced", "a.fenced.sql.go")); !strings.Contains(sqlcGo, "func (q *Queries) fencedRemoveDoc(") {
		t.Errorf("a.fenced.sql.go lacks the fenced query")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

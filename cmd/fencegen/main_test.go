package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles creates files (name -> contents) in a new temporary directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs fencegen with dir as the working directory.
func runIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestBadInput checks that bad input exits 1 with path:line:col naming the
// user's file, and that nothing is written.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		want  string
	}{
		{
			name:  "syntax error",
			files: map[string]string{"db/schema.sql": "CREATE TABLE docs (\n  id bigint PRIMARY KEY,\n  body text NOT NULL,,\n  fence bigint\n);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "db/schema.sql", "-out", "out"},
			want:  "db/schema.sql:3:22: syntax error at or near \",\"\n",
		},
		{
			name:  "unknown type",
			files: map[string]string{"schema.sql": "CREATE TABLE docs (\n  id bigint PRIMARY KEY,\n  body txet NOT NULL,\n  fence bigint\n);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out"},
			want:  "schema.sql:3:8: unknown type \"txet\"; declare it (CREATE TYPE, CREATE DOMAIN, CREATE EXTENSION) before this table\n",
		},
		{
			name: "duplicate table across files",
			files: map[string]string{
				"a.sql": "CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);\n",
				"b.sql": "-- later migration\nCREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);\n",
			},
			args: []string{"-engine", "postgresql", "-schema", "a.sql", "-schema", "b.sql", "-out", "out"},
			want: "b.sql:2:14: table docs is already defined at a.sql:1:14; remove or rename one of them\n",
		},
		{
			name:  "text fence",
			files: map[string]string{"schema.sql": "CREATE TABLE docs (\n  id bigint PRIMARY KEY,\n  fence text\n);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out"},
			want:  "schema.sql:3:3: fence column \"fence\" of docs has type text; a fencing token must be stored in an integer column (bigint)\n",
		},
		{
			name:  "text fence mysql",
			files: map[string]string{"schema.sql": "CREATE TABLE docs (\n  id BIGINT PRIMARY KEY,\n  fence VARCHAR(20)\n);\n"},
			args:  []string{"-engine", "mysql", "-schema", "schema.sql", "-out", "out"},
			want:  "schema.sql:3:3: fence column \"fence\" of docs has type varchar; a fencing token must be stored in an integer column (bigint)\n",
		},
		{
			name:  "text fence sqlite",
			files: map[string]string{"schema.sql": "CREATE TABLE docs (\n  id INTEGER PRIMARY KEY,\n  fence TEXT\n);\n"},
			args:  []string{"-engine", "sqlite", "-schema", "schema.sql", "-out", "out"},
			want:  "schema.sql:3:3: fence column \"fence\" of docs has type text; a fencing token must be stored in an integer column (bigint)\n",
		},
		{
			name:  "missing configured fence column",
			files: map[string]string{"schema.sql": "CREATE TABLE jobs (id bigint PRIMARY KEY, fence bigint);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out", "-table-fence", "jobs=lease_epoch"},
			want:  "schema.sql:1:14: jobs has no column \"lease_epoch\", configured as its fence column; add the column or fix the configuration\n",
		},
		{
			name:  "no fenced table",
			files: map[string]string{"schema.sql": "CREATE TABLE jobs (id bigint PRIMARY KEY, epoch bigint);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out"},
			want:  "fencegen: no table has a fence column \"fence\"; add one (bigint) or name the column with -fence\n",
		},
		{
			name: "every fenced table unkeyed",
			files: map[string]string{
				"schema.sql": "CREATE TABLE events (id bigint, fence bigint);\n\nCREATE TABLE audit (\n  id bigint UNIQUE,\n  epoch bigint\n);\nCREATE TABLE plain (id bigint PRIMARY KEY);\n",
			},
			args: []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out", "-table-fence", "audit=epoch"},
			want: "schema.sql:1:14: events has fence column \"fence\" but no primary key or unique constraint of NOT NULL columns to name its rows; it is not fenced, and no other table is: add a primary key or a unique constraint of NOT NULL columns\n" +
				"schema.sql:3:14: audit has fence column \"epoch\" but no primary key or unique constraint of NOT NULL columns to name its rows; it is not fenced, and no other table is: add a primary key or a unique constraint of NOT NULL columns\n",
		},
		{
			// Refused after sqlc ran: its temporary directory must go too.
			name:  "declaration collision after sqlc",
			files: map[string]string{"schema.sql": "CREATE TYPE token AS ENUM ('a');\nCREATE TABLE docs (id bigint PRIMARY KEY, t token, fence bigint);\n"},
			args:  []string{"-engine", "postgresql", "-schema", "schema.sql", "-out", "out"},
			want:  "fencegen: the schema gives the generated package two declarations of Token (in fenced.go and models.go), which would not compile; rename the table, column or type it comes from\n",
		},
		{
			name:  "unknown config key",
			files: map[string]string{"schema.sql": "CREATE TABLE jobs (id bigint PRIMARY KEY, fence bigint);\n", "fencegen.yaml": "engine: postgresql\nschema: [schema.sql]\nout: out\nfense: epoch\n"},
			args:  []string{"-config", "fencegen.yaml"},
			want:  "fencegen.yaml:4:1: unknown key \"fense\"; the keys are engine, schema, queries, out, package, driver, fence, fences, compare, sequence, leases\n",
		},
		{
			name:  "rejected by sqlc only",
			files: map[string]string{"db/schema.sql": "CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);\n\nCREATE VIEW v AS SELECT nope FROM docs;\n"},
			args:  []string{"-engine", "postgresql", "-schema", "db/schema.sql", "-out", "out"},
			want:  "db/schema.sql:3:25: sqlc: column \"nope\" does not exist\n",
		},
		{
			name:  "pgx with mysql",
			files: map[string]string{"schema.sql": "CREATE TABLE jobs (id bigint PRIMARY KEY, fence bigint);\n"},
			args:  []string{"-engine", "mysql", "-driver", "pgx/v5", "-schema", "schema.sql", "-out", "out"},
			want:  "fencegen: driver pgx/v5 works only with postgresql; use database/sql for mysql\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp) // sqlc's working directory goes here
			code, _, stderr := runIn(t, dir, tt.args...)
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("%s left behind after an error: %v", tmp, left)
			}
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if stderr != tt.want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
				t.Errorf("output directory exists after an error (%v)", err)
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// assertNoTempFiles fails if fencegen left temporary files in dir.
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(info.Name(), ".fencegen-") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
}

// TestGenerateIntoExistingPackage runs the //go:generate form: output into
// the package directory that holds the user's own code, twice.
func TestGenerateIntoExistingPackage(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"schema.sql": "CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);\n",
		"db/user.go": "package db\n\n//go:generate fencegen -engine postgresql -schema ../schema.sql -out . -package db\n",
	})
	for i := 0; i < 2; i++ {
		code, _, stderr := runIn(t, filepath.Join(dir, "db"), "-engine", "postgresql", "-schema", "../schema.sql", "-out", ".", "-package", "db", "-no-version")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "db"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "db.go fenced.go fenced.sql fenced.sql.go models.go user.go"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "db", "fenced.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "// Code generated by fencegen. DO NOT EDIT.\n// source: ../schema.sql\n") {
		t.Errorf("fenced.go header:\n%.200s", data)
	}
}

// TestSQLCMode reads an existing sqlc.yaml and writes OUT/fenced.
func TestSQLCMode(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"sqlc.yaml":               "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: migrations\n    queries: queries.sql\n    gen:\n      go:\n        package: db\n        out: internal/db\n        sql_package: pgx/v5\n",
		"migrations/001.sql":      "CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL);\n",
		"migrations/002.sql":      "ALTER TABLE docs ADD COLUMN fence bigint;\n",
		"queries.sql":             "-- name: GetDoc :one\nSELECT * FROM docs WHERE id = $1;\n",
		"internal/db/keep.go.txt": "user file",
	})
	code, _, stderr := runIn(t, dir, "-sqlc", "sqlc.yaml", "-no-version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "internal", "db", "fenced", "fenced.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package fenced", "func (f *Fenced) UpdateDoc(ctx context.Context, token Token, arg UpdateDocParams) error", "source: migrations/001.sql, migrations/002.sql"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("fenced.go lacks %q", want)
		}
	}
}

// TestHelpDocumentsEveryFlag checks -h mentions each flag.
func TestHelpDocumentsEveryFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-h"}, &out, &errb); code != 0 {
		t.Fatalf("-h exit %d", code)
	}
	for _, flag := range []string{"-config", "-sqlc", "-engine", "-schema", "-queries", "-out", "-package", "-driver", "-fence", "-table-fence", "-compare", "-sequence", "-leases", "-no-version", "-version", "//go:generate"} {
		if !strings.Contains(errb.String(), flag) {
			t.Errorf("-h output lacks %s", flag)
		}
	}
}

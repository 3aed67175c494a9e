package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the sqlc plugin's golden package")

// TestMain lets the test binary stand in for fencegen when sqlc runs it as
// its process plugin (and, through gen's FENCEGEN_RUN_SQLC, as sqlc).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == pluginMethod {
		os.Exit(runPlugin(os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// pluginGolden holds sqlc.yaml declaring fencegen as a process plugin, its
// schema and queries, and the package one `sqlc generate` writes there
// (sqlc's own files and fencegen's); the e2e module runs that package
// against PostgreSQL, and the golden module's vet compiles it.
// The -sqlite and -mysql cases are the same over database/sql.
const (
	pluginGolden       = "../../testdata/fencegen/golden/sqlc-plugin"
	pluginGoldenSQLite = "../../testdata/fencegen/golden/sqlc-plugin-sqlite"
	pluginGoldenMySQL  = "../../testdata/fencegen/golden/sqlc-plugin-mysql"
	pluginGoldenLeases = "../../testdata/fencegen/golden/sqlc-plugin-leases" // leases: true, out leasedb
)

// sqlcGenerate runs the real sqlc (the one fencegen links) in dir, with
// `fencegen` on PATH being this test binary. It returns sqlc's output.
func sqlcGenerate(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "fencegen")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"generate"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FENCEGEN_RUN_SQLC=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// copyInputs copies the golden case's inputs into a new directory,
// editing sqlc.yaml with edit.
func copyInputs(t *testing.T, edit func(string) string) string {
	return copyCase(t, pluginGolden, edit)
}

func copyCase(t *testing.T, golden string, edit func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"sqlc.yaml", "schema.sql", "queries.sql"} {
		data, err := os.ReadFile(filepath.Join(golden, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "sqlc.yaml" {
			data = []byte(edit(string(data)))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSQLCPlugin runs `sqlc generate` with fencegen declared as a process
// plugin, in both of sqlc's request formats, and compares the package with
// the golden one.
func TestSQLCPlugin(t *testing.T) {
	for _, golden := range []string{pluginGolden, pluginGoldenSQLite, pluginGoldenMySQL, pluginGoldenLeases} {
		out := "plugindb"
		if golden == pluginGoldenLeases {
			out = "leasedb"
		}
		for _, format := range []string{"protobuf", "json"} {
			t.Run(filepath.Base(golden)+"/"+format, func(t *testing.T) {
				dir := copyCase(t, golden, func(s string) string {
					return strings.Replace(s, "cmd: fencegen\n", "cmd: fencegen\n      format: "+format+"\n", 1)
				})
				if out, err := sqlcGenerate(t, dir); err != nil {
					t.Fatalf("sqlc generate: %v\n%s", err, out)
				}
				got := readTree(t, filepath.Join(dir, out))
				for _, name := range []string{"db.go", "models.go", "queries.sql.go", "fenced.go", "fenced.sql.go", "queries.fenced.sql.go"} {
					if got[name] == nil {
						t.Errorf("sqlc generate wrote no %s", name)
					}
				}
				if bytes.Contains(got["fenced.go"], []byte("\ntype Queries ")) || bytes.Contains(got["fenced.sql.go"], []byte("*Queries)")) {
					t.Errorf("fencegen's files declare sqlc's Queries or its methods")
				}
				want := filepath.Join(golden, out)
				if *update && format == "protobuf" {
					os.RemoveAll(want)
					for name, data := range got {
						if err := writeFile(filepath.Join(want, name), data); err != nil {
							t.Fatal(err)
						}
					}
				}
				wantFiles := readTree(t, want)
				for name, data := range got {
					if !bytes.Equal(data, wantFiles[name]) {
						t.Errorf("%s differs from %s (run go test ./cmd/fencegen -run TestSQLCPlugin -update)", name, filepath.Join(want, name))
					}
				}
				for name := range wantFiles {
					if got[name] == nil {
						t.Errorf("sqlc generate wrote no %s", name)
					}
				}
			})
		}
	}
}

// TestSQLCPluginErrors checks that sqlc shows fencegen's message: an unknown
// option, a schema error at the user's file:line:col, an option that differs
// from gen: go:'s, a warning not accepted in sqlc.yaml, and schema paths
// read from a directory other than sqlc.yaml's.
func TestSQLCPluginErrors(t *testing.T) {
	t.Run("unknown option", func(t *testing.T) {
		dir := copyInputs(t, func(s string) string {
			return strings.Replace(s, "omit_fencegen_version: true", "omit_fencegen_versoin: true", 1)
		})
		out, err := sqlcGenerate(t, dir)
		if err == nil || !strings.Contains(out, `fencegen's options in sqlc.yaml: json: unknown field "omit_fencegen_versoin"`) {
			t.Errorf("sqlc generate: %v\n%s", err, out)
		}
	})
	t.Run("model named like fencegen's API", func(t *testing.T) {
		dir := copyInputs(t, func(s string) string { return s })
		f, err := os.OpenFile(filepath.Join(dir, "schema.sql"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\nCREATE TABLE tokens (id bigint PRIMARY KEY, fence bigint);\n")
		f.Close()
		out, err := sqlcGenerate(t, dir)
		want := "schema.sql:31:14: table tokens: sqlc names a model Token, which fencegen declares in the same package"
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("sqlc generate: %v\n%s\nwant %q", err, out, want)
		}
	})
	for _, c := range []struct{ name, old, new, want string }{
		{"sql_package differs from gen.go's", "omit_fencegen_version: true", "omit_fencegen_version: true\n          sql_package: database/sql",
			`sqlc.yaml: fencegen's option sql_package is "database/sql" but gen: go: (out plugindb) has "pgx/v5"; fencegen's code shares sqlc's Go package`},
		{"package differs from gen.go's", "omit_fencegen_version: true", "omit_fencegen_version: true\n          package: db",
			`sqlc.yaml: fencegen's option package is "db" but gen: go: (out plugindb) has "plugindb"`},
		{"out differs from gen.go's", "        out: plugindb\n        options:", "        out: fenced\n        options:",
			"sqlc.yaml: fencegen writes into fenced, but the sql entry has no gen: go: block with out: fenced"},
		{"warning not accepted", "            events: tokens come from our own sequence, far below 2^31", "            {}",
			`schema.sql:28:3: fence column "fence" of events has type int4, narrower than 64 bits`},
		{"warning accepted without a reason", "events: tokens come from our own sequence, far below 2^31", `events: " "`,
			"accept_warnings in sqlc.yaml: events needs a reason"},
		{"acceptance of no warning", "events: tokens come from our own sequence, far below 2^31", "events: narrow\n            docs: keyed",
			"accept_warnings in sqlc.yaml names docs, which has no warning; remove it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyInputs(t, func(s string) string {
				if !strings.Contains(s, c.old) {
					t.Fatalf("sqlc.yaml has no %q", c.old)
				}
				return strings.Replace(s, c.old, c.new, 1)
			})
			out, err := sqlcGenerate(t, dir)
			if err == nil || !strings.Contains(out, c.want) {
				t.Errorf("sqlc generate: %v\n%s\nwant %q", err, out, c.want)
			}
			if c.name == "warning not accepted" && !strings.Contains(out, "accept_warnings: {events:") {
				t.Errorf("the message does not say how to accept the warning:\n%s", out)
			}
		})
	}
	t.Run("run from another directory", func(t *testing.T) {
		dir := copyInputs(t, func(s string) string { return s })
		out, err := sqlcGenerate(t, filepath.Dir(dir), "-f", filepath.Join(filepath.Base(dir), "sqlc.yaml"))
		if err == nil || !strings.Contains(out, "run sqlc generate from the directory of sqlc.yaml") {
			t.Errorf("sqlc generate: %v\n%s", err, out)
		}
	})
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

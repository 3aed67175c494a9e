package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// adversarialTables are table names whose sqlc models clash with the
// generated package's own declarations, and column names that shadow the
// generated methods' parameters and locals.
var adversarialTables = []string{
	"tokens", "fenced", "stale_errors", "not_found_errors", "token_range_errors",
	"err_stales", "new", "queries", "dbtx", "ops", "settles", "fence_tokens", "fence_token_rows",
}

func adversarialSchema(engine Engine) string {
	idType, textType := "bigint", "text"
	if engine == MySQL {
		textType = "VARCHAR(64)"
	}
	var b strings.Builder
	for _, name := range adversarialTables {
		b.WriteString("CREATE TABLE " + name + " (id " + idType + " NOT NULL PRIMARY KEY, ctx " + textType + ", token " + idType +
			", arg " + textType + ", err " + textType + ", n " + idType + ", f " + idType + ", q " + textType + ", res " + idType +
			", key_ " + idType + ", fence " + idType + ");\n")
	}
	return b.String()
}

// adversarialQueries return and upsert whole rows of the clashing tables:
// RETURNING * gives sqlc's model, which must carry its new name there too.
var adversarialQueries = map[Engine]string{
	PostgreSQL: "-- name: ClaimToken :one\nUPDATE tokens SET arg = $2 WHERE id = $1 RETURNING *;\n\n" +
		"-- name: ClaimFenced :many\nUPDATE fenced SET arg = $1 RETURNING *;\n\n" +
		"-- name: SaveToken :exec\nINSERT INTO tokens (id, arg) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET arg = excluded.arg WHERE tokens.arg <> excluded.arg;\n",
	SQLite: "-- name: ClaimToken :one\nUPDATE tokens SET arg = ? WHERE id = ? RETURNING *;\n\n" +
		"-- name: ClaimFenced :many\nUPDATE fenced SET arg = ? RETURNING *;\n\n" +
		"-- name: SaveToken :exec\nINSERT INTO tokens (id, arg) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET arg = excluded.arg WHERE tokens.arg <> excluded.arg;\n",
	MySQL: "-- name: SaveToken :exec\nINSERT INTO tokens (id, arg) VALUES (?, ?) ON DUPLICATE KEY UPDATE arg = VALUES(arg);\n\n" +
		"-- name: SaveTokens :execrows\nINSERT INTO tokens (id, arg) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE arg = VALUES(arg);\n",
}

// TestAdversarialNamesCompile generates from tables named after the
// package's own declarations on every engine and builds the result: the
// generated code must compile.
func TestAdversarialNamesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	mod := t.TempDir()
	goMod, err := os.ReadFile(filepath.Join(goldenDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile(filepath.Join(goldenDir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	goMod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(goMod, []byte("module adversarial"))
	writeTestFile(t, filepath.Join(mod, "go.mod"), goMod)
	writeTestFile(t, filepath.Join(mod, "go.sum"), goSum)
	for _, c := range []struct {
		engine Engine
		driver Driver
	}{{PostgreSQL, DriverPgx}, {PostgreSQL, DriverSQL}, {MySQL, DriverSQL}, {SQLite, DriverSQL}} {
		pkg := strings.NewReplacer("postgresql", "pg", "/", "", ".", "").Replace(string(c.engine) + string(c.driver))
		res, err := Generate(Options{Engine: c.engine, Driver: c.driver, Package: pkg, Sequence: c.engine == PostgreSQL, Leases: c.engine == PostgreSQL,
			Schemas: []Source{{Path: "adversarial.sql", Data: []byte(adversarialSchema(c.engine))}},
			Queries: []Source{{Path: "queries.sql", Data: []byte(adversarialQueries[c.engine])}}})
		if err != nil {
			t.Fatalf("%s %s: %v", c.engine, c.driver, err)
		}
		for name, data := range res.Files {
			writeTestFile(t, filepath.Join(mod, pkg, name), data)
		}
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "vet", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated code does not compile: %v\n%s", err, out)
	}
}

// TestAdversarialNamesRefused covers names fencegen cannot make compile
// without renaming the user's own API: it refuses them at generation time,
// naming the cause.
func TestAdversarialNamesRefused(t *testing.T) {
	for _, c := range []struct {
		name, schema, want string
	}{
		{"enum named token", "CREATE TYPE token AS ENUM ('a');\nCREATE TABLE docs (id bigint PRIMARY KEY, t token, fence bigint);\n",
			"two declarations of Token"},
		{"column named like the token parameter", "CREATE TABLE docs (\n  id bigint PRIMARY KEY,\n  fencegen_token bigint,\n  fence bigint\n);\n",
			`s.sql:3:3: column "fencegen_token" of docs has the name fencegen gives the token parameter`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Generate(Options{Engine: PostgreSQL, Package: "db", Schemas: []Source{{Path: "s.sql", Data: []byte(c.schema)}}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func writeTestFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

package main_test

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// schemaRepo is a repository whose schema lives in schema/, beside the Go
// module in service/ and embedded by no package: v1 creates the tables,
// v2 (another directory) drops one of their unique keys. Under an
// advisory lock the service inserts one row into each table, each INSERT's
// error returned:
//   - rollups: PRIMARY KEY (day, shard), supplied whole: a stale holder's
//     duplicate fails, so the insert is a create-if-absent;
//   - tallies: its UNIQUE index is dropped by v2, so a second row can be
//     added: reported;
//   - visits: a plain (non-unique) index on the same columns: reported.
var schemaRepo = map[string]string{
	"schema/v1/app.sql": `CREATE TABLE rollups (
    day   date     NOT NULL,
    shard smallint NOT NULL,
    total bigint   NOT NULL DEFAULT 0,
    PRIMARY KEY (day, shard)
);

CREATE TABLE tallies (
    day   date     NOT NULL,
    shard smallint NOT NULL,
    n     integer  NOT NULL
);
CREATE UNIQUE INDEX tallies_day_shard ON tallies (day, shard);

CREATE TABLE visits (
    day   date     NOT NULL,
    shard smallint NOT NULL,
    page  text     NOT NULL
);
CREATE INDEX visits_day_shard ON visits (day, shard);
`,
	"schema/v2/app.sql": "-- Tallies are kept per request from now on.\nDROP INDEX tallies_day_shard;\n",
	"service/go.mod":    "module example.com/service\n\ngo 1.26\n",
	"service/rollup.go": `package service

import (
	"context"
	"database/sql"
	"time"
)

func rollup(ctx context.Context, db *sql.DB, conn *sql.Conn, day time.Time, shard int16, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO rollups (day, shard, total) VALUES ($1, $2, $3)", day, shard, total) // finding: rollups
	return err
}

func tally(ctx context.Context, db *sql.DB, conn *sql.Conn, day time.Time, shard int16, n int32) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO tallies (day, shard, n) VALUES ($1, $2, $3)", day, shard, n) // finding: tallies
	return err
}

func visit(ctx context.Context, db *sql.DB, conn *sql.Conn, day time.Time, shard int16) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO visits (day, shard, page) VALUES ($1, $2, 'index')", day, shard) // finding: visits
	return err
}
`,
}

// TestSchemaFiles checks that a standalone run reads the unique keys of
// SQL files the code does not embed: found in the git checkout the module
// sits in, or named with -schema; that a key a later migration in another
// directory drops is not trusted, nor a plain index; and that without the
// files the create-if-absent is reported.
func TestSchemaFiles(t *testing.T) {
	withGit := writeFiles(t, t.TempDir(), schemaRepo)
	if err := os.Mkdir(filepath.Join(withGit, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	archive := writeFiles(t, t.TempDir(), schemaRepo) // a git archive: no .git
	rollup := filepath.Join(withGit, "service", "rollup.go")
	at := func(what string) finding {
		return finding{Analyzer: "unfencedwrite", File: "rollup.go", Line: lineOf(t, rollup, "// finding: "+what)}
	}
	tests := []struct {
		name string
		dir  string
		args []string
		want []finding
	}{
		{"found in the checkout", withGit, nil, []finding{at("tallies"), at("visits")}},
		{"not looked for", withGit, []string{"-findschema=false"}, []finding{at("rollups"), at("tallies"), at("visits")}},
		{"archive: only the module is searched", archive, nil, []finding{at("rollups"), at("tallies"), at("visits")}},
		{"archive, named directory", archive, []string{"-schema", "../schema"}, []finding{at("tallies"), at("visits")}},
		{"archive, named files", archive, []string{"-schema=../schema/v1/app.sql,../schema/v2/app.sql"}, []finding{at("tallies"), at("visits")}},
		// v1 alone: nothing says the tallies key was dropped.
		{"archive, the first migration alone", archive, []string{"-schema=../schema/v1/app.sql"}, []finding{at("visits")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"-json"}, tt.args...), "./...")
			got := run(t, filepath.Join(tt.dir, "service"), fencelintBin, args...)
			findings, err := parseJSON(got.stdout)
			if err != nil || got.code != 0 {
				t.Fatalf("fencelint %q: exit %d, %v\nstdout:\n%s\nstderr:\n%s", args, got.code, err, got.stdout, got.stderr)
			}
			var keys []finding
			for _, f := range findings {
				keys = append(keys, f.key())
			}
			slices.SortFunc(keys, func(x, y finding) int { return cmp.Compare(x.Line, y.Line) })
			if !slices.Equal(keys, tt.want) {
				t.Errorf("findings %v, want %v", findings, tt.want)
			}
		})
	}
}

// TestSchemaFileErrors checks that a -schema file fencelint cannot read
// is an error naming file:line:col, a -schema path that does not exist is
// a command-line error, and a discovered file it cannot read is read as
// far as it goes, noted with -v, and fails nothing.
func TestSchemaFileErrors(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/broken\n\ngo 1.26\n",
		"db/bad.sql":   "CREATE TABLE jobs (\n    id integer PRIMARY KEY\n);\n\nALTER TABLE jobs PARTITION BY HASH (id);\n",
		"db/worse.sql": "INSERT INTO jobs VALUES ('unterminated);\n",
		"jobs.go":      "package broken\n",
	}
	dir := writeFiles(t, t.TempDir(), files)
	tests := []struct {
		name       string
		args       []string
		code       int
		wantStderr []string
	}{
		{"named file", []string{"-schema", "db/bad.sql"}, 1, []string{"fencelint: -schema: db/bad.sql:5:1: an ALTER TABLE action cannot be read"}},
		{"missing path", []string{"-schema", "db/none.sql"}, 2, []string{"fencelint: -schema db/none.sql:", "no such file"}},
		{"discovered, quiet", nil, 0, nil},
		{"discovered, verbose", []string{"-v"}, 0, []string{"bad.sql:5:1: an ALTER TABLE action cannot be read (read as far as it goes)", "worse.sql:1:26: unterminated '-quoted text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, dir, fencelintBin, append(tt.args, "./...")...)
			if got.code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s", got.code, tt.code, got.stderr)
			}
			checkContains(t, "stderr", got.stderr, tt.wantStderr)
			if tt.wantStderr == nil && strings.Contains(got.stderr, ".sql") {
				t.Errorf("stderr names bad.sql without -v:\n%s", got.stderr)
			}
		})
	}
}

// embedRepo is a module whose migrations only its root package embeds;
// the store that inserts into the tables is in a package that does not
// import it, and the locked region calls the store through an interface,
// whose implementations' facts come from the first pass:
//   - rollups: PRIMARY KEY (day, shard), supplied whole: a create-if-absent;
//   - visits: no unique key: reported.
var embedRepo = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.26\n",
	"app.go": "package app\n\nimport \"embed\"\n\n//go:embed sql/*.sql\nvar Migrations embed.FS\n",
	"sql/1_init.sql": `CREATE TABLE rollups (
    day   date     NOT NULL,
    shard smallint NOT NULL,
    total bigint   NOT NULL DEFAULT 0,
    PRIMARY KEY (day, shard)
);
CREATE TABLE visits (
    day   date     NOT NULL,
    shard smallint NOT NULL
);
`,
	"store/store.go": `package store

import (
	"context"
	"database/sql"
	"time"
)

type Store struct{ DB *sql.DB }

func (s Store) Rollup(ctx context.Context, day time.Time, shard int16, total int64) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO rollups (day, shard, total) VALUES ($1, $2, $3)", day, shard, total)
	return err
}

func (s Store) Visit(ctx context.Context, day time.Time, shard int16) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO visits (day, shard) VALUES ($1, $2)", day, shard)
	return err
}
`,
	"svc/svc.go": `package svc

import (
	"context"
	"database/sql"
	"time"
)

type Store interface {
	Rollup(ctx context.Context, day time.Time, shard int16, total int64) error
	Visit(ctx context.Context, day time.Time, shard int16) error
}

func Rollup(ctx context.Context, conn *sql.Conn, s Store, day time.Time, shard int16, total int64) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		return err
	}
	return s.Rollup(ctx, day, shard, total) // finding: rollups
}

func Visit(ctx context.Context, conn *sql.Conn, s Store, day time.Time, shard int16) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", 7); err != nil {
		return err
	}
	return s.Visit(ctx, day, shard) // finding: visits
}
`,
	"cmd/appd/main.go": `package main

import (
	"context"
	"database/sql"
	"time"

	"example.com/app"
	"example.com/app/store"
	"example.com/app/svc"
)

var _ = app.Migrations

func main() {
	var db *sql.DB
	var conn *sql.Conn
	svc.Rollup(context.Background(), conn, store.Store{DB: db}, time.Now(), 1, 2)
	svc.Visit(context.Background(), conn, store.Store{DB: db}, time.Now(), 1)
}
`,
}

// TestEmbeddedSchemaThroughInterfaces checks that a schema one package
// embeds decides an INSERT another package makes, also where the call
// goes through an interface (whose facts the first pass learns).
func TestEmbeddedSchemaThroughInterfaces(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), embedRepo)
	svc := filepath.Join(dir, "svc", "svc.go")
	got := run(t, dir, fencelintBin, "-json", "./...")
	findings, err := parseJSON(got.stdout)
	if err != nil || got.code != 0 {
		t.Fatalf("fencelint: exit %d, %v\nstdout:\n%s\nstderr:\n%s", got.code, err, got.stdout, got.stderr)
	}
	var keys []finding
	for _, f := range findings {
		keys = append(keys, f.key())
	}
	want := []finding{{Analyzer: "unfencedwrite", File: "svc.go", Line: lineOf(t, svc, "// finding: visits")}}
	if !slices.Equal(keys, want) {
		t.Errorf("findings %v, want %v", findings, want)
	}
}

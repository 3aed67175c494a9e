package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	sqlc "github.com/sqlc-dev/sqlc/pkg/cli"
)

// Driver is the Go database package the generated code uses.
type Driver string

// The drivers sqlc generates for.
const (
	DriverPgx Driver = "pgx/v5"
	DriverSQL Driver = "database/sql"
)

// sqlcChildEnv, when set to "1", makes a program that links this package
// run sqlc's command line instead of its own main: the sqlc fencegen was
// built and tested with, for tests, benchmarks and the sqlc sweep that
// compare with it or need it as the host of fencegen's plugin.
const sqlcChildEnv = "FENCEGEN_RUN_SQLC"

func init() {
	if os.Getenv(sqlcChildEnv) == "1" {
		os.Exit(sqlc.Run(os.Args[1:]))
	}
}

// sqlcJob is one sqlc run.
type sqlcJob struct {
	Engine    Engine
	Driver    Driver
	Package   string
	Schemas   []Source       // the user's files
	Internal  []Source       // fencegen's token-source schemas, applied after Schemas
	Queries   string         // fenced.sql
	Tables    []*fencedTable // the tables Queries fences
	NoVersion bool
	Plugin    *SQLCPlugin // the Go options shared with sqlc's own package, or nil

	// UserQueries are the users' queries files as fencegen rewrote them,
	// named by base name (sqlc names each Go file after its queries file),
	// and PlaceUser places sqlc's messages about them in the user's files.
	UserQueries []Source
	PlaceUser   func(path string, line, col int, msg string) (Diagnostic, bool)
}

// sqlcConfig is the subset of sqlc's version 2 configuration fencegen writes.
type sqlcConfig struct {
	Version string    `json:"version"`
	SQL     []sqlcSQL `json:"sql"`
}

type sqlcSQL struct {
	Engine  Engine   `json:"engine"`
	Schema  []string `json:"schema"`
	Queries []string `json:"queries"`
	Gen     struct {
		Go sqlcGo `json:"go"`
	} `json:"gen"`
}

type sqlcGo struct {
	Package             string            `json:"package"`
	Out                 string            `json:"out"`
	SQLPackage          string            `json:"sql_package,omitempty"`
	QueryParameterLimit int32             `json:"query_parameter_limit"`
	OmitSQLCVersion     bool              `json:"omit_sqlc_version,omitempty"`
	Rename              map[string]string `json:"rename,omitempty"`
	Overrides           json.RawMessage   `json:"overrides,omitempty"`
}

// The layout of sqlc's working directory. Each schema is copied to a
// numbered .sql file (sqlc reads only files named *.sql, and skips names
// that look like down migrations), so a message about copy i is about the
// user's Schemas[i].
const (
	schemaDir   = "schema"
	sqlcOutDir  = "out"
	queriesFile = "fenced.sql" // sqlc names its output fenced.sql.go after it
	configFile  = "sqlc.json"
)

// run executes `sqlc generate`, in this process, on dir (a new directory
// that the caller removes) and returns the Go files it wrote, by base name.
// sqlc prints its messages to the process's stderr and, when it rejects its
// input, usually ends the process: run is for the child process of
// Generate (child.go), whose parent reads those messages and places them in
// the user's files (explain). A failure sqlc returns from is an
// *sqlcExit.
func (j sqlcJob) run(dir string) (map[string][]byte, error) {
	cfg := sqlcSQL{Engine: j.Engine, Queries: []string{queriesFile}}
	cfg.Gen.Go = sqlcGo{Package: j.Package, Out: sqlcOutDir, OmitSQLCVersion: j.NoVersion}
	if j.Driver == DriverPgx {
		cfg.Gen.Go.SQLPackage = string(DriverPgx)
	}
	if j.Plugin != nil {
		cfg.Gen.Go.Rename, cfg.Gen.Go.Overrides = j.Plugin.Rename, j.Plugin.Overrides
	}
	for i, src := range append(j.Schemas[:len(j.Schemas):len(j.Schemas)], j.Internal...) {
		rel := schemaCopyPath(i)
		if err := writeFile(filepath.Join(dir, rel), src.Data); err != nil {
			return nil, err
		}
		cfg.Schema = append(cfg.Schema, filepath.ToSlash(rel))
	}
	if err := writeFile(filepath.Join(dir, queriesFile), []byte(j.Queries)); err != nil {
		return nil, err
	}
	for _, q := range j.UserQueries {
		if err := writeFile(filepath.Join(dir, q.Path), q.Data); err != nil {
			return nil, err
		}
		cfg.Queries = append(cfg.Queries, q.Path)
	}
	conf, err := json.MarshalIndent(sqlcConfig{Version: "2", SQL: []sqlcSQL{cfg}}, "", "  ")
	if err != nil {
		return nil, err
	}
	confPath, err := filepath.Abs(filepath.Join(dir, configFile))
	if err != nil {
		return nil, err
	}
	if err := writeFile(confPath, conf); err != nil {
		return nil, err
	}
	if code := sqlc.Run([]string{"generate", "--no-remote", "-f", confPath}); code != 0 {
		return nil, &sqlcExit{code: code}
	}
	return readGoFiles(filepath.Join(dir, sqlcOutDir))
}

// sqlcExit is sqlc's exit code when it failed without ending the process.
type sqlcExit struct{ code int }

func (e *sqlcExit) Error() string { return fmt.Sprintf("sqlc generate exited with status %d", e.code) }

// sqlcFailure is a failed sqlc run: its exit status and what it printed.
type sqlcFailure struct {
	err    error
	output string
}

func (f *sqlcFailure) Error() string {
	msg := strings.TrimSpace(f.output)
	// When the Go code sqlc generated does not parse, sqlc prints all of
	// it before "# package NAME" and its message; only the message helps.
	if i := strings.LastIndex(msg, "# package "); i >= 0 {
		_, msg, _ = strings.Cut(msg[i:], "\n")
		msg = strings.TrimSpace(msg)
	}
	if strings.HasPrefix(msg, "error generating code:") {
		msg += " (in the Go code sqlc generated for fencegen's queries: a fencegen bug; please report it with your schema)"
	}
	return fmt.Sprintf("sqlc generate failed (%v): %s", f.err, msg)
}

// sqlcPosLine matches sqlc's "path:line:col: message" lines.
var sqlcPosLine = regexp.MustCompile(`^(.+):(\d+):(\d+): (.*)$`)

// explain turns a failed run into an *Error whose diagnostics name the
// user's files: a message about a schema copy is placed in the user's
// file (copies are verbatim, so lines and columns agree), and one about
// fencegen's own query is placed at the table the query fences. Output it
// cannot place is returned as it is.
func (j sqlcJob) explain(err error) error {
	var fail *sqlcFailure
	if !errors.As(err, &fail) {
		return err
	}
	var diags []Diagnostic
	placed := map[Pos]bool{} // one message per place: a table's four queries fail alike
	for _, line := range strings.Split(strings.TrimSpace(fail.output), "\n") {
		if strings.HasPrefix(line, "# package ") {
			continue
		}
		m := sqlcPosLine.FindStringSubmatch(line)
		if m == nil {
			return err
		}
		lineNo, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		d, ok := j.placeMessage(filepath.ToSlash(m[1]), lineNo, col, m[4])
		if !ok {
			return err
		}
		if !placed[d.Pos] {
			placed[d.Pos] = true
			diags = append(diags, d)
		}
	}
	if len(diags) == 0 {
		return err
	}
	return &Error{Diagnostics: diags}
}

// placeMessage maps one of sqlc's positioned messages back to the user's
// input.
func (j sqlcJob) placeMessage(path string, line, col int, msg string) (Diagnostic, bool) {
	for i, src := range j.Schemas {
		if path != filepath.ToSlash(schemaCopyPath(i)) {
			continue
		}
		return Diagnostic{Pos: Pos{File: src.Path, Line: line, Col: col}, Message: "sqlc: " + msg}, true
	}
	if j.PlaceUser != nil {
		if d, ok := j.PlaceUser(path, line, col, msg); ok {
			return d, true
		}
	}
	if path != queriesFile {
		return Diagnostic{}, false
	}
	name := queryNameAt(j.Queries, line)
	for _, t := range j.Tables {
		for _, q := range []string{updateQuery(t), upsertQuery(t), deleteQuery(t), fenceQuery(t)} {
			if q == name {
				return Diagnostic{Pos: t.Pos, Message: fmt.Sprintf(
					"sqlc cannot compile fencegen's queries for %s (%s, fenced.sql:%d:%d: %s): fencegen and sqlc read this table differently, a fencegen bug; please report it with the table's definition",
					t.QualifiedName(), name, line, col, msg)}, true
			}
		}
	}
	return Diagnostic{}, false
}

// queryNameAt is the name of the sqlc query at line (1-based) of queries.
// sqlc places an error about a whole statement where its text begins, just
// after the previous semicolon, which is above the statement's "-- name:"
// comment; an error inside a statement is below it.
func queryNameAt(queries string, line int) string {
	lines := strings.Split(queries, "\n")
	for i := max(line-1, 0); i < len(lines); i++ {
		text := strings.TrimSpace(lines[i])
		if rest, ok := strings.CutPrefix(text, "-- name: "); ok {
			name, _, _ := strings.Cut(rest, " ")
			return name
		}
		if text != "" && !strings.HasPrefix(text, "--") {
			break
		}
	}
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(lines[i], "-- name: "); ok {
			name, _, _ := strings.Cut(rest, " ")
			return name
		}
	}
	return ""
}

// schemaCopyPath is where, in sqlc's working directory, Schemas[i] is
// copied.
func schemaCopyPath(i int) string {
	return filepath.Join(schemaDir, fmt.Sprintf("%03d.sql", i))
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func readGoFiles(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading sqlc's output: %w", err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = data
	}
	return out, nil
}

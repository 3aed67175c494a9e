package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// sqlcJob is one in-process sqlc run.
type sqlcJob struct {
	Engine    Engine
	Driver    Driver
	Package   string
	Schemas   []Source // the user's files, then fencegen's token source schemas
	Queries   string   // fenced.sql
	NoVersion bool
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
	Package             string `json:"package"`
	Out                 string `json:"out"`
	SQLPackage          string `json:"sql_package,omitempty"`
	QueryParameterLimit int32  `json:"query_parameter_limit"`
	OmitSQLCVersion     bool   `json:"omit_sqlc_version,omitempty"`
}

// sqlcOutDir is where sqlc writes, inside the temporary directory.
const sqlcOutDir = "out"

// run executes sqlc's generate command in-process on a temporary directory
// and returns the Go files it wrote, by base name. The directory is removed
// before run returns.
//
// sqlc's pkg/cli prints to the process's stderr and calls os.Exit(1) when
// generation fails, so Generate validates the schema itself first and sqlc
// only sees input it accepts. Schema files are copied under their
// user-given relative path so that any message sqlc still prints (relative
// to its configuration file) names the user's file.
func (j sqlcJob) run() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "fencegen-sqlc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	cfg := sqlcSQL{Engine: j.Engine, Queries: []string{"fenced.sql"}}
	cfg.Gen.Go = sqlcGo{Package: j.Package, Out: sqlcOutDir, QueryParameterLimit: 0, OmitSQLCVersion: j.NoVersion}
	if j.Driver == DriverPgx {
		cfg.Gen.Go.SQLPackage = string(DriverPgx)
	}
	for i, src := range j.Schemas {
		rel := schemaCopyPath(i, src.Path)
		if err := writeFile(filepath.Join(dir, rel), src.Data); err != nil {
			return nil, err
		}
		cfg.Schema = append(cfg.Schema, filepath.ToSlash(rel))
	}
	if err := writeFile(filepath.Join(dir, "fenced.sql"), []byte(j.Queries)); err != nil {
		return nil, err
	}
	conf, err := json.MarshalIndent(sqlcConfig{Version: "2", SQL: []sqlcSQL{cfg}}, "", "  ")
	if err != nil {
		return nil, err
	}
	confPath := filepath.Join(dir, "sqlc.json")
	if err := writeFile(confPath, conf); err != nil {
		return nil, err
	}
	if code := sqlc.Run([]string{"generate", "--no-remote", "-f", confPath}); code != 0 {
		return nil, fmt.Errorf("sqlc generate failed (exit %d); its message is above", code)
	}
	return readGoFiles(filepath.Join(dir, sqlcOutDir))
}

// schemaCopyPath keeps a relative, local user path as it is, so sqlc's
// messages name the user's file; other paths get a private directory.
func schemaCopyPath(i int, path string) string {
	if !filepath.IsAbs(path) && filepath.IsLocal(path) && path != "fenced.sql" && path != "sqlc.json" && !strings.HasPrefix(filepath.ToSlash(path), sqlcOutDir+"/") {
		return path
	}
	return filepath.Join(fmt.Sprintf("schema%d", i), filepath.Base(path))
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

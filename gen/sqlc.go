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

// Inside the configuration directory, fencegen's own files live under
// privateDir, apart from the schema copies.
const (
	privateDir  = ".fencegen"
	sqlcOutDir  = privateDir + "/out"
	queriesFile = privateDir + "/fenced.sql" // sqlc names its output fenced.sql.go after it
	configFile  = ".fencegen-sqlc.json"
)

// run executes sqlc's generate command in-process on a temporary directory
// and returns the Go files it wrote, by base name. The directory is removed
// before run returns.
//
// sqlc's pkg/cli prints to the process's stderr and calls os.Exit(1) when
// generation fails, so Generate validates the schema itself first and sqlc
// only sees input it accepts. Should sqlc still object, its message names
// the user's file as the user wrote it: sqlc prints paths relative to its
// configuration file, so each schema is copied to the user's relative path
// from a configuration directory nested deep enough for its "../" steps.
func (j sqlcJob) run() (map[string][]byte, error) {
	tmp, err := os.MkdirTemp("", "fencegen-sqlc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, strings.Repeat("d"+string(filepath.Separator), parentSteps(j.Schemas)))

	cfg := sqlcSQL{Engine: j.Engine, Queries: []string{queriesFile}}
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
	if err := writeFile(filepath.Join(dir, queriesFile), []byte(j.Queries)); err != nil {
		return nil, err
	}
	conf, err := json.MarshalIndent(sqlcConfig{Version: "2", SQL: []sqlcSQL{cfg}}, "", "  ")
	if err != nil {
		return nil, err
	}
	confPath := filepath.Join(dir, configFile)
	if err := writeFile(confPath, conf); err != nil {
		return nil, err
	}
	if code := sqlc.Run([]string{"generate", "--no-remote", "-f", confPath}); code != 0 {
		return nil, fmt.Errorf("sqlc generate failed (exit %d); its message is above", code)
	}
	return readGoFiles(filepath.Join(dir, sqlcOutDir))
}

// parentSteps is the most leading "../" elements of any relative schema path.
func parentSteps(schemas []Source) int {
	most := 0
	for _, src := range schemas {
		if filepath.IsAbs(src.Path) {
			continue
		}
		steps := 0
		for _, elem := range strings.Split(filepath.ToSlash(filepath.Clean(src.Path)), "/") {
			if elem != ".." {
				break
			}
			steps++
		}
		most = max(most, steps)
	}
	return most
}

// schemaCopyPath is where, relative to the configuration directory, a
// schema is copied: the user's own relative path, so sqlc's messages read
// as the user wrote it, unless that path is absolute or clashes with
// fencegen's private files.
func schemaCopyPath(i int, path string) string {
	clean := filepath.ToSlash(filepath.Clean(path))
	if !filepath.IsAbs(path) && !strings.HasPrefix(clean, privateDir) && clean != configFile {
		return filepath.Clean(path)
	}
	return filepath.Join(privateDir, fmt.Sprintf("schema%d", i), filepath.Base(path))
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

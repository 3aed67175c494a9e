package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/fencelint/fencelint/gen"
	"gopkg.in/yaml.v3"
)

// sqlc's request carries fencegen's own options but not those of the
// `gen: go:` block whose package fencegen writes into (sqlc dropped the Go
// settings from plugin.Settings), and the two must agree: fencegen's code
// is compiled with sqlc's models, DBTX and XParams. So fencegen reads them
// from sqlc.yaml, which sqlc runs it beside (see expandPluginPaths).

// sqlcConfigNames are the files sqlc looks for, in its order
// (internal/cmd/generate.go).
var sqlcConfigNames = [...]string{"sqlc.yaml", "sqlc.yml", "sqlc.json"}

// sqlcPluginConfig is the part of sqlc's version 2 configuration that
// finds the Go target fencegen's output shares a package with.
type sqlcPluginConfig struct {
	Overrides struct {
		Go *sqlcGoOverrides `yaml:"go"`
	} `yaml:"overrides"`
	SQL []struct {
		Engine  string    `yaml:"engine"`
		Schema  gen.Paths `yaml:"schema"`
		Queries gen.Paths `yaml:"queries"`
		Gen     struct {
			Go *sqlcGoTarget `yaml:"go"`
		} `yaml:"gen"`
		Codegen []sqlcCodegen `yaml:"codegen"`
	} `yaml:"sql"`
}

// sqlcCodegen is one plugin target of a sql entry.
type sqlcCodegen struct {
	Out    string `yaml:"out"`
	Plugin string `yaml:"plugin"`
}

// sqlcGoOverrides is sqlc's global `overrides: go:`, which sqlc applies to
// every Go target: its overrides first, its renames over the target's.
type sqlcGoOverrides struct {
	Rename    map[string]string `yaml:"rename"`
	Overrides []any             `yaml:"overrides"`
}

// sqlcGoTarget holds the options of a `gen: go:` block that decide the
// names and types fencegen's code shares with sqlc's.
type sqlcGoTarget struct {
	Package             string            `yaml:"package"`
	Out                 string            `yaml:"out"`
	SQLPackage          string            `yaml:"sql_package"`
	QueryParameterLimit *int              `yaml:"query_parameter_limit"`
	Rename              map[string]string `yaml:"rename"`
	Overrides           []any             `yaml:"overrides"`
}

// adoptGoTarget fills opts' package, sql_package, query_parameter_limit,
// rename and overrides from the Go target of the sql entry sqlc runs
// fencegen for, and refuses, naming sqlc.yaml, an option set to something
// else in fencegen's own options. Without a configuration file in the
// working directory that declares this entry (sqlc -f with another name),
// fencegen's options are used as they are.
func adoptGoTarget(req *pluginRequest, opts *pluginOptions) error {
	file, cfg, err := readSQLCConfig()
	if err != nil || cfg == nil {
		return err
	}
	out := filepath.Clean(req.Settings.Codegen.Out)
	for _, s := range cfg.SQL {
		if s.Engine != req.Settings.Engine || !slices.Equal(s.Schema, req.Settings.Schema) || !slices.Equal(s.Queries, req.Settings.Queries) {
			continue
		}
		if !slices.ContainsFunc(s.Codegen, func(c sqlcCodegen) bool {
			return filepath.Clean(c.Out) == out && c.Plugin == req.Settings.Codegen.Plugin
		}) {
			continue
		}
		g := s.Gen.Go
		if g == nil || filepath.Clean(g.Out) != out {
			return fmt.Errorf("%s: fencegen writes into %s, but the sql entry has no gen: go: block with out: %s; fencegen's code uses the models and DBTX of sqlc's Go package, so give the entry one with the same out", file, req.Settings.Codegen.Out, req.Settings.Codegen.Out)
		}
		return opts.adopt(file, g, cfg.Overrides.Go)
	}
	return nil
}

// readSQLCConfig reads the working directory's sqlc configuration, or
// returns a nil one if there is none.
func readSQLCConfig() (string, *sqlcPluginConfig, error) {
	for _, name := range sqlcConfigNames {
		data, err := os.ReadFile(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		var cfg sqlcPluginConfig
		if err := yaml.Unmarshal(data, &cfg); err != nil {
			return "", nil, fmt.Errorf("%s: %w", name, err)
		}
		return name, &cfg, nil
	}
	return "", nil, nil
}

// adopt takes the Go target's options (with sqlc's defaults, and the global
// overrides as sqlc applies them) where fencegen's options leave them out.
func (o *pluginOptions) adopt(file string, g *sqlcGoTarget, global *sqlcGoOverrides) error {
	mismatch := func(option string, own, theirs any) error {
		return fmt.Errorf("%s: fencegen's option %s is %v but gen: go: (out %s) has %v; fencegen's code shares sqlc's Go package and must be generated with the same: drop %s from fencegen's options (fencegen reads gen: go:'s) or make the two equal", file, option, own, g.Out, theirs, option)
	}

	pkg := g.Package
	if pkg == "" {
		pkg = filepath.Base(g.Out) // sqlc's default
	}
	if o.Package != "" && o.Package != pkg {
		return mismatch("package", fmt.Sprintf("%q", o.Package), fmt.Sprintf("%q", pkg))
	}
	o.Package = pkg

	driver := func(s string) string {
		if s == "" {
			return string(gen.DriverSQL) // sqlc's default
		}
		return s
	}
	if o.SQLPackage != "" && driver(o.SQLPackage) != driver(g.SQLPackage) {
		return mismatch("sql_package", fmt.Sprintf("%q", o.SQLPackage), fmt.Sprintf("%q", driver(g.SQLPackage)))
	}
	o.SQLPackage = driver(g.SQLPackage)

	limit := 1 // sqlc's default
	if g.QueryParameterLimit != nil {
		limit = *g.QueryParameterLimit
	}
	if o.QueryParameterLimit != nil && *o.QueryParameterLimit != limit {
		return mismatch("query_parameter_limit", *o.QueryParameterLimit, limit)
	}
	o.QueryParameterLimit = &limit

	rename := maps.Clone(g.Rename)
	overrides := g.Overrides
	if global != nil {
		if len(global.Rename) > 0 && rename == nil {
			rename = map[string]string{}
		}
		maps.Copy(rename, global.Rename)
		overrides = append(slices.Clip(global.Overrides), g.Overrides...)
	}
	if o.Rename != nil && !maps.Equal(o.Rename, rename) {
		return mismatch("rename", o.Rename, rename)
	}
	o.Rename = rename

	theirs, err := json.Marshal(overrides)
	if err != nil {
		return fmt.Errorf("%s: gen: go: overrides: %w", file, err)
	}
	if len(overrides) == 0 {
		theirs = nil
	}
	if len(o.Overrides) > 0 && string(o.Overrides) != "null" {
		if !sameJSON(o.Overrides, theirs) {
			return mismatch("overrides", string(o.Overrides), string(theirs))
		}
	}
	o.Overrides = theirs
	return nil
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

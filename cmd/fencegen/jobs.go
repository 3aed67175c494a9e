package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/gen"
	"gopkg.in/yaml.v3"
)

// job is one package to generate.
type job struct {
	out  string
	opts gen.Options
}

// jobs turns the command line (and the file it names) into generation jobs.
func (f *flags) jobs() ([]job, error) {
	if f.config != "" && f.sqlcConfig != "" {
		return nil, fmt.Errorf("use -config or -sqlc, not both")
	}
	if f.sqlcConfig != "" {
		return f.sqlcJobs()
	}
	cfg := &gen.Config{}
	if f.config != "" {
		data, err := os.ReadFile(f.config)
		if err != nil {
			return nil, err
		}
		if cfg, err = gen.ParseConfig(f.config, data); err != nil {
			return nil, err
		}
	}
	if err := f.apply(cfg); err != nil {
		return nil, err
	}
	j, err := f.job(cfg)
	if err != nil {
		return nil, err
	}
	return []job{j}, nil
}

// job reads the schemas of one configuration.
func (f *flags) job(cfg *gen.Config) (job, error) {
	if cfg.Out == "" {
		return job{}, fmt.Errorf("no output directory: set -out")
	}
	if cfg.Package == "" {
		abs, err := filepath.Abs(cfg.Out)
		if err != nil {
			return job{}, err
		}
		cfg.Package = strings.ReplaceAll(filepath.Base(abs), "-", "_")
	}
	var sources []gen.Source
	for _, path := range cfg.Schema {
		data, err := os.ReadFile(path)
		if err != nil {
			return job{}, fmt.Errorf("reading schema: %w", err)
		}
		sources = append(sources, gen.Source{Path: path, Data: data})
	}
	opts := cfg.Options(sources, f.headerVersion())
	for _, path := range cfg.Queries {
		data, err := os.ReadFile(path)
		if err != nil {
			return job{}, fmt.Errorf("reading queries: %w", err)
		}
		opts.Queries = append(opts.Queries, gen.Source{Path: path, Data: data})
	}
	return job{out: cfg.Out, opts: opts}, nil
}

// sqlcFile is the part of sqlc's version 2 configuration fencegen reads.
type sqlcFile struct {
	Version string `yaml:"version"`
	SQL     []struct {
		Engine  gen.Engine `yaml:"engine"`
		Schema  gen.Paths  `yaml:"schema"`
		Queries gen.Paths  `yaml:"queries"`
		Gen     struct {
			Go *struct {
				Package    string `yaml:"package"`
				Out        string `yaml:"out"`
				SQLPackage string `yaml:"sql_package"`
			} `yaml:"go"`
		} `yaml:"gen"`
	} `yaml:"sql"`
}

// sqlcJobs makes one job per Go target of an existing sqlc.yaml: same
// engine, schemas and driver, output beside sqlc's package in OUT/fenced.
func (f *flags) sqlcJobs() ([]job, error) {
	data, err := os.ReadFile(f.sqlcConfig)
	if err != nil {
		return nil, err
	}
	var sc sqlcFile
	if err := yaml.Unmarshal(data, &sc); err != nil {
		return nil, fmt.Errorf("%s: %w", f.sqlcConfig, err)
	}
	if sc.Version != "2" {
		return nil, fmt.Errorf("%s: version %q; fencegen reads sqlc configuration version 2", f.sqlcConfig, sc.Version)
	}
	dir := filepath.Dir(f.sqlcConfig)
	var jobs []job
	for _, s := range sc.SQL {
		if s.Gen.Go == nil {
			continue
		}
		cfg := &gen.Config{Engine: s.Engine, Driver: gen.Driver(s.Gen.Go.SQLPackage), Out: filepath.Join(dir, s.Gen.Go.Out, "fenced"), Package: "fenced"}
		if cfg.Driver == "" {
			cfg.Driver = gen.DriverSQL
		}
		schemas, err := expandSchemas(dir, s.Schema)
		if err != nil {
			return nil, err
		}
		cfg.Schema = schemas
		if cfg.Queries, err = expandSchemas(dir, s.Queries); err != nil {
			return nil, err
		}
		if err := f.apply(cfg); err != nil {
			return nil, err
		}
		j, err := f.job(cfg)
		if err != nil {
			return nil, err
		}
		j.opts.FencedOnly = true // sqlc's own package has the other queries
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s has no sql entry with gen.go", f.sqlcConfig)
	}
	if f.set["out"] && len(jobs) > 1 {
		return nil, fmt.Errorf("-out names one directory but %s has %d Go targets", f.sqlcConfig, len(jobs))
	}
	return jobs, nil
}

// expandSchemas resolves sqlc schema and queries entries, which may be directories of
// .sql files (read in name order, as sqlc does).
func expandSchemas(dir string, entries []string) ([]string, error) {
	var out []string
	for _, e := range entries {
		path := filepath.Join(dir, e)
		info, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, path)
			continue
		}
		files, err := filepath.Glob(filepath.Join(path, "*.sql"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		out = append(out, files...)
	}
	return out, nil
}

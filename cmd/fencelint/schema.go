package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers/lease"
)

// Unique keys decide whether a stale holder's INSERT can add a second row
// (analyzers/lease/schema.go), and analyzers read only what a package
// embeds: a schema kept in a schema/ directory the Go code never embeds,
// or a dump beside the module, is out of their reach, and go vet's
// per-package cache keys on the package's own files. The standalone
// driver reads such files itself and hands their schema to every
// package's analysis (lease.ReadSchemaFiles): the files -schema names,
// and, unless -findschema=false, every *.sql file under the main modules'
// directories and, when a module sits inside a git checkout, under the
// checkout's root (the nearest directory above holding .git), leaving
// out what a package embeds (read already), vendor, node_modules,
// testdata and directories whose names start with . or _.

// maxSchemaFile is the size above which a discovered .sql file is taken
// for data (a dump of rows) rather than a schema, and not read.
const maxSchemaFile = 8 << 20

// schemaPaths is the value of -schema: comma-separated paths, the flag
// repeatable.
type schemaPaths []string

func (s *schemaPaths) String() string { return strings.Join(*s, ",") }

func (s *schemaPaths) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// A schemaSource is where a run looks for schema files.
type schemaSource struct {
	named    []string // -schema: files must read cleanly, directories are searched
	discover bool     // -findschema
	verbose  bool     // say what was read, and what could not be
}

// errSchemaPath marks an error in the -schema command line (a path that
// does not exist), as opposed to a file that cannot be read as SQL.
var errSchemaPath = errors.New("-schema")

// readSchema finds and reads the schema files of a run over pkgs (the
// loaded packages; requested says which were named) and returns their
// schema, or nil when they define no table. An error names a -schema path
// that does not exist, or a -schema file that cannot be read as SQL, by
// file:line:col.
func readSchema(src schemaSource, pkgs []*packages.Package, requested map[string]bool, stderr io.Writer) (*lease.SchemaFact, error) {
	embedded := make(map[string]bool)
	own := make(map[string]bool) // embedded by a package loaded from source: the program's
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.EmbedFiles {
			embedded[filepath.Clean(f)] = true
			if len(p.Syntax) > 0 {
				own[filepath.Clean(f)] = true
			}
		}
	})
	r := &schemaReader{embedded: embedded, seen: make(map[string]bool), verbose: src.verbose, stderr: stderr}
	for _, name := range src.named {
		if err := r.named(name); err != nil {
			return nil, err
		}
	}
	if src.discover {
		for _, root := range schemaRoots(pkgs, requested) {
			r.walk(root)
		}
	}
	if len(r.files) == 0 && len(own) == 0 {
		return nil, nil
	}
	if src.verbose && len(r.files) > 0 {
		fmt.Fprintf(stderr, "fencelint: schema: %d SQL files the code does not embed\n", len(r.files))
	}
	r.addEmbedded(own)
	if len(r.files) == 0 {
		return nil, nil
	}
	return lease.ReadSchemaFiles(r.files), nil
}

// addEmbedded adds the migrations the program's packages embed (SQL
// files, and Go steps named by a number), so that every package's analysis sees the schema of
// the whole program from the first pass on: a store whose migrations only
// main or the root package embeds (blnk's sql/*.sql) learns its keys in
// the first pass too, whose facts calls through interfaces use. A package
// reads its own embedded files as well; the same definitions merge to the
// same keys.
func (r *schemaReader) addEmbedded(embedded map[string]bool) {
	paths := slices.Sorted(maps.Keys(embedded))
	for _, p := range paths {
		name := filepath.Base(p)
		switch {
		case strings.EqualFold(filepath.Ext(name), ".sql"):
			if info, err := os.Stat(p); err != nil || info.Size() > maxSchemaFile {
				continue
			}
			if data, err := os.ReadFile(p); err == nil {
				r.add(p, string(data))
			}
		case name != "" && name[0] >= '0' && name[0] <= '9':
			r.add(p, "") // a step fencelint cannot read, as the package's own analysis takes it
		}
	}
}

// A schemaReader collects schema files.
type schemaReader struct {
	embedded map[string]bool // files packages embed: their analysis reads them
	seen     map[string]bool
	files    []lease.SchemaFile
	verbose  bool
	stderr   io.Writer
}

// named adds a path -schema names: a file, which must read cleanly, or a
// directory, searched as the module is.
func (r *schemaReader) named(name string) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return fmt.Errorf("%w %s: %v", errSchemaPath, name, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("%w %s: %v", errSchemaPath, name, err)
	}
	if info.IsDir() {
		r.walk(abs)
		return nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return fmt.Errorf("%w %s: %v", errSchemaPath, name, err)
	}
	text := string(data)
	if problems := lease.CheckSchemaFile(text); len(problems) > 0 {
		line, col := lineCol(text, problems[0].Offset)
		return fmt.Errorf("-schema: %s:%d:%d: %s; fencelint reads CREATE TABLE, CREATE UNIQUE INDEX, ALTER TABLE, DROP and RENAME of PostgreSQL, MySQL and SQLite: fix the statement or leave the file out", name, line, col, problems[0].Msg)
	}
	r.add(abs, text)
	return nil
}

// walk adds the .sql files under root that no package embeds, and the
// Go migrations beside them (named by a number, read as steps fencelint
// cannot see into). A file that cannot be read as SQL is read as far as it
// goes, as an embedded one is, and noted with -v.
func (r *schemaReader) walk(root string) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: nothing to learn there
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "vendor" || name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || r.embedded[p] {
			return nil
		}
		switch {
		case strings.EqualFold(filepath.Ext(name), ".sql"):
			if info, err := d.Info(); err != nil || info.Size() > maxSchemaFile {
				r.note("%s: larger than %d MiB, taken for data: not read", p, maxSchemaFile>>20)
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			text := string(data)
			if r.verbose {
				for _, pr := range lease.CheckSchemaFile(text) {
					line, col := lineCol(text, pr.Offset)
					r.note("%s:%d:%d: %s (read as far as it goes)", p, line, col, pr.Msg)
				}
			}
			r.add(p, text)
		case name[0] >= '0' && name[0] <= '9' && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
			r.add(p, "") // a Go migration: its effect cannot be read
		}
		return nil
	})
}

func (r *schemaReader) add(path, text string) {
	if !r.seen[path] {
		r.seen[path] = true
		r.files = append(r.files, lease.SchemaFile{Path: path, Text: text})
	}
}

func (r *schemaReader) note(format string, args ...any) {
	if r.verbose {
		fmt.Fprintf(r.stderr, "fencelint: schema: "+format+"\n", args...)
	}
}

// schemaRoots returns the directories to search for schema files: the
// directories of the requested packages' main modules, each widened to
// the root of the git checkout it sits in (the nearest directory above
// holding .git, a directory or, in a worktree, a file), and none inside
// another.
func schemaRoots(pkgs []*packages.Package, requested map[string]bool) []string {
	var roots []string
	for _, p := range pkgs {
		if !requested[p.PkgPath] || p.Module == nil || !p.Module.Main || p.Module.Dir == "" {
			continue
		}
		dir := filepath.Clean(p.Module.Dir)
		if top := gitRoot(dir); top != "" {
			dir = top
		}
		if !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
	}
	slices.Sort(roots)
	var out []string
	for _, dir := range roots {
		if !slices.ContainsFunc(roots, func(o string) bool { return o != dir && within(o, dir) }) {
			out = append(out, dir)
		}
	}
	return out
}

// gitRoot returns the nearest directory at or above dir that holds .git,
// or "".
func gitRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// within reports whether dir lies inside root (or is it).
func within(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// lineCol returns the 1-based line and column (in bytes) of offset in text.
func lineCol(text string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	line = strings.Count(before, "\n") + 1
	return line, offset - strings.LastIndexByte(before, '\n')
}

package gen

import (
	"fmt"
	"go/format"
	"go/token"
	"sort"
	"strings"
)

// Options are the inputs of one generation.
type Options struct {
	Engine  Engine
	Schemas []Source // in the order the database applies them
	Package string   // Go package name of the output
	Driver  Driver   // default: pgx/v5 for postgresql, database/sql otherwise
	Fence   string   // fence column name; default "fence"
	// Fences overrides the fence column per table, keyed by the table's
	// qualified name ("docs", "app.settings").
	Fences  map[string]string
	Compare Compare // default "<="
	// Sequence and Leases add the PostgreSQL token sources.
	Sequence bool
	Leases   bool
	// Version is written into headers; empty omits the version lines (for
	// stable golden files).
	Version string
}

// Result is the generated package: file name to contents, plus warnings
// about tables left unfenced or fences narrower than 64 bits.
type Result struct {
	Files    map[string][]byte
	Warnings []Diagnostic
}

// FileNames returns the result's file names, sorted.
func (r *Result) FileNames() []string {
	names := make([]string, 0, len(r.Files))
	for name := range r.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Generate parses the schemas, renders fenced.sql, runs sqlc on it and
// renders fenced.go. It returns an *Error for bad input; nothing is returned
// half-done.
func Generate(opts Options) (*Result, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	schema, err := ParseSchema(opts.Engine, opts.Schemas)
	if err != nil {
		return nil, err
	}
	tables, warnings, err := selectFenced(schema, opts.Fence, opts.Fences)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 && !opts.Sequence && !opts.Leases {
		return nil, fmt.Errorf("no table has a fence column %q; add one (bigint) or name the column with -fence", opts.Fence)
	}
	sources := tokenSources{Sequence: opts.Sequence, Leases: opts.Leases}
	queries := renderFencedSQL(opts.Engine, opts.Compare, tables, sources)

	schemas := append([]Source(nil), opts.Schemas...)
	files := map[string][]byte{}
	if sources.Sequence {
		schemas = append(schemas, Source{Path: sequenceSchemaFile, Data: []byte(sequenceSchema)})
		files[sequenceSchemaFile] = []byte(opts.sqlHeader() + sequenceSchema)
	}
	if sources.Leases {
		schemas = append(schemas, Source{Path: leaseSchemaFile, Data: []byte(leaseSchema)})
		files[leaseSchemaFile] = []byte(opts.sqlHeader() + leaseSchema)
	}
	goFiles, err := sqlcJob{Engine: opts.Engine, Driver: opts.Driver, Package: opts.Package, Schemas: schemas, Queries: queries, NoVersion: opts.Version == ""}.run()
	if err != nil {
		return nil, err
	}
	sqlcQueries, err := parseSQLCFile("fenced.sql.go", goFiles["fenced.sql.go"])
	if err != nil {
		return nil, err
	}
	fencedGo, err := renderFencedGo(opts.Package, opts.goHeader(), opts.Engine, opts.Driver, opts.Compare, tables, sources, sqlcQueries)
	if err != nil {
		return nil, err
	}
	if fencedGo, err = format.Source(fencedGo); err != nil {
		return nil, fmt.Errorf("formatting fenced.go: %w", err)
	}
	for name, data := range goFiles {
		files[name] = data
	}
	files["fenced.go"] = fencedGo
	files["fenced.sql"] = []byte(opts.sqlHeader() + queries)
	return &Result{Files: files, Warnings: warnings}, nil
}

// withDefaults fills defaults and rejects impossible combinations.
func (o Options) withDefaults() (Options, error) {
	switch o.Engine {
	case PostgreSQL, MySQL, SQLite:
	default:
		return o, fmt.Errorf("unknown engine %q: use postgresql, mysql or sqlite", o.Engine)
	}
	if len(o.Schemas) == 0 {
		return o, fmt.Errorf("no schema files: name at least one with -schema")
	}
	if o.Package == "" {
		return o, fmt.Errorf("no package name: set -package")
	}
	if !token.IsIdentifier(o.Package) || token.IsKeyword(o.Package) {
		return o, fmt.Errorf("package name %q is not a Go identifier", o.Package)
	}
	if o.Driver == "" {
		o.Driver = DriverSQL
		if o.Engine == PostgreSQL {
			o.Driver = DriverPgx
		}
	}
	switch o.Driver {
	case DriverSQL:
	case DriverPgx:
		if o.Engine != PostgreSQL {
			return o, fmt.Errorf("driver pgx/v5 works only with postgresql; use database/sql for %s", o.Engine)
		}
	default:
		return o, fmt.Errorf("unknown driver %q: use pgx/v5 or database/sql", o.Driver)
	}
	if o.Fence == "" {
		o.Fence = DefaultFence
	}
	switch o.Compare {
	case "":
		o.Compare = CompareLE
	case CompareLE, CompareLT:
	default:
		return o, fmt.Errorf("unknown comparison %q: use <= (one token per lease) or < (one token per write)", o.Compare)
	}
	if (o.Sequence || o.Leases) && o.Engine != PostgreSQL {
		return o, fmt.Errorf("the sequence and lease token sources need postgresql")
	}
	return o, nil
}

// sourceLine lists the schema files for headers.
func (o Options) sourceLine() string {
	paths := make([]string, len(o.Schemas))
	for i, s := range o.Schemas {
		paths[i] = s.Path
	}
	return strings.Join(paths, ", ")
}

// goHeader is fenced.go's header, one comment line each.
func (o Options) goHeader() []string {
	h := []string{"Code generated by fencegen. DO NOT EDIT."}
	if o.Version != "" {
		h = append(h, "versions:", "  fencegen "+o.Version)
	}
	return append(h, "source: "+o.sourceLine())
}

func (o Options) sqlHeader() string {
	var b strings.Builder
	for _, line := range o.goHeader() {
		b.WriteString("-- " + line + "\n")
	}
	return b.String()
}

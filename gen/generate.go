package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
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
	// Queries are users' sqlc queries files: their writes of fenced tables
	// are fenced, the other queries pass through to sqlc unchanged, or are
	// left out with FencedOnly (sqlc.yaml's package has them already).
	Queries    []Source
	FencedOnly bool
	// SQLCPlugin, when set, generates into the package sqlc's own Go
	// generator writes (fencegen run as sqlc's process plugin): no db.go
	// or models.go, sqlc's models, DBTX, params and row types reused, and
	// only the fenced queries (Queries has the others).
	SQLCPlugin *SQLCPlugin
}

// SQLCPlugin holds the options of sqlc's Go generator that decide the
// names and types fencegen's output shares with it; they must be the ones
// of the sqlc.yaml target whose package fencegen writes into.
type SQLCPlugin struct {
	// QueryParameterLimit is sqlc's query_parameter_limit (sqlc's default
	// is 1): a query with more parameters gets sqlc's XParams struct,
	// which Fenced.X then takes; one with fewer gets fencegen's XParams.
	QueryParameterLimit int
	// Rename and Overrides are passed to sqlc as they are, so fencegen's
	// queries see sqlc's model names and Go types.
	Rename    map[string]string
	Overrides json.RawMessage
}

// emitsParams reports whether sqlc's Go generator declares XParams for a
// query with n parameters (internal/codegen/golang/result.go).
func (p *SQLCPlugin) emitsParams(n int) bool {
	if n == 0 || n == 1 && p.QueryParameterLimit != 0 {
		return false
	}
	return n > p.QueryParameterLimit
}

// Result is the generated package: file name to contents, plus warnings
// about tables left unfenced or fences narrower than 64 bits.
type Result struct {
	Files    map[string][]byte
	Warnings []Diagnostic
}

// Generate parses the schemas, renders fenced.sql, runs sqlc on it and
// renders fenced.go. It returns an *Error for bad input; nothing is returned
// half-done. The work runs in a child process of the running executable
// (child.go), which runs sqlc in-process.
func Generate(opts Options) (*Result, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return generateInChild(opts)
}

// plan is a generation up to sqlc: the schema read, the fenced tables
// picked, the queries fenced and the sqlc run that compiles them.
type plan struct {
	opts       Options
	schema     *Schema
	tables     []*fencedTable
	warnings   []Diagnostic
	queryFiles [][]*userQuery
	userSQL    []Source
	queries    string            // fenced.sql
	files      map[string][]byte // the output so far: the token sources' schemas
	job        sqlcJob
}

// prepare does everything Generate does before sqlc runs. opts has its
// defaults.
func prepare(opts Options) (*plan, error) {
	schema, err := ParseSchema(opts.Engine, opts.Schemas)
	if err != nil {
		return nil, err
	}
	tables, warnings, err := selectFenced(schema, opts.Fence, opts.Fences)
	if err != nil {
		return nil, err
	}
	if err := checkReservedColumns(tables); err != nil {
		return nil, err
	}

	queryFiles, err := fenceQueries(opts, schema)
	if err != nil {
		return nil, err
	}
	if err := checkQueryMethods(opts, tables, queryFiles); err != nil {
		return nil, err
	}
	userSQL, err := userQuerySources(opts, queryFiles)
	if err != nil {
		return nil, err
	}

	if len(tables) == 0 && !opts.Sequence && !opts.Leases && len(opts.Queries) == 0 {
		if err := unkeyedError(warnings); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no table has a fence column %q; add one (bigint) or name the column with -fence", opts.Fence)
	}
	sources := tokenSources{Sequence: opts.Sequence, Leases: opts.Leases}
	queries := renderFencedSQL(opts.Engine, opts.Compare, tables, sources)

	var internal []Source
	files := map[string][]byte{}
	if sources.Sequence {
		internal = append(internal, Source{Path: sequenceSchemaFile, Data: []byte(sequenceSchema)})
		files[sequenceSchemaFile] = []byte(opts.sqlHeader() + sequenceSchema)
	}
	if sources.Leases {
		internal = append(internal, Source{Path: leaseSchemaFile, Data: []byte(leaseSchema)})
		files[leaseSchemaFile] = []byte(opts.sqlHeader() + leaseSchema)
	}
	job := sqlcJob{Engine: opts.Engine, Driver: opts.Driver, Package: opts.Package, Schemas: opts.Schemas, Internal: internal, Queries: queries, UserQueries: userSQL, PlaceUser: placeUserMessage(userSQL, queryFiles), Tables: tables, NoVersion: opts.Version == "", Plugin: opts.SQLCPlugin}
	return &plan{opts: opts, schema: schema, tables: tables, warnings: warnings, queryFiles: queryFiles, userSQL: userSQL, queries: queries, files: files, job: job}, nil
}

// finish renders the package from the Go files sqlc wrote, by base name.
func (p *plan) finish(goFiles map[string][]byte) (*Result, error) {
	opts, files := p.opts, p.files
	var sqlcOwn map[string][]byte // sqlc's files of the package, in plugin mode
	var err error
	if opts.SQLCPlugin != nil {
		if sqlcOwn, err = shareSQLCPackage(p.schema, goFiles); err != nil {
			return nil, err
		}
	}
	sqlcQueries, err := parseSQLCFile("fenced.sql.go", goFiles["fenced.sql.go"])
	if err != nil {
		return nil, err
	}
	var models map[string]string // sqlc's models renamed (a plugin refuses those clashes)
	if opts.SQLCPlugin == nil {
		models = modelRenames(p.schema)
	}
	userGo, err := readQueryFiles(opts, p.userSQL, p.queryFiles, goFiles, models)
	if err != nil {
		return nil, err
	}
	fencedGo, err := renderFencedGo(opts, p.tables, sqlcQueries, userGo)
	if err != nil {
		return nil, err
	}
	if opts.SQLCPlugin == nil {
		if goFiles["models.go"], err = renameModels(goFiles["models.go"], models); err != nil {
			return nil, err
		}
	} else if err := dropSharedRows(p.queryFiles, p.userSQL, goFiles); err != nil {
		return nil, err
	}
	parsed := map[string]*ast.File{} // for checkDeclarations: ownSQLCFile changes only a comment
	if _, theirs := sqlcOwn["fenced.sql.go"]; !theirs && bytes.Equal(goFiles["fenced.sql.go"], sqlcQueries.src) {
		parsed["fenced.sql.go"] = sqlcQueries.decls
	}
	for name, data := range goFiles {
		files[name] = ownSQLCFile(data)
	}
	files["fenced.go"] = fencedGo
	files["fenced.sql"] = []byte(opts.sqlHeader() + p.queries)
	for _, q := range p.userSQL {
		files[q.Path] = append([]byte(opts.sqlHeader()), q.Data...)
	}
	if err := checkDeclarations(withSQLCFiles(files, sqlcOwn), parsed); err != nil {
		return nil, err
	}
	return &Result{Files: files, Warnings: p.warnings}, nil
}

// unkeyedError is the refusal when every table with a fence column was
// skipped for want of a key: one diagnostic per such table, or nil if there
// is none.
func unkeyedError(warnings []Diagnostic) error {
	var diags []Diagnostic
	for _, w := range warnings {
		if w.unkeyed {
			w.Message += ", and no other table is: add a primary key or a unique constraint of NOT NULL columns"
			diags = append(diags, w)
		}
	}
	if len(diags) == 0 {
		return nil
	}
	return &Error{Diagnostics: diags}
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
	if o.SQLCPlugin != nil {
		o.FencedOnly = true
	}
	if o.Driver == "" {
		o.Driver = DriverSQL
		if o.Engine == PostgreSQL && o.SQLCPlugin == nil {
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
	paths := make([]string, 0, len(o.Schemas)+len(o.Queries))
	for _, s := range o.Schemas {
		paths = append(paths, s.Path)
	}
	for _, q := range o.Queries {
		paths = append(paths, q.Path)
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

// ownSQLCFile marks a file sqlc wrote for fencegen with fencegen's header,
// so that fencegen later knows it may replace or remove it (and never a
// file of the user's that merely sits in the output directory).
func ownSQLCFile(data []byte) []byte {
	const sqlcHeader = "// Code generated by sqlc. DO NOT EDIT."
	if rest, ok := bytes.CutPrefix(data, []byte(sqlcHeader)); ok {
		return append([]byte("// Code generated by fencegen using sqlc. DO NOT EDIT."), rest...)
	}
	return data
}

package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	pathpkg "path"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"sync"

	"github.com/dave/jennifer/jen"
)

const (
	pgxPath = "github.com/jackc/pgx/v5"
	sqlPath = "database/sql"
)

// goWriter renders fenced.go.
type goWriter struct {
	f      *jen.File
	sqlc   *sqlcFile
	engine Engine
	driver Driver
	cmp    Compare
	plugin *SQLCPlugin // set when the package is sqlc's own (process plugin)
}

// renderFencedGo renders the token-taking API over sqlc's unexported query
// methods (opts has its defaults filled in). fenced.go is as large as
// sqlc's own output and formatting it dominates fencegen's own time, so its
// sections (the shared code, the tables in one chunk per CPU, the token
// sources) are rendered and gofmt'd concurrently and then joined.
func renderFencedGo(opts Options, tables []*fencedTable, sqlcGo *sqlcFile, queries []queryFile) ([]byte, error) {
	base := goWriter{sqlc: sqlcGo, engine: opts.Engine, driver: opts.Driver, cmp: opts.Compare, plugin: opts.SQLCPlugin}
	sections := fencedGoSections(opts, tables, runtime.GOMAXPROCS(0))
	sections = append(sections, func(w *goWriter) error { return w.queriesSection(queries, tables) })
	tableChunks := chunks(tables, runtime.GOMAXPROCS(0)) // sections[1:1+len(tableChunks)]
	rendered := make([][][]byte, len(sections))
	errs := make([]error, len(sections))
	var wg sync.WaitGroup
	for i, section := range sections {
		wg.Go(func() {
			if i >= 1 && i <= len(tableChunks) {
				rendered[i], errs[i] = base.renderTables(opts, tableChunks[i-1])
				return
			}
			out, err := base.render(opts, section)
			rendered[i], errs[i] = [][]byte{out}, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var files [][]byte
	for _, r := range rendered {
		files = append(files, r...)
	}
	joined, err := joinGoFiles(opts.Package, opts.goHeader(), files)
	if errors.Is(err, errImportClash) {
		// Two sections named a package differently: render one file instead.
		return base.render(opts, func(w *goWriter) error {
			for _, section := range sections {
				if err := section(w); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return joined, err
}

// fencedGoSections lists the parts of fenced.go in order: the shared code,
// the tables in n chunks, the token sources.
func fencedGoSections(opts Options, tables []*fencedTable, n int) []func(w *goWriter) error {
	sections := []func(w *goWriter) error{func(w *goWriter) error {
		w.common()
		if len(tables) == 0 {
			return nil
		}
		return w.settle(tables)
	}}
	for _, chunk := range chunks(tables, n) {
		sections = append(sections, func(w *goWriter) error {
			for _, t := range chunk {
				if err := w.table(t); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if opts.Sequence || opts.Leases {
		sections = append(sections, func(w *goWriter) error {
			if opts.Sequence {
				w.nextToken()
			}
			if opts.Leases {
				w.leases()
			}
			return nil
		})
	}
	return sections
}

// render renders one file of the package with the given section.
func (base goWriter) render(opts Options, section func(w *goWriter) error) ([]byte, error) {
	w := base.withFile(opts)
	if err := section(&w); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := w.f.Render(&out); err != nil {
		return nil, fmt.Errorf("rendering fenced.go: %w", err)
	}
	return out.Bytes(), nil
}

// withFile is base writing to a new file of the package.
func (base goWriter) withFile(opts Options) goWriter {
	w := base
	w.f = jen.NewFile(opts.Package)
	w.f.ImportName(pgxPath, "pgx")
	for local, path := range w.sqlc.imports {
		if local != pathpkg.Base(path) {
			w.f.ImportName(path, local) // as sqlc's file names it: pgvector, not an alias of pgvector-go
		}
	}
	return w
}

// plainName matches the table names the text path writes: they read the
// same in a comment and inside a Go string literal.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_.]+$`)

// renderTables renders the tables' code (as w.table does) as gofmt'd
// files for joinGoFiles. Runs of tables are written as text (tableText);
// one outside the text path's form is rendered with jennifer and gofmt'd
// on its own.
func (base goWriter) renderTables(opts Options, tables []*fencedTable) ([][]byte, error) {
	files := make([][]byte, 0, 1)
	text := base.newTableText(opts.Package) // the run of tables written as text
	text.body.Grow(3 * 1024 * len(tables))  // a table's code takes under 3 KiB: the text is not copied as it grows
	for _, t := range tables {
		if text.table(t) {
			continue
		}
		if text.body.Len() > 0 {
			files = append(files, text.file())
			text = base.newTableText(opts.Package)
		}
		out, err := base.render(opts, func(w *goWriter) error { return w.table(t) })
		if err != nil {
			return nil, err
		}
		files = append(files, out)
	}
	if text.body.Len() > 0 {
		files = append(files, text.file())
	}
	return files, nil
}

// errImportClash reports sections that import one package under two names
// or two packages under one name.
var errImportClash = errors.New("import clash between sections")

// chunks splits tables into at most n runs of nearly equal length, in order.
func chunks(tables []*fencedTable, n int) [][]*fencedTable {
	var out [][]*fencedTable
	for n > 0 && len(tables) > 0 {
		size := (len(tables) + n - 1) / n
		out = append(out, tables[:size])
		tables, n = tables[size:], n-1
	}
	return out
}

// joinGoFiles joins gofmt'd files of one package into one gofmt'd file: the
// header comments, the package clause, one sorted import block holding
// every file's imports, then each file's declarations in order.
func joinGoFiles(pkg string, header []string, files [][]byte) ([]byte, error) {
	imports := map[string]string{} // path -> import spec as printed
	names := map[string]bool{}     // local names taken
	var bodies [][]byte
	for _, src := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "fenced.go", src, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("joining fenced.go: %w", err)
		}
		end := fset.Position(f.Name.End()).Offset
		for _, d := range f.Decls {
			end = fset.Position(d.End()).Offset
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			spec := string(src[fset.Position(imp.Pos()).Offset:fset.Position(imp.End()).Offset])
			if old, ok := imports[path]; ok && old != spec || !ok && names[importLocalName(imp, path)] {
				return nil, errImportClash
			}
			imports[path] = spec
			names[importLocalName(imp, path)] = true
		}
		if body := bytes.TrimLeft(src[end:], "\n"); len(body) > 0 {
			bodies = append(bodies, body)
		}
	}
	var out bytes.Buffer
	size := 0
	for _, body := range bodies {
		size += len(body) + 1
	}
	out.Grow(size + 1024) // with the header and imports
	for _, h := range header {
		out.WriteString("// " + h + "\n")
	}
	if len(header) > 0 {
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "package %s\n\n", pkg)
	writeImports(&out, imports)
	for i, body := range bodies {
		if i > 0 {
			out.WriteByte('\n')
		}
		out.Write(body)
	}
	return out.Bytes(), nil
}

// importLocalName is the name an import binds in the file.
func importLocalName(imp *ast.ImportSpec, path string) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	return importName(path)
}

// writeImports writes an import declaration as gofmt prints it.
func writeImports(out *bytes.Buffer, imports map[string]string) {
	paths := make([]string, 0, len(imports))
	for path := range imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	switch len(paths) {
	case 0:
	case 1:
		fmt.Fprintf(out, "import %s\n\n", imports[paths[0]])
	default:
		out.WriteString("import (\n")
		for _, path := range paths {
			fmt.Fprintf(out, "\t%s\n", imports[path])
		}
		out.WriteString(")\n\n")
	}
}

// noRows is the driver's "no row" sentinel.
func (w *goWriter) noRows() jen.Code {
	if w.driver == DriverPgx {
		return jen.Qual(pgxPath, "ErrNoRows")
	}
	return jen.Qual(sqlPath, "ErrNoRows")
}

// common renders Token, the errors and Fenced.
func (w *goWriter) common() {
	f := w.f
	f.Comment("Token is a fencing token: a number that grows with every lease (or every")
	f.Comment("write) a lock service hands out. A write carrying a token applies only if no")
	f.Comment(fmt.Sprintf("write with a newer token reached the row first (row fence %s token).", w.cmp))
	f.Comment("Make one with TokenOf from what the lock service handed out, or take one from a")
	f.Comment("token source: a number literal never turns into a Token by accident.")
	f.Type().Id("Token").Struct(jen.Id("n").Int64())
	f.Comment("TokenOf is the token for n, a number a lock service handed out with the lease")
	f.Comment("(an etcd revision, a ZooKeeper zxid, a fenced lock's token).")
	f.Func().Id("TokenOf").Params(jen.Id("n").Int64()).Id("Token").Block(jen.Return(jen.Id("Token").Values(jen.Id("n"))))
	f.Comment("Int64 returns the token's number.")
	f.Func().Params(jen.Id("t").Id("Token")).Id("Int64").Params().Int64().Block(jen.Return(jen.Id("t").Dot("n")))
	f.Comment("String returns the token's number in decimal.")
	f.Func().Params(jen.Id("t").Id("Token")).Id("String").Params().String().Block(jen.Return(jen.Qual("strconv", "FormatInt").Call(jen.Id("t").Dot("n"), jen.Lit(10))))

	f.Var().Defs(
		jen.Comment("ErrStale matches every *StaleError."),
		jen.Id("ErrStale").Op("=").Qual("errors", "New").Call(jen.Lit("stale fencing token")),
		jen.Comment("ErrNotFound matches every *NotFoundError."),
		jen.Id("ErrNotFound").Op("=").Qual("errors", "New").Call(jen.Lit("no such row")),
		jen.Comment("ErrTokenOutOfRange matches every *TokenRangeError."),
		jen.Id("ErrTokenOutOfRange").Op("=").Qual("errors", "New").Call(jen.Lit("fencing token out of the fence column's range")),
	)

	f.Comment("StaleError reports a write rejected because a newer holder already wrote the row.")
	f.Type().Id("StaleError").Struct(
		jen.Id("Table").String().Comment("the table as the schema names it"),
		jen.Id("Token").Id("Token").Comment("the rejected token"),
		jen.Id("Current").Op("*").Id("Token").Comment("the row's fence when the write was rejected; nil if unknown"),
	)
	f.Func().Params(jen.Id("e").Op("*").Id("StaleError")).Id("Error").Params().String().Block(
		jen.If(jen.Id("e").Dot("Current").Op("==").Nil()).Block(
			jen.Return(jen.Qual("fmt", "Sprintf").Call(jen.Lit("stale token %v for %s: a newer holder already wrote"), jen.Id("e").Dot("Token"), jen.Id("e").Dot("Table"))),
		),
		jen.Return(jen.Qual("fmt", "Sprintf").Call(jen.Lit("stale token %v for %s: a newer holder already wrote (current fence %v)"), jen.Id("e").Dot("Token"), jen.Id("e").Dot("Table"), jen.Op("*").Id("e").Dot("Current"))),
	)
	f.Comment("Is makes errors.Is(err, ErrStale) true.")
	f.Func().Params(jen.Id("e").Op("*").Id("StaleError")).Id("Is").Params(jen.Id("target").Error()).Bool().Block(
		jen.Return(jen.Id("target").Op("==").Id("ErrStale")),
	)

	f.Comment("NotFoundError reports an update or delete of a key that has no row.")
	f.Type().Id("NotFoundError").Struct(jen.Id("Table").String())
	f.Func().Params(jen.Id("e").Op("*").Id("NotFoundError")).Id("Error").Params().String().Block(
		jen.Return(jen.Qual("fmt", "Sprintf").Call(jen.Lit("no %s row with that key"), jen.Id("e").Dot("Table"))),
	)
	f.Comment("Is makes errors.Is(err, ErrNotFound) true.")
	f.Func().Params(jen.Id("e").Op("*").Id("NotFoundError")).Id("Is").Params(jen.Id("target").Error()).Bool().Block(
		jen.Return(jen.Id("target").Op("==").Id("ErrNotFound")),
	)

	f.Comment("TokenRangeError reports a token that the table's fence column cannot store exactly.")
	f.Comment("The write was not sent: a narrowed token could let an older holder win.")
	f.Type().Id("TokenRangeError").Struct(
		jen.Id("Table").String().Comment("the table as the schema names it"),
		jen.Id("Token").Id("Token").Comment("the refused token"),
		jen.List(jen.Id("Min"), jen.Id("Max")).Int64().Comment("the tokens the fence column stores"),
	)
	f.Func().Params(jen.Id("e").Op("*").Id("TokenRangeError")).Id("Error").Params().String().Block(
		jen.Return(jen.Qual("fmt", "Sprintf").Call(jen.Lit("fencing token %v does not fit the fence column of %s (%d to %d); the write was not sent"), jen.Id("e").Dot("Token"), jen.Id("e").Dot("Table"), jen.Id("e").Dot("Min"), jen.Id("e").Dot("Max"))),
	)
	f.Comment("Is makes errors.Is(err, ErrTokenOutOfRange) true.")
	f.Func().Params(jen.Id("e").Op("*").Id("TokenRangeError")).Id("Is").Params(jen.Id("target").Error()).Bool().Block(
		jen.Return(jen.Id("target").Op("==").Id("ErrTokenOutOfRange")),
	)

	if w.plugin == nil {
		f.Comment("Fenced runs fenced writes: each takes a Token and cannot silently lose the race.")
		f.Type().Id("Fenced").Struct(jen.Id("q").Op("*").Id("Queries"))
		f.Comment("NewFenced returns fenced writes over db (a pool, a connection or a transaction).")
		f.Func().Id("NewFenced").Params(jen.Id("db").Id("DBTX")).Op("*").Id("Fenced").Block(
			jen.Return(jen.Op("&").Id("Fenced").Values(jen.Dict{jen.Id("q"): jen.Id("New").Call(jen.Id("db"))})),
		)
		return
	}
	f.Comment("Fenced runs fenced writes: each takes a Token and cannot silently lose the race.")
	f.Comment("sqlc's methods on Queries stay unfenced: under a lease, write through Fenced.")
	f.Type().Id("Fenced").Struct(jen.Id("q").Op("*").Id(sqlcQueriesType))
	f.Comment("NewFenced returns fenced writes over db (a pool, a connection or a transaction).")
	f.Func().Id("NewFenced").Params(jen.Id("db").Id("DBTX")).Op("*").Id("Fenced").Block(
		jen.Return(jen.Op("&").Id("Fenced").Values(jen.Dict{jen.Id("q"): jen.Op("&").Id(sqlcQueriesType).Values(jen.Dict{jen.Id("db"): jen.Id("db")})})),
	)
	f.Commentf("%s runs fencegen's queries over sqlc's DBTX (sqlc's Queries holds the package's other queries).", sqlcQueriesType)
	f.Type().Id(sqlcQueriesType).Struct(jen.Id("db").Id("DBTX"))
}

// writeOp is one fenced write of a table.
type writeOp struct {
	verb  string // Update, Upsert or Delete: the method is verb+GoName
	query string // sqlc's query name
	doc   string // the method's doc comment after its name
	// upsert writes whether or not the row exists, so it never reports
	// "not found".
	upsert bool
}

// ops lists the fenced writes of a table.
func (w *goWriter) ops(t *fencedTable) []writeOp {
	name := t.QualifiedName()
	ops := []writeOp{
		{verb: "Update", query: updateQuery(t), doc: fmt.Sprintf("sets the %s row with arg's key to arg and its fence to token, if the row's fence %s token.", name, w.cmp)},
		{verb: "Upsert", query: upsertQuery(t), doc: fmt.Sprintf("inserts arg into %s with fence token, or updates the row with its key if the row's fence %s token.", name, w.cmp), upsert: true},
		{verb: "Delete", query: deleteQuery(t), doc: fmt.Sprintf("deletes the %s row with arg's key if the row's fence %s token.", name, w.cmp)},
	}
	if t.NoUpsert {
		// A generated key cannot be inserted (see fencedTable.NoUpsert).
		ops = append(ops[:1], ops[2])
	}
	return ops
}

// table renders the params types and the three writes of one table.
func (w *goWriter) table(t *fencedTable) error {
	for _, op := range w.ops(t) {
		if err := w.write(t, op); err != nil {
			return errorf(t.Pos, "%s: %v; please report this as a fencegen bug", t.QualifiedName(), err)
		}
	}
	return nil
}

// write renders one exported params struct and its method.
func (w *goWriter) write(t *fencedTable, op writeOp) error {
	fields, ok := w.sqlc.structs[op.query+"Params"]
	if !ok {
		return fmt.Errorf("sqlc generated no %sParams", op.query)
	}
	name := op.verb + t.GoName
	var decl []jen.Code
	lit := jen.Dict{}
	rng := fullRange
	for _, fl := range fields {
		if fl.Name == structName(tokenParam) {
			conv, err := w.tokenConv(t, fl.Type)
			if err != nil {
				return err
			}
			rng = columnRange(w.engine, t.Fence.Type).intersect(goIntRange(conv.Plain))
			lit[jen.Id(fl.Name)] = conv.toDriver(jen.Id("token").Dot("n"))
			continue
		}
		typ, err := w.sqlc.typeCode(fl.Type)
		if err != nil {
			return err
		}
		decl = append(decl, jen.Id(fl.Name).Add(typ))
		lit[jen.Id(fl.Name)] = jen.Id("arg").Dot(fl.Name)
	}
	w.f.Commentf("%sParams holds the columns %s writes or matches; the token sets the fence.", name, name)
	w.f.Type().Id(name + "Params").Struct(decl...)

	w.f.Commentf("%s %s", name, op.doc)
	if op.upsert {
		w.f.Comment("It returns a *StaleError if a newer token holds the row.")
	} else {
		w.f.Comment("It returns a *StaleError if a newer token holds the row and a *NotFoundError if no row has the key.")
	}
	w.f.Func().Params(jen.Id("f").Op("*").Id("Fenced")).Id(name).
		Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("token").Id("Token"), jen.Id("arg").Id(name+"Params")).Error().
		Block(append(w.rangeCheck(t, rng), w.writeBody(t, op, lit)...)...)
	return nil
}

// tokenConv is how a token fills the fence parameter sqlc typed as typ.
func (w *goWriter) tokenConv(t *fencedTable, typ ast.Expr) (intField, error) {
	conv, ok := tokenType(w.sqlc.qualifiedType(typ))
	if !ok {
		return intField{}, fmt.Errorf("sqlc typed the fence of %s as %s, which fencegen cannot fill from a token", t.QualifiedName(), w.sqlc.qualifiedType(typ))
	}
	return conv, nil
}

// tokenRangeOf is the range of tokens t's fence accepts, or fullRange.
func (w *goWriter) tokenRangeOf(t *fencedTable) tokenRange {
	for _, fl := range w.sqlc.structs[updateQuery(t)+"Params"] {
		if fl.Name == structName(tokenParam) {
			if conv, err := w.tokenConv(t, fl.Type); err == nil {
				return columnRange(w.engine, t.Fence.Type).intersect(goIntRange(conv.Plain))
			}
		}
	}
	return fullRange
}

// rangeCheck refuses a token outside rng before anything is sent: the
// conversion to the parameter's Go type, or the column, would narrow it.
func (w *goWriter) rangeCheck(t *fencedTable, rng tokenRange) []jen.Code {
	if rng == fullRange {
		return nil
	}
	return []jen.Code{
		jen.If(jen.Err().Op(":=").Id("checkTokenRange").Call(jen.Lit(t.QualifiedName()), jen.Id("token"), intConst(rng.min), intConst(rng.max)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err()),
		),
	}
}

// mathConsts are the math package's integer limits, which range checks
// name rather than spell out.
var mathConsts = map[string]int64{
	"MinInt8": math.MinInt8, "MaxInt8": math.MaxInt8, "MaxUint8": math.MaxUint8,
	"MinInt16": math.MinInt16, "MaxInt16": math.MaxInt16, "MaxUint16": math.MaxUint16,
	"MinInt32": math.MinInt32, "MaxInt32": math.MaxInt32, "MaxUint32": math.MaxUint32,
	"MinInt64": math.MinInt64, "MaxInt64": math.MaxInt64,
}

// intConst renders n as the math package's constant of that value where
// there is one, else as a literal.
func intConst(n int64) jen.Code {
	for name, v := range mathConsts {
		if v == n {
			return jen.Qual("math", name)
		}
	}
	return jen.Lit(int(n))
}

// checkTokenRange renders the range check that narrow fences' writes call.
func (w *goWriter) checkTokenRange() {
	w.f.Comment("checkTokenRange returns a *TokenRangeError unless min <= token <= max.")
	w.f.Func().Id("checkTokenRange").Params(jen.Id("table").String(), jen.Id("token").Id("Token"), jen.List(jen.Id("min"), jen.Id("max")).Int64()).Error().Block(
		jen.If(jen.Id("token").Dot("n").Op("<").Id("min").Op("||").Id("token").Dot("n").Op(">").Id("max")).Block(
			jen.Return(jen.Op("&").Id("TokenRangeError").Values(jen.Dict{jen.Id("Table"): jen.Id("table"), jen.Id("Token"): jen.Id("token"), jen.Id("Min"): jen.Id("min"), jen.Id("Max"): jen.Id("max")})),
		),
		jen.Return(jen.Nil()),
	)
}

// writeBody runs the fenced statement and hands its outcome to settle.
func (w *goWriter) writeBody(t *fencedTable, op writeOp, lit jen.Dict) []jen.Code {
	key := jen.Dict{}
	for _, fl := range w.sqlc.structs[fenceQuery(t)+"Params"] {
		key[jen.Id(fl.Name)] = jen.Id("arg").Dot(fl.Name)
	}
	call := jen.Id("f").Dot("q").Dot(op.query).Call(jen.Id("ctx"), jen.Id(op.query+"Params").Values(lit))
	applied := jen.Id("n").Op(">").Lit(0)
	body := []jen.Code{jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(call)}
	if w.engine == MySQL && op.upsert {
		// The rejecting branch of ON DUPLICATE KEY UPDATE sets LastInsertId to
		// the stale marker (see fenced.sql); every other outcome applied.
		applied = jen.Id("id").Op("!=").Id("mysqlStaleMarker")
		body = []jen.Code{
			jen.Var().Id("id").Int64(),
			jen.List(jen.Id("res"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.List(jen.Id("id"), jen.Err()).Op("=").Id("res").Dot("LastInsertId").Call()),
		}
	}
	return append(body,
		jen.Return(jen.Id("settle").Call(
			jen.Id("ctx"), jen.Lit(t.QualifiedName()), jen.Id("op"+op.verb), jen.Id("token"), applied, jen.Err(),
			jen.Id("f").Dot("q").Dot(fenceQuery(t)), jen.Id(fenceQuery(t)+"Params").Values(key))),
	)
}

// settle renders the helpers shared by every fenced write: the op kinds,
// settle, which wraps a database error, returns nil for an applied write
// and otherwise reads the row's fence once to label the rejection, and
// fenceToken, which reads a fence of any of the Go types sqlc gave them.
func (w *goWriter) settle(tables []*fencedTable) error {
	fenceTypes, err := w.fenceTypes(tables)
	if err != nil {
		return err
	}
	f := w.f
	for _, t := range tables {
		if w.tokenRangeOf(t) != fullRange {
			w.checkTokenRange()
			break
		}
	}
	if w.engine == MySQL {
		f.Comment("mysqlStaleMarker is the LastInsertId of an upsert that the fence rejected.")
		f.Const().Id("mysqlStaleMarker").Op("=").Lit(-1)
	}
	f.Comment("op is a kind of fenced write.")
	f.Type().Id("op").Int()
	f.Const().Defs(jen.Id("opUpdate").Id("op").Op("=").Iota(), jen.Id("opUpsert"), jen.Id("opDelete"))
	f.Func().Params(jen.Id("o").Id("op")).Id("String").Params().String().Block(
		jen.Return(jen.Index(jen.Op("...")).String().Values(jen.Lit("update"), jen.Lit("upsert"), jen.Lit("delete")).Index(jen.Id("o"))),
	)

	body := []jen.Code{
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("fenced %s of %s: %w"), jen.Id("o"), jen.Id("table"), jen.Err())),
		),
		jen.If(jen.Id("applied")).Block(jen.Return(jen.Nil())),
		jen.List(jen.Id("fence"), jen.Err()).Op(":=").Id("read").Call(jen.Id("ctx"), jen.Id("key")),
		jen.If(jen.Qual("errors", "Is").Call(jen.Err(), w.noRows())).Block(
			jen.If(jen.Id("o").Op("==").Id("opUpsert")).Block(
				jen.Return(jen.Op("&").Id("StaleError").Values(jen.Dict{jen.Id("Table"): jen.Id("table"), jen.Id("Token"): jen.Id("token")})),
			),
			jen.Return(jen.Op("&").Id("NotFoundError").Values(jen.Dict{jen.Id("Table"): jen.Id("table")})),
		),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("reading the fence of %s: %w"), jen.Id("table"), jen.Err())),
		),
		jen.Id("current").Op(":=").Id("fenceToken").Call(jen.Id("fence")),
	}
	if accept := w.acceptEqual(); accept != nil {
		body = append(body,
			jen.Comment("MySQL reports a rewrite of identical values as unchanged: a fence equal"),
			jen.Comment("to the token means this holder's write is in place."),
			jen.If(jen.Add(accept).Op("&&").Id("current").Op("!=").Nil().Op("&&").Op("*").Id("current").Op("==").Id("token")).Block(jen.Return(jen.Nil())),
		)
	}
	body = append(body, jen.Return(jen.Op("&").Id("StaleError").Values(jen.Dict{jen.Id("Table"): jen.Id("table"), jen.Id("Token"): jen.Id("token"), jen.Id("Current"): jen.Id("current")})))

	f.Comment("settle finishes a fenced write of table: err is the statement's error and applied")
	f.Comment("whether it changed the row. A write that changed nothing is labelled by reading the")
	f.Comment("row's fence with read: no row is a *NotFoundError (a *StaleError for an upsert, whose")
	f.Comment("row was deleted meanwhile), else a *StaleError with the current fence.")
	f.Func().Id("settle").Types(jen.List(jen.Id("K"), jen.Id("F")).Any()).Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("table").String(), jen.Id("o").Id("op"), jen.Id("token").Id("Token"),
		jen.Id("applied").Bool(), jen.Err().Error(),
		jen.Id("read").Func().Params(jen.Qual("context", "Context"), jen.Id("K")).Params(jen.Id("F"), jen.Error()), jen.Id("key").Id("K"),
	).Error().Block(body...)

	var cases []jen.Code
	for _, typ := range fenceTypes {
		code, _ := w.sqlc.typeCode(typ.expr)
		value := jen.Id("v")
		var guard jen.Code = jen.Null()
		if typ.conv.Field != "" {
			guard = jen.If(jen.Op("!").Id("v").Dot("Valid")).Block(jen.Return(jen.Nil()))
			value = jen.Id("v").Dot(typ.conv.Field)
		}
		if typ.conv.Plain == "uint64" || typ.conv.Plain == "uint" {
			// A fence above the Token's range (written by someone else) is unknown, not negative.
			guard = jen.If(jen.Id("v").Op(">").Qual("math", "MaxInt64")).Block(jen.Return(jen.Nil()))
		}
		cases = append(cases, jen.Case(code).Block(guard, jen.Id("t").Op(":=").Id("Token").Values(jen.Id("n").Op(":").Int64().Call(value)), jen.Return(jen.Op("&").Id("t"))))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Nil())))
	f.Comment("fenceToken converts a fence as sqlc typed it; nil for NULL.")
	f.Func().Id("fenceToken").Params(jen.Id("fence").Any()).Op("*").Id("Token").Block(
		jen.Switch(jen.Id("v").Op(":=").Id("fence").Assert(jen.Type())).Block(cases...),
	)
	return nil
}

// acceptEqual is the condition on op o under which a fence equal to the
// token counts as applied: MySQL only, where an update under "<=" that
// rewrote identical values reports no change without clientFoundRows.
func (w *goWriter) acceptEqual() jen.Code {
	if w.engine != MySQL || w.cmp != CompareLE {
		return nil
	}
	return jen.Id("o").Op("==").Id("opUpdate")
}

// fenceType is one Go type sqlc gave a fence column.
type fenceType struct {
	expr ast.Expr
	conv intField
}

// fenceTypes lists, without repeats and in first-use order, the Go types
// of the tables' fence reads.
func (w *goWriter) fenceTypes(tables []*fencedTable) ([]fenceType, error) {
	var out []fenceType
	seen := map[string]bool{}
	for _, t := range tables {
		result, ok := w.sqlc.results[fenceQuery(t)]
		if !ok {
			return nil, fmt.Errorf("sqlc generated no %s", fenceQuery(t))
		}
		name := w.sqlc.qualifiedType(result)
		conv, ok := tokenType(name)
		if !ok || name == "interface{}" {
			return nil, fmt.Errorf("sqlc typed the fence of %s as %s, which fencegen cannot read as a token", t.QualifiedName(), name)
		}
		if _, err := w.sqlc.typeCode(result); err != nil {
			return nil, err
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, fenceType{result, conv})
		}
	}
	return out, nil
}

// nextToken renders the sequence-backed token source.
func (w *goWriter) nextToken() {
	w.f.Comment("NextToken returns a new token from the fence_token_seq sequence (fence_tokens.sql).")
	w.f.Comment("Tokens from one sequence strictly increase; use one per lease tenure (\"<=\") or per write (\"<\").")
	w.f.Func().Params(jen.Id("f").Op("*").Id("Fenced")).Id("NextToken").Params(jen.Id("ctx").Qual("context", "Context")).Params(jen.Id("Token"), jen.Error()).Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("f").Dot("q").Dot("fencedNextToken").Call(jen.Id("ctx")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("Token").Values(), jen.Qual("fmt", "Errorf").Call(jen.Lit("next fencing token: %w"), jen.Err()))),
		jen.Return(jen.Id("Token").Values(jen.Id("v")), jen.Nil()),
	)
}

// leases renders the lease table token source.
func (w *goWriter) leases() {
	ms := jen.Id("ttl").Dot("Milliseconds").Call()
	w.f.Var().Defs(
		jen.Comment("ErrLeaseHeld is returned by AcquireLease while another holder's lease is live."),
		jen.Id("ErrLeaseHeld").Op("=").Qual("errors", "New").Call(jen.Lit("lease held by another holder")),
		jen.Comment("ErrLeaseLost is returned by RenewLease and ReleaseLease when the lease expired or changed hands."),
		jen.Id("ErrLeaseLost").Op("=").Qual("errors", "New").Call(jen.Lit("lease expired or taken over")),
	)
	w.f.Comment("AcquireLease takes the named lease (fence_leases.sql) for holder for ttl if it is free,")
	w.f.Comment("expired or already holder's, and returns its token: strictly greater than every token")
	w.f.Comment("handed out for name before, assigned in the acquiring statement. It returns ErrLeaseHeld")
	w.f.Comment("while another holder's lease is live.")
	w.f.Func().Params(jen.Id("f").Op("*").Id("Fenced")).Id("AcquireLease").
		Params(jen.Id("ctx").Qual("context", "Context"), jen.List(jen.Id("name"), jen.Id("holder")).String(), jen.Id("ttl").Qual("time", "Duration")).Params(jen.Id("Token"), jen.Error()).Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("f").Dot("q").Dot("fencedAcquireLease").Call(jen.Id("ctx"), jen.Id("fencedAcquireLeaseParams").Values(jen.Dict{
			jen.Id("Name"): jen.Id("name"), jen.Id("Holder"): jen.Id("holder"), jen.Id("TtlMs"): ms,
		})),
		jen.If(jen.Qual("errors", "Is").Call(jen.Err(), w.noRows())).Block(jen.Return(jen.Id("Token").Values(), jen.Id("ErrLeaseHeld"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("Token").Values(), jen.Qual("fmt", "Errorf").Call(jen.Lit("acquiring lease %q: %w"), jen.Id("name"), jen.Err()))),
		jen.Return(jen.Id("Token").Values(jen.Id("v")), jen.Nil()),
	)
	for _, op := range []struct{ name, query, doing, doc string }{
		{"RenewLease", "fencedRenewLease", "renewing", "RenewLease extends holder's live lease with token to ttl from now; ErrLeaseLost if it is no longer live."},
		{"ReleaseLease", "fencedReleaseLease", "releasing", "ReleaseLease expires holder's live lease with token (the row stays, so tokens keep growing); ErrLeaseLost if it is no longer live."},
	} {
		params := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.List(jen.Id("name"), jen.Id("holder")).String(), jen.Id("token").Id("Token")}
		values := jen.Dict{jen.Id("Name"): jen.Id("name"), jen.Id("Holder"): jen.Id("holder"), jen.Id("Token"): jen.Id("token").Dot("n")}
		if op.name == "RenewLease" {
			params = append(params, jen.Id("ttl").Qual("time", "Duration"))
			values[jen.Id("TtlMs")] = ms
		}
		w.f.Comment(op.doc)
		w.f.Func().Params(jen.Id("f").Op("*").Id("Fenced")).Id(op.name).Params(params...).Error().Block(
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Id("f").Dot("q").Dot(op.query).Call(jen.Id("ctx"), jen.Id(op.query+"Params").Values(values)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(op.doing+" lease %q: %w"), jen.Id("name"), jen.Err()))),
			jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(jen.Id("ErrLeaseLost"))),
			jen.Return(jen.Nil()),
		)
	}
}

package lease

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// sqlboiler (github.com/aarondl/sqlboiler, formerly
// github.com/volatiletech/sqlboiler) generates a models package from a schema: for each table a
// struct, a query type and the methods that send its SQL. Code writes
// through it in two ways that a fence can live in:
//
//	queries.Raw("UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2", b, tok, id).Exec(db)
//	models.Docs(qm.Where("id = ? AND fence < ?", id, tok)).UpdateAll(ctx, db, models.M{"body": b})
//
// Raw (and RawG) holds SQL text that the Query's Exec, Bind or QueryRow
// send: it is read as that text, as GORM's Raw is. UpdateAll and DeleteAll
// of a table's query type send UPDATE <table> SET <the M's columns> WHERE
// <conditions> (DELETE FROM ...), and return the rows-affected count:
//
//   - the table is the one the query's constructor names: the generated
//     Docs(mods ...qm.QueryMod) docQuery appends qm.From("\"docs\""), which
//     a BoilerQueryFact on the constructor carries to its callers;
//   - the conditions are those of the mods the call of the constructor
//     lists: qm.Where and qm.And joined by AND, qm.Or by OR, qm.WhereIn
//     and its kin, each with its "?" bound to its arguments; mods that add
//     no condition (Limit, OrderBy, Load, ...) add nothing;
//   - any other mod, a list of mods built elsewhere, or a query that comes
//     from anything but a call of a constructor (a relationship method, a
//     parameter) leaves the WHERE clause out of sight.
//
// The per-row methods the models package generates send text of their own
// code and are read there, as any package's writes are: Delete a constant,
// Update and Insert a statement cached in a map of the package
// (sqlmemo.go), whose SET list and primary-key condition strmangle writes
// at run time, read as such (every column set to a value, the key compared
// with one). Upsert's statement is built by a generated builder whose
// conflict clause depends on the caller's updateOnConflict: it is not read,
// and a call of Upsert is no write.

// pkgBoilerQueries is sqlboiler's queries package.
const pkgBoilerQueries = "github.com/aarondl/sqlboiler/queries"

// isBoilerQM reports whether path is that of sqlboiler's query mods
// package, queries/qm, under either module path.
func isBoilerQM(path string) bool {
	p := normalizePath(path)
	return strings.HasSuffix(p, "/qm") && CanonicalPath(strings.TrimSuffix(p, "/qm")) == pkgBoilerQueries
}

// BoilerQueryFact: the function is a sqlboiler constructor of a table's
// query, Docs(mods ...qm.QueryMod) docQuery, which queries Table.
type BoilerQueryFact struct {
	Table string // as the generated code quotes it: "docs", "public"."docs"
}

func (*BoilerQueryFact) AFact()           {}
func (f *BoilerQueryFact) String() string { return "sqlboiler query of " + f.Table }

// boilerCatalog returns the catalog rows of sqlboiler: the functions that
// hold SQL text a Query sends.
func boilerCatalog() []API {
	return []API{
		{Pkg: pkgBoilerQueries, Name: "Raw", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
		{Pkg: pkgBoilerQueries, Name: "RawG", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
	}
}

// exportBoilerQueries exports a BoilerQueryFact for each query constructor
// sqlboiler generated in the package. It reads the syntax alone.
func (b *builder) exportBoilerQueries() {
	if !slices.ContainsFunc(b.pass.Pkg.Imports(), func(p *types.Package) bool { return isBoilerQM(p.Path()) }) {
		return
	}
	for _, file := range b.pass.Files {
		for _, d := range file.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || decl.Recv != nil {
				continue
			}
			fn, ok := b.pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok || !isBoilerConstructor(fn.Signature()) {
				continue
			}
			if table, ok := b.boilerFrom(decl.Body); ok {
				b.pass.ExportObjectFact(fn, &BoilerQueryFact{Table: table})
			}
		}
	}
}

// isBoilerConstructor reports whether sig is that of a query constructor:
// func(mods ...qm.QueryMod) T, T a query type.
func isBoilerConstructor(sig *types.Signature) bool {
	if !sig.Variadic() || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	mods, ok := sig.Params().At(0).Type().(*types.Slice)
	if !ok {
		return false
	}
	elem := mods.Elem()
	return typeName(elem) == "QueryMod" && isBoilerQM(pkgPathOf(elem)) &&
		isBoilerQuery(sig.Results().At(0).Type())
}

// isBoilerQuery reports whether t is a sqlboiler query type: a struct that
// embeds *queries.Query.
func isBoilerQuery(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() && typeName(f.Type()) == "Query" && CanonicalPath(pkgPathOf(f.Type())) == pkgBoilerQueries {
			return true
		}
	}
	return false
}

// boilerFrom returns the table of the one qm.From call in body, when its
// argument is constant.
func (b *builder) boilerFrom(body *ast.BlockStmt) (string, bool) {
	var tables []string
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		fn, ok := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Name() != "From" || !isBoilerQM(fn.Pkg().Path()) {
			return true
		}
		tv := b.pass.TypesInfo.Types[call.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			tables = append(tables, "")
			return true
		}
		tables = append(tables, constant.StringVal(tv.Value))
		return true
	})
	if len(tables) != 1 || tables[0] == "" {
		return "", false
	}
	return tables[0], true
}

// boilerQueryWrite returns the catalog row of a call of a query type's
// UpdateAll or DeleteAll (and their G and P forms), or nil.
func boilerQueryWrite(fn *types.Func) *API {
	recv := fn.Signature().Recv()
	if recv == nil || !isBoilerQuery(recv.Type()) || boilerVerb(fn.Name()) == "" {
		return nil
	}
	return &API{Name: fn.Name(), Role: RoleWrite, System: SQL, Fence: SQLORM}
}

// boilerVerb returns UPDATE or DELETE for the name of a query type's
// UpdateAll or DeleteAll method (UpdateAllG, DeleteAllP, ...), or "".
func boilerVerb(name string) string {
	switch strings.TrimRight(name, "GP") {
	case "UpdateAll":
		return "UPDATE"
	case "DeleteAll":
		return "DELETE"
	}
	return ""
}

// boilerCounts reports whether fn, a query type's UpdateAll or DeleteAll,
// returns the rows-affected count (not generated with --no-rows-affected).
func boilerCounts(fn *types.Func) bool {
	res := fn.Signature().Results()
	if res.Len() == 0 {
		return false
	}
	basic, ok := res.At(0).Type().Underlying().(*types.Basic)
	return ok && basic.Kind() == types.Int64
}

// boiler writes out the statement a query type's UpdateAll or DeleteAll
// call c sends.
func (f *folder) boiler(c *ssa.Call, depth int) (string, bool) {
	fn := calleeFunc(c.Common())
	if fn == nil || boilerQueryWrite(fn) == nil {
		return "", false
	}
	f.seen = true
	table, where := f.boilerQuery(callRecv(c.Common()), depth)
	if boilerVerb(fn.Name()) == "DELETE" {
		return "DELETE FROM " + table + where, true
	}
	set := "x = " + f.hole(nil)
	if cols := boilerColumns(c.Common(), fn); cols != nil {
		set = f.gormSets(cols, depth)
	}
	return "UPDATE " + table + " SET " + set + where, true
}

// boilerColumns returns the M argument of an UpdateAll call: its last
// parameter.
func boilerColumns(c *ssa.CallCommon, fn *types.Func) ssa.Value {
	n := fn.Signature().Params().Len()
	if n == 0 {
		return nil
	}
	return arg(c, n-1)
}

// boilerQuery returns the table a query value queries and the WHERE clause
// its mods make (" WHERE ..."), holes for what is out of sight.
func (f *folder) boilerQuery(q ssa.Value, depth int) (table, where string) {
	ctor := producer(q)
	if ctor == nil {
		return f.hole(nil), " WHERE " + f.hole(nil)
	}
	fn := calleeFunc(ctor.Common())
	var fact BoilerQueryFact
	if fn == nil || !f.b.pass.ImportObjectFact(fn.Origin(), &fact) { // this package's own too: exportBoilerQueries ran first
		return f.hole(nil), " WHERE " + f.hole(nil)
	}
	mods, known := variadic(arg(ctor.Common(), 0))
	if !known {
		return fact.Table, " WHERE " + f.hole(nil)
	}
	var sb strings.Builder
	for _, m := range mods {
		join, cond := f.boilerCond(m, depth)
		if cond == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(join)
		}
		sb.WriteString(cond)
	}
	if sb.Len() == 0 {
		return fact.Table, ""
	}
	return fact.Table, " WHERE " + sb.String()
}

// boilerNoConds are the query mods that add no condition.
var boilerNoConds = map[string]bool{
	"Limit": true, "Offset": true, "OrderBy": true, "GroupBy": true, "Select": true, "Load": true,
	"Distinct": true, "For": true, "Comment": true, "From": true,
}

// boilerCond renders the condition query mod m adds, with the connective
// that joins it to the ones before; "" when it adds none.
func (f *folder) boilerCond(m ssa.Value, depth int) (join, cond string) {
	p := producer(m)
	var fn *types.Func
	if p != nil {
		fn = calleeFunc(p.Common())
	}
	if fn == nil || fn.Pkg() == nil || !isBoilerQM(fn.Pkg().Path()) {
		return " AND ", f.hole(nil)
	}
	name := fn.Name()
	if boilerNoConds[name] {
		return "", ""
	}
	join = " AND "
	if strings.HasPrefix(name, "Or") {
		join = " OR "
	}
	switch name {
	case "Where", "And", "Or", "WhereIn", "AndIn", "OrIn", "WhereNotIn", "AndNotIn", "OrNotIn":
		return join, "(" + f.bind(arg(p.Common(), 0), arg(p.Common(), 1), depth) + ")"
	}
	return join, f.hole(nil)
}

// boilerSession returns the session a sqlboiler call sends its SQL
// through, or nil: the executor an UpdateAll or DeleteAll is handed, or,
// for Raw, the one handed to the Query method that runs it
// (Raw(...).Exec(tx), Raw(...).Bind(ctx, tx, &v)).
func boilerSession(call ssa.CallInstruction) ssa.Value {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	if boilerQueryWrite(fn) != nil {
		return executorArg(call.Common(), fn)
	}
	if fn.Name() != "Raw" || CanonicalPath(fn.Pkg().Path()) != pkgBoilerQueries || call.Value() == nil {
		return nil
	}
	for _, ref := range *call.Value().Referrers() {
		run, ok := ref.(ssa.CallInstruction)
		if !ok || callRecv(run.Common()) != call.Value() {
			continue
		}
		if m := calleeFunc(run.Common()); m != nil {
			if s := executorArg(run.Common(), m); s != nil {
				return s
			}
		}
	}
	return nil
}

// executorArg returns the argument of c that fills fn's boil.Executor or
// boil.ContextExecutor parameter, or nil.
func executorArg(c *ssa.CallCommon, fn *types.Func) ssa.Value {
	params := fn.Signature().Params()
	for i := range params.Len() {
		t := params.At(i).Type()
		if name := typeName(t); (name == "Executor" || name == "ContextExecutor") && strings.HasSuffix(normalizePath(pkgPathOf(t)), "sqlboiler/boil") {
			return unwrap(arg(c, i))
		}
	}
	return nil
}

// strmangle renders the clauses sqlboiler's generated code writes with
// strmangle at run time: WhereClause and WhereClauseRepeated compare the
// columns they are given with placeholders (the primary key, never a
// fence), SetParamNames sets them. Each becomes one column and a value that carries the call.
func (f *folder) strmangle(c *ssa.Call) (string, bool) {
	fn := calleeFunc(c.Common())
	if fn == nil || fn.Pkg() == nil || !strings.HasSuffix(normalizePath(fn.Pkg().Path()), "/strmangle") {
		return "", false
	}
	switch fn.Name() {
	case "WhereClause", "WhereClauseRepeated": // the key of one row, or of each of a slice's
		return "pk = " + f.valueHole(c), true
	case "SetParamNames":
		return "x = " + f.valueHole(c), true
	}
	return "", false
}

// valueHole records v as a run-time value that holds no SQL text.
func (f *folder) valueHole(v ssa.Value) string {
	f.holes = append(f.holes, hole{value: v})
	return sqlscan.HoleMarker(len(f.holes))
}

package lease

import (
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"
)

// ORMs are read like the query builders (sqlbuilders.go): the SQL a write
// sends is written out from the SSA of its call chain and judged as SQL
// text. In GORM the chain is a run of *gorm.DB methods and the verb comes
// last, with the call that sends it:
//
//	db.Model(&Doc{}).Where("id = ? AND fence < ?", id, tok).Updates(m)
//
// reads as "UPDATE docs SET x = <hole m> WHERE id = <hole> AND fence <
// <hole tok>", fenced when the RowsAffected field of the result is read.
// What GORM itself adds is written out too:
//   - Save without Select runs the UPDATE and, when it matches no row,
//     inserts the row over any conflict (ON CONFLICT DO UPDATE SET every
//     column): a fence in its WHERE clause rejects nothing, because the
//     stale holder's row comes back as an upsert;
//   - Clauses(clause.OnConflict{DoNothing: true}) makes a Create an
//     insert-if-absent; UpdateAll or DoUpdates make it an upsert;
//   - Scopes, clause.Where and other clause expressions may add conditions
//     out of sight: the WHERE clause is then unseen;
//   - Delete of a model with a gorm.DeletedAt field, without Unscoped, is
//     a soft delete: UPDATE ... SET deleted_at = now() WHERE ... AND
//     deleted_at IS NULL.
// GORM v1 (github.com/jinzhu/gorm, a Fork of gorm.io/gorm) is read the same
// way, with its differences: Update and UpdateColumn take attrs
// ...interface{} (a column and its value, or one map or struct), and any
// field named DeletedAt makes Delete a soft delete.
// Calls the chain does not know (Order, Limit, Preload, WithContext,
// Session, Debug) add nothing.

// pkgGorm is gorm.io/gorm; pkgGormClause its clause package.
const (
	pkgGorm       = "gorm.io/gorm"
	pkgGormClause = "gorm.io/gorm/clause"
)

// gormWrites are the *gorm.DB methods that send a write built from the
// chain before them.
var gormWrites = []string{"Create", "CreateInBatches", "Save", "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete"}

// ormCatalog returns the catalog rows of the ORMs.
func ormCatalog() []API {
	var c []API
	for _, name := range gormWrites {
		c = append(c, API{Pkg: pkgGorm, Recv: "DB", Name: name, Role: RoleWrite, System: SQL, Fence: SQLORM})
	}
	// Exec sends SQL text; Raw holds text that Scan, Row or Rows send
	// (Raw("SELECT pg_try_advisory_lock(?)", key).Scan(&ok)).
	c = append(c,
		API{Pkg: pkgGorm, Recv: "DB", Name: "Exec", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
		API{Pkg: pkgGorm, Recv: "DB", Name: "Raw", Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: 0},
	)
	return append(c, ormGenericCatalog()...)
}

// ormWrite classifies a write an ORM chain sends.
func (b *builder) ormWrite(w *Write, call ssa.CallInstruction) *Write {
	v := call.Value()
	if v == nil {
		return nil
	}
	w = b.sqlWrite(w, call, v, -1)
	if w == nil || w.Fenced || w.Unchecked {
		return w
	}
	if fn := calleeFunc(call.Common()); fn != nil && fn.Name() == "Save" && b.saveUpdateFenced(v) {
		w.Via = `Save inserts the row over the newer one when its fenced UPDATE matches none; chain Select("*") before Save, or use Updates`
		if normalizePath(fn.Pkg().Path()) != pkgGorm {
			w.Via = `Save inserts the row over the newer one when its fenced UPDATE matches none (GORM v1, even after Select); use Updates`
		}
	}
	return w
}

// saveUpdateFenced reports whether the UPDATE half of a Save is fenced:
// the write would be fenced with Select before it.
func (b *builder) saveUpdateFenced(v ssa.Value) bool {
	f := &folder{b: b, busy: make(map[any]bool), saveSelected: true}
	text := f.fold(v, 0)
	script := b.parseSQL(text, SQL)
	if script.Unknown || len(script.Statements) != 1 {
		return false
	}
	_, fenced := fenceToken(&script.Statements[0], sqlText{text: text, holes: f.holes}, nil, false)
	return fenced
}

// isGormDB reports whether t is *gorm.DB.
func isGormDB(t types.Type) bool {
	return typeName(t) == "DB" && CanonicalPath(pkgPathOf(t)) == pkgGorm
}

// gormCountRead reports whether the rows-affected count of a *gorm.DB
// result is read: its RowsAffected field, or the result handed on (returned,
// passed, stored) to code that may read it. Reading only Error is not
// enough: a fenced write that matched no row has no error.
func gormCountRead(v ssa.Value) bool {
	return countRead(v, 0)
}

func countRead(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 4 {
		return false
	}
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.FieldAddr:
			if fieldName(x.X.Type(), x.Field) == "RowsAffected" {
				return true
			}
		case *ssa.Return, *ssa.Store, *ssa.MakeInterface, *ssa.Send:
			return true
		case *ssa.Phi:
			if countRead(x, depth+1) {
				return true
			}
		case ssa.CallInstruction:
			if fn := calleeFunc(x.Common()); fn == nil || !isGormDB(recvType(fn)) || callRecv(x.Common()) != v {
				return true // handed to a function of the application
			}
		}
	}
	return false
}

// A gormChain is a GORM call chain as far as its SSA shows it.
type gormChain struct {
	table       string
	named       bool         // Table(...) named the table, over any model's
	conds       []string     // ANDed
	ors         []string     // ORed with the ANDed conditions
	conflict    string       // the ON CONFLICT clause of a Create
	selected    bool         // Select(...) chained: Save updates only, never inserts
	unseenWhere bool         // conditions added out of sight (Scopes, clause.Where)
	model       *types.Named // the type Model names
	unscoped    bool         // Unscoped(): a delete deletes even a soft-delete model
	v1          bool         // github.com/jinzhu/gorm, whose soft delete is any DeletedAt field
	locking     string       // the strength of a clause.Locking: UPDATE, SHARE
}

// gorm writes out the SQL a GORM write sends: the finisher c and the chain
// of *gorm.DB methods before it, back to where the *gorm.DB came from.
func (f *folder) gorm(c *ssa.Call, depth int) (string, bool) {
	fin := calleeFunc(c.Common())
	if fin != nil && isGormGeneric(recvType(fin)) {
		return f.gormGeneric(c, depth)
	}
	if fin == nil || !isGormDB(recvType(fin)) || !slices.Contains(gormWrites, fin.Name()) {
		return "", false
	}
	g := f.gormChainOf(c, fin, depth)
	f.seen = true
	return f.gormStatement(g, fin.Name(), c.Common(), depth), true
}

// gormChainOf reads the chain of *gorm.DB methods before the finisher c
// (fin), back to where the *gorm.DB came from.
func (f *folder) gormChainOf(c *ssa.Call, fin *types.Func, depth int) *gormChain {
	var chain []*ssa.CallCommon
	for v := callRecv(c.Common()); len(chain) < 64; {
		p := producer(f.through(v))
		if p == nil {
			break // the *gorm.DB came from a parameter, a field or a branch
		}
		fn := calleeFunc(p.Common())
		if fn == nil || !isGormDB(recvType(fn)) {
			break
		}
		chain = append(chain, p.Common())
		v = callRecv(p.Common())
	}
	g := &gormChain{v1: normalizePath(fin.Pkg().Path()) != pkgGorm}
	for i := len(chain) - 1; i >= 0; i-- {
		f.gormClause(g, chain[i], depth)
	}
	return g
}

// gormFinders are the *gorm.DB methods that send a SELECT built from the
// chain before them.
var gormFinders = []string{"First", "Take", "Last", "Find", "Scan"}

// gormLockingRead writes out the SELECT a GORM finder sends when its chain
// locks the rows it reads (Clauses(clause.Locking{Strength: "UPDATE"})),
// or the text Raw holds when Scan sends it; ok is false for other calls.
func (f *folder) gormLockingRead(c *ssa.Call, depth int) (string, bool) {
	fin := calleeFunc(c.Common())
	if fin == nil || !isGormDB(recvType(fin)) || !slices.Contains(gormFinders, fin.Name()) {
		return "", false
	}
	if raw := producer(f.through(callRecv(c.Common()))); fin.Name() == "Scan" && raw != nil && calleeName(raw.Common()) == "Raw" {
		return f.fold(arg(raw.Common(), 0), depth+1), true
	}
	g := f.gormChainOf(c, fin, depth)
	if g.locking == "" {
		return "", false
	}
	table := g.table
	if table == "" {
		table = f.b.modelTable(arg(c.Common(), 0))
	}
	f.seen = true
	return "SELECT * FROM " + table + f.gormWhere(g, "") + " FOR " + g.locking, true
}

// gormClause adds one chained *gorm.DB call to g.
func (f *folder) gormClause(g *gormChain, c *ssa.CallCommon, depth int) {
	switch calleeFunc(c).Name() {
	case "Model":
		g.table = f.b.modelTable(arg(c, 0))
		g.model = modelType(arg(c, 0))
	case "Unscoped":
		g.unscoped = true
	case "Table":
		g.table = f.fold(arg(c, 0), depth+1)
		g.named = true
	case "Where":
		g.conds = append(g.conds, f.gormCond(arg(c, 0), arg(c, 1), depth))
	case "Not":
		g.conds = append(g.conds, "NOT "+f.gormCond(arg(c, 0), arg(c, 1), depth))
	case "Or":
		g.ors = append(g.ors, f.gormCond(arg(c, 0), arg(c, 1), depth))
	case "Select":
		g.selected = true
	case "Scopes":
		g.unseenWhere = true
	case "Clauses":
		exprs, known := variadic(arg(c, 0))
		if !known {
			g.unseenWhere = true
		}
		for _, e := range exprs {
			f.gormExpr(g, e, depth)
		}
	}
}

// gormExpr adds a clause expression passed to Clauses.
func (f *folder) gormExpr(g *gormChain, e ssa.Value, depth int) {
	e = unwrap(e)
	if normalizePath(pkgPathOf(e.Type())) != pkgGormClause {
		g.unseenWhere = true
		return
	}
	switch typeName(e.Type()) {
	case "OnConflict":
		fields := structLiteral(e)
		if fields == nil {
			g.conflict = " ON CONFLICT DO UPDATE SET x = " + f.hole(nil) // built elsewhere
			return
		}
		if v, ok := fields["DoNothing"]; ok && isTrue(v) {
			g.conflict = " ON CONFLICT DO NOTHING"
			return
		}
		g.conflict = " ON CONFLICT DO UPDATE SET x = excluded.x"
		// A condition on the conflicting row: a fence there rejects a stale
		// holder. The literal is built in place (Where: clause.Where{Exprs:
		// ...}) or stored whole.
		if exprs, ok := literalPaths(e)["Where.Exprs"]; ok {
			g.conflict += " WHERE " + f.gormClauseExprs(exprs, depth)
		} else if w, ok := fields["Where"]; ok {
			g.conflict += " WHERE " + f.gormClauseWhere(w, depth)
		}
	case "Locking":
		if strength, ok := constString(structLiteral(e)["Strength"]); ok {
			g.locking = strength // UPDATE, SHARE, NO KEY UPDATE
		}
	case "Returning":
	default:
		g.unseenWhere = true
	}
}

// gormClauseWhere renders a clause.Where literal: its expressions ANDed,
// or a hole when they were built out of sight.
func (f *folder) gormClauseWhere(w ssa.Value, depth int) string {
	fields := structLiteral(w)
	if fields == nil || fields["Exprs"] == nil {
		return f.hole(nil)
	}
	return f.gormClauseExprs(fields["Exprs"], depth)
}

// gormClauseExprs renders a []clause.Expression literal, ANDed.
func (f *folder) gormClauseExprs(v ssa.Value, depth int) string {
	exprs := sliceElems(unwrap(v))
	if len(exprs) == 0 {
		return f.hole(nil)
	}
	var parts []string
	for _, e := range exprs {
		parts = append(parts, f.gormClauseExpr(e, depth))
	}
	return strings.Join(parts, " AND ")
}

// gormComparisons are clause's comparison expressions and their operators.
var gormComparisons = map[string]string{"Eq": "=", "Neq": "<>", "Lt": "<", "Lte": "<=", "Gt": ">", "Gte": ">="}

// gormClauseExpr renders one clause expression: clause.Expr{SQL, Vars} or
// gorm.Expr(sql, vars...), a comparison (clause.Lt{Column: "fence",
// Value: tok}), or a hole that may hold any condition.
func (f *folder) gormClauseExpr(e ssa.Value, depth int) string {
	e = unwrap(e)
	if p := producer(e); p != nil {
		if fn := calleeFunc(p.Common()); fn != nil && fn.Pkg() != nil && CanonicalPath(fn.Pkg().Path()) == pkgGorm && fn.Name() == "Expr" {
			return "(" + f.bind(arg(p.Common(), 0), arg(p.Common(), 1), depth) + ")"
		}
	}
	if normalizePath(pkgPathOf(e.Type())) != pkgGormClause {
		return f.hole(nil)
	}
	fields := structLiteral(e)
	if fields == nil {
		return f.hole(nil)
	}
	name := typeName(e.Type())
	if name == "Expr" {
		if fields["SQL"] == nil {
			return f.hole(nil)
		}
		return "(" + f.bind(fields["SQL"], fields["Vars"], depth) + ")"
	}
	op, ok := gormComparisons[name]
	if !ok || fields["Column"] == nil || fields["Value"] == nil {
		return f.hole(nil)
	}
	col, ok := constString(unwrap(fields["Column"]))
	if !ok {
		if c := structLiteral(fields["Column"]); c != nil && c["Name"] != nil { // clause.Column{Name: "fence"}
			col, ok = constString(c["Name"])
		}
	}
	if !ok {
		return f.hole(nil)
	}
	return "(" + col + " " + op + " " + f.hole(unwrap(fields["Value"])) + ")"
}

// literalPaths returns what a struct literal v is a load of holds in its
// nested literals, by dotted path ("Where.Exprs"), or nil when v was not
// built here.
func literalPaths(v ssa.Value) map[string]ssa.Value {
	x, ok := unwrap(v).(*ssa.UnOp)
	if !ok {
		return nil
	}
	alloc, ok := x.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	paths := make(map[string]ssa.Value)
	var walk func(ptr ssa.Value, prefix string, depth int)
	walk = func(ptr ssa.Value, prefix string, depth int) {
		if depth > 4 || ptr.Referrers() == nil {
			return
		}
		for _, ref := range *ptr.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || fa.X != ptr {
				continue
			}
			name := prefix + fieldName(fa.X.Type(), fa.Field)
			for _, r := range *fa.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
					paths[name] = unwrap(st.Val)
				}
			}
			walk(fa, name+".", depth+1)
		}
	}
	walk(alloc, "", 0)
	return paths
}

// structLiteral returns the fields stored into a struct literal v is a
// load of, or nil when v was not built here.
func structLiteral(v ssa.Value) map[string]ssa.Value {
	switch x := unwrap(v).(type) {
	case *ssa.UnOp:
		if alloc, ok := x.X.(*ssa.Alloc); ok {
			return storedFields(alloc)
		}
	case *ssa.Const:
		return map[string]ssa.Value{} // the zero value
	}
	return nil
}

// isTrue reports whether v is the constant true.
func isTrue(v ssa.Value) bool {
	c, ok := unwrap(v).(*ssa.Const)
	return ok && c.Value != nil && c.Value.String() == "true"
}

// gormCond renders a Where, Not or Or condition: SQL text with "?"
// placeholders bound to args, a map of columns to values, a struct (its
// non-zero fields compared for equality), or a hole that may hold any
// condition.
func (f *folder) gormCond(query, args ssa.Value, depth int) string {
	inner := unwrap(query)
	if isString(inner.Type()) {
		return "(" + f.bind(inner, args, depth) + ")"
	}
	if normalizePath(pkgPathOf(inner.Type())) == pkgGormClause { // gorm.Expr("fence < ?", tok), clause.Lt{...}
		return f.gormClauseExpr(inner, depth)
	}
	mm := makeMapOf(inner)
	if mm == nil {
		mm = returnedMap(inner)
	}
	if mm != nil {
		var parts []string
		for _, u := range mapUpdates(mm) {
			col, ok := constString(u.Key)
			if !ok {
				return f.hole(nil)
			}
			parts = append(parts, col+" = "+f.hole(unwrap(u.Value)))
		}
		if len(parts) > 0 {
			return "(" + strings.Join(parts, " AND ") + ")"
		}
	}
	if isStruct(inner.Type()) {
		return "(id = " + f.hole(inner) + ")" // equality on the struct's fields: never a fence
	}
	return f.hole(nil)
}

// returnedMap returns the map literal that the function called to make v
// always returns (Where(s.keyOf(ns, name)) with keyOf returning
// map[string]any{"ns": ns, "name": name}), or nil.
func returnedMap(v ssa.Value) *ssa.MakeMap {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	return alwaysReturned(call.Call.StaticCallee(), makeMapOf)
}

// isStruct reports whether t is a struct or a pointer to one.
func isStruct(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// gormStatement renders the statement the finisher name sends.
func (f *folder) gormStatement(g *gormChain, name string, c *ssa.CallCommon, depth int) string {
	table := g.table
	if table == "" || !g.named && (name == "Create" || name == "CreateInBatches" || name == "Save") {
		if t := f.b.modelTable(arg(c, 0)); t != "x" || table == "" {
			table = t
		}
	}
	switch name {
	case "Create", "CreateInBatches":
		return "INSERT INTO " + table + " (x) VALUES (" + f.hole(unwrap(arg(c, 0))) + ")" + g.conflict
	case "Save":
		update := "UPDATE " + table + " SET x = " + f.hole(unwrap(arg(c, 0))) + f.gormWhere(g, "id = "+f.hole(unwrap(arg(c, 0))))
		if g.selected && !g.v1 || f.saveSelected { // GORM v1's Save inserts whatever was selected
			return update
		}
		return update + "; INSERT INTO " + table + " (x) VALUES (" + f.hole(unwrap(arg(c, 0))) + ") ON CONFLICT (id) DO UPDATE SET x = excluded.x"
	case "Update", "UpdateColumn":
		return "UPDATE " + table + " SET " + f.gormUpdateSet(c, depth) + f.gormWhere(g, "")
	case "Updates", "UpdateColumns":
		return "UPDATE " + table + " SET " + f.gormSets(arg(c, 0), depth) + f.gormWhere(g, "")
	case "Delete":
		inline := ""
		if conds, known := variadic(arg(c, 1)); known && len(conds) > 0 {
			if q := unwrap(conds[0]); isString(q.Type()) {
				inline = "(" + f.bindValues(f.fold(q, depth+1), conds[1:], true) + ")"
			} else {
				inline = "id = " + f.hole(q) // primary keys
			}
		} else if !known {
			inline = f.hole(nil)
		}
		model := g.model
		if model == nil {
			model = modelType(arg(c, 0))
		}
		tag := "gorm"
		if g.v1 {
			tag = "gormv1"
		}
		if col := softDeleteColumn(model, tag); col != "" && !g.unscoped {
			// A model with a gorm.DeletedAt field (GORM v1: any DeletedAt
			// field) is deleted by stamping it.
			unstamped := col + " IS NULL"
			if inline != "" {
				unstamped = inline + " AND " + unstamped
			}
			return "UPDATE " + table + " SET " + col + " = now()" + f.gormWhere(g, unstamped)
		}
		return "DELETE FROM " + table + f.gormWhere(g, inline)
	}
	return ""
}

// gormUpdateSet renders the assignment of Update or UpdateColumn: a column
// and its value, or, in GORM v1, whose Update(attrs ...interface{}) also
// takes one map or struct, what Updates would set.
func (f *folder) gormUpdateSet(c *ssa.CallCommon, depth int) string {
	if !calleeFunc(c).Signature().Variadic() {
		return f.fold(arg(c, 0), depth+1) + " = " + f.gormValue(arg(c, 1), depth)
	}
	attrs, known := variadic(arg(c, 0))
	switch {
	case known && len(attrs) == 2:
		return f.fold(unwrap(attrs[0]), depth+1) + " = " + f.gormValue(attrs[1], depth)
	case known && len(attrs) == 1:
		return f.gormSets(attrs[0], depth)
	}
	return "x = " + f.hole(nil)
}

// gormSets renders the assignments of Updates: a map literal's constant
// keys, or one column for a struct or a map built elsewhere.
func (f *folder) gormSets(v ssa.Value, depth int) string {
	if mm := makeMapOf(unwrap(v)); mm != nil {
		var parts []string
		for _, u := range mapUpdates(mm) {
			col, ok := constString(u.Key)
			if !ok {
				break
			}
			parts = append(parts, col+" = "+f.gormValue(u.Value, depth))
		}
		if len(parts) > 0 {
			return strings.Join(parts, ", ")
		}
	}
	return "x = " + f.hole(unwrap(v))
}

// gormValue renders a value an update assigns: the SQL of a gorm.Expr
// with its arguments bound (gorm.Expr("stocks - ?", n) is stocks - n),
// or a hole for any other value.
func (f *folder) gormValue(v ssa.Value, depth int) string {
	v = unwrap(v)
	if p := producer(v); p != nil {
		if fn := calleeFunc(p.Common()); fn != nil && fn.Pkg() != nil && CanonicalPath(fn.Pkg().Path()) == pkgGorm && fn.Name() == "Expr" {
			return f.bind(arg(p.Common(), 0), arg(p.Common(), 1), depth)
		}
	}
	return f.hole(v)
}

// gormWhere renders the WHERE clause of an update or delete: the chain's
// conditions and extra (inline conditions, the primary key of Save).
func (f *folder) gormWhere(g *gormChain, extra string) string {
	conds := g.conds
	if extra != "" {
		conds = append(conds[:len(conds):len(conds)], extra)
	}
	if g.unseenWhere {
		conds = append(conds[:len(conds):len(conds)], f.hole(nil))
	}
	if len(conds) == 0 && len(g.ors) == 0 {
		return ""
	}
	where := strings.Join(conds, " AND ")
	if len(g.ors) > 0 {
		if where == "" {
			where = "TRUE"
		}
		where = "(" + where + ") OR " + strings.Join(g.ors, " OR ")
	}
	return " WHERE " + where
}

// modelTable names the table of a model value as the ORMs' default naming
// does (Doc → docs, JobRun → job_runs), by bun's `bun:"table:name"` tag,
// or by a TableName method (GORM) that returns a constant, declared in the
// package or in another (TextFact).
func (b *builder) modelTable(model ssa.Value) string {
	if model == nil {
		return "x"
	}
	return b.modelTableOf(unwrap(model).Type())
}

// modelTableOf names the table of model type t (modelTable).
func (b *builder) modelTableOf(t types.Type) string {
	named := modelNamed(t)
	if named == nil {
		return "x"
	}
	if name, ok := b.declaredTableName(named); ok {
		return name
	}
	if name, ok := taggedTableName(named); ok {
		return name
	}
	return plural(snake(named.Obj().Name()))
}

// declaredTableName returns what a TableName method returns: one of the
// package, folded, or one of another package that returns a constant
// (TextFact).
func (b *builder) declaredTableName(named *types.Named) (string, bool) {
	obj, _, _ := types.LookupFieldOrMethod(named, true, named.Obj().Pkg(), "TableName")
	m, ok := obj.(*types.Func)
	if !ok {
		return "", false
	}
	if m.Pkg() != b.pass.Pkg {
		return b.importedText(m)
	}
	for _, fn := range b.funcs {
		if fn.Object() == m {
			f := &folder{b: b, busy: make(map[any]bool)}
			return f.returned(fn, nil, 0)
		}
	}
	return "", false
}

// modelType returns the struct type of a model value (&Job{}, []Job,
// (*Job)(nil)), or nil.
func modelType(model ssa.Value) *types.Named {
	if model == nil {
		return nil
	}
	return modelNamed(unwrap(model).Type())
}

// modelNamed returns the named struct type under a model's pointers and
// slices, or nil.
func modelNamed(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	for {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		}
		break
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// softDeleteColumn names the soft-delete column of a model, or "": bun's
// `bun:",soft_delete"` field (named by the tag or by the field), or a
// field of GORM's gorm.DeletedAt type (named by `gorm:"column:x"` or by the
// field), when tag is "gorm", or a field named DeletedAt of any type, when
// tag is "gormv1" (GORM v1). Embedded structs are searched too.
func softDeleteColumn(named *types.Named, tag string) string {
	if named == nil {
		return ""
	}
	return softDeleteIn(named, tag, 0)
}

func softDeleteIn(t types.Type, tag string, depth int) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return ""
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		opts := strings.Split(reflect.StructTag(st.Tag(i)).Get(tag), ",")
		switch {
		case tag == "bun" && slices.Contains(opts[1:], "soft_delete"):
			if opts[0] != "" && !strings.Contains(opts[0], ":") {
				return opts[0]
			}
			return snake(f.Name())
		case tag == "gorm" && isNamed(f.Type(), pkgGorm, "DeletedAt"),
			tag == "gormv1" && f.Name() == "DeletedAt" && !f.Embedded():
			for _, o := range strings.Split(reflect.StructTag(st.Tag(i)).Get("gorm"), ";") {
				if col, ok := strings.CutPrefix(o, "column:"); ok && col != "" {
					return col
				}
			}
			return snake(f.Name())
		case f.Embedded():
			ft := f.Type()
			if p, ok := ft.Underlying().(*types.Pointer); ok {
				ft = p.Elem()
			}
			if col := softDeleteIn(ft, tag, depth+1); col != "" {
				return col
			}
		}
	}
	return ""
}

// taggedTableName reads bun's table tag: `bun:"table:jobs,alias:j"`.
func taggedTableName(named *types.Named) (string, bool) {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := range st.NumFields() {
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		if name, ok := strings.CutPrefix(tag, "table:"); ok {
			name, _, _ = strings.Cut(name, ",")
			return name, name != ""
		}
	}
	return "", false
}

// snake turns a Go name into snake case: JobRun → job_run, HTTPLog → http_log.
func snake(name string) string {
	var sb strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				sb.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// plural makes a table name plural the common English way.
func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	}
	return s + "s"
}

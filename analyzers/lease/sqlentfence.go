package lease

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// An ent write is judged at the application's call of the generated
// builder, where its chain shows what the generated code leaves to run
// time (sqlent.go):
//
//	client.Doc.UpdateOneID(id).Where(doc.FenceLT(tok)).SetBody(b).SetFence(tok).Save(ctx)
//
// is written out as "UPDATE docs SET body = <b>, fence = <tok> WHERE id =
// <id> AND fence < <tok>" and judged as SQL text (the fence, a keyed state
// transition, an optimistic version). The generated predicate functions
// (doc.FenceLT) name their column by the package's Field constant
// (doc.FieldFence); a predicate fencelint cannot read (doc.And, a custom
// one) leaves the WHERE clause unseen. A fence or a version only fences
// when the holder learns that it lost:
//   - UpdateOne and DeleteOne fail with a *NotFoundError when no row
//     matches: their error must be read (SaveX and ExecX panic on it);
//   - Update and Delete return the count of rows: it must be read (Update's
//     Exec drops it).
// A Create is an INSERT that only adds a row; OnConflict(...).DoNothing()
// or Ignore() makes it insert-if-absent, any other OnConflict an upsert. A
// builder that comes from a parameter or a field, not from the client in
// the same chain, is read as unseen.

// entKind is what an ent builder type does.
type entKind uint8

const (
	entNone entKind = iota
	entCreate
	entCreateBulk
	entUpsert // DocUpsertOne, DocUpsertBulk
	entUpdate
	entUpdateOne
	entDelete
	entDeleteOne
)

// entBuilder returns the kind of the generated ent builder fn is a method
// of, and the entity's name ("Doc"), or entNone.
func entBuilder(fn *types.Func) (entKind, string) {
	named, ok := types.Unalias(derefType(recvType(fn))).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !importsPath(named.Obj().Pkg(), pkgSqlgraph) {
		return entNone, ""
	}
	name := named.Obj().Name()
	for _, k := range []struct {
		suffix string
		kind   entKind
	}{
		{"UpsertOne", entUpsert}, {"UpsertBulk", entUpsert}, {"CreateBulk", entCreateBulk}, {"Create", entCreate},
		{"UpdateOne", entUpdateOne}, {"Update", entUpdate}, {"DeleteOne", entDeleteOne}, {"Delete", entDelete},
	} {
		if entity, ok := strings.CutSuffix(name, k.suffix); ok && entity != "" {
			return k.kind, entity
		}
	}
	return entNone, ""
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func importsPath(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// entAdvice says how to fence an ent update or delete, entCreateAdvice an
// ent create.
const (
	entAdvice = "fence it: add Where(<entity>.FenceLT(token)) (and SetFence(token)) with the lease's token, " +
		"and abort when it reports no row (ent.IsNotFound for UpdateOne, a count of 0 for Update)"
	entCreateAdvice = "make it insert-if-absent (OnConflict(...).DoNothing()), or create it in a transaction " +
		"with a fenced update (Where(<entity>.FenceLT(token)))"
)

// entVerb names the statement a builder of kind sends.
func entVerb(kind entKind) string {
	switch kind {
	case entUpdate, entUpdateOne:
		return "UPDATE"
	case entDelete, entDeleteOne:
		return "DELETE FROM"
	}
	return "INSERT INTO"
}

// entCall judges w, a call of a generated ent builder's Save or Exec that
// writes (its WritesFact), from the builder chain before it.
func (b *builder) entCall(w *Write, call ssa.CallInstruction, fn *types.Func, kind entKind, entity string) *Write {
	w.Advice = entAdvice
	if kind == entCreate || kind == entCreateBulk || kind == entUpsert {
		w.Advice = entCreateAdvice
	}
	// Named as the application calls it, with the statement: the generated
	// methods between it and sqlgraph mean nothing to a reader.
	if fields := entFieldsPkg(fn, entity); fields != nil {
		if table, ok := constOf(fields, "Table"); ok {
			w.What = fmt.Sprintf("%s.%s (%s %s)", fn.Pkg().Name(), shortName(fn), entVerb(kind), table)
			w.Via = ""
		}
	}
	c, ok := call.(*ssa.Call)
	if !ok {
		return w
	}
	ch, ok := b.entChain(c, fn, kind, entity)
	if !ok {
		if kind == entUpdate || kind == entUpdateOne || kind == entDelete || kind == entDeleteOne {
			w.Unseen = "Where predicates (the ent builder is made out of sight)"
		}
		return w
	}
	text, ok := ch.sqlText()
	if !ok {
		return w
	}
	what, alt := w.What, *w
	r := b.sqlTextWrite(&alt, call, text, -1)
	if r == nil {
		return w
	}
	*w = *r
	w.What = what
	// A fence relies on the outcome (RowsCAS; Unchecked where the call is
	// named Exec and its result dropped, as database/sql's would be): ent
	// reports it as an error or a count, not as RowsAffected.
	if w.Fenced && w.RowsCAS || w.Unchecked {
		w.Fenced, w.Unchecked = true, false
		if !entOutcomeRead(c, fn, kind) {
			w.Fenced, w.Unchecked, w.Outcome = false, true, "error (a *NotFoundError when no row matches)"
			if kind == entUpdate || kind == entDelete {
				w.Outcome = "count of rows"
			}
		}
	}
	w.RowsCAS = false // its outcome is an error or a count, not RowsAffected (casfence.go)
	return w
}

// entOutcomeRead reports whether the caller learns that an ent write
// matched no row: UpdateOne's and DeleteOne's error read (SaveX and ExecX
// panic), Update's and Delete's count read.
func entOutcomeRead(c *ssa.Call, fn *types.Func, kind entKind) bool {
	if strings.HasSuffix(fn.Name(), "X") && (kind == entUpdateOne || kind == entDeleteOne) {
		return true
	}
	res := c.Call.Signature().Results()
	want := res.Len() - 1 // the error
	if kind == entUpdate || kind == entDelete {
		if res.Len() == 0 || !isInt(res.At(0).Type()) {
			return false // Update's Exec: the count is dropped
		}
		want = 0
	}
	if want < 0 {
		return false
	}
	if res.Len() == 1 {
		return valueRead(c)
	}
	for _, ref := range referrers(c) {
		if ext, ok := ref.(*ssa.Extract); ok && ext.Index == want && valueRead(ext) {
			return true
		}
	}
	return false
}

func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// valueRead reports whether v is used at all.
func valueRead(v ssa.Value) bool {
	for _, ref := range referrers(v) {
		if _, debug := ref.(*ssa.DebugRef); !debug {
			return true
		}
	}
	return false
}

// An entChain is an ent builder chain as far as its SSA shows it.
type entChain struct {
	kind    entKind
	table   string
	cols    []string // the columns set, in order
	vals    []string // their values: "<hole>", "NULL", "fence + <hole>"
	conds   []string // ANDed
	holes   []hole
	upsert  string // "", "DO NOTHING", "DO UPDATE"
	unknown bool   // a predicate fencelint cannot read
}

// entChain reads the builder chain that ends in the call c of fn: back
// through the builder's own methods to the client method that made it.
func (b *builder) entChain(c *ssa.Call, fn *types.Func, kind entKind, entity string) (*entChain, bool) {
	fields := entFieldsPkg(fn, entity)
	if fields == nil {
		return nil, false
	}
	table, ok := constOf(fields, "Table")
	if !ok {
		return nil, false
	}
	ch := &entChain{kind: kind, table: table}
	for v, n := callRecv(c.Common()), 0; n < 64; n++ {
		p := producer(v)
		if p == nil {
			return nil, false // a parameter, a field, a phi: made out of sight
		}
		m := calleeFunc(p.Common())
		if m == nil {
			return nil, false
		}
		mk, me := entBuilder(m)
		switch {
		case me == entity && mk != entNone:
			ch.step(fields, m, p.Common())
			v = callRecv(p.Common())
			continue
		case me == "" && strings.HasSuffix(receiverName(m), entity+"Client"):
			return ch, ch.start(m, p.Common())
		}
		return nil, false
	}
	return nil, false
}

// entFieldsPkg returns the generated package of the entity's constants
// (entity Doc: package doc, with Table and FieldBody), among the imports
// of the builder's package.
func entFieldsPkg(fn *types.Func, entity string) *types.Package {
	for _, imp := range fn.Pkg().Imports() {
		if imp.Name() == strings.ToLower(entity) && imp.Scope().Lookup("Table") != nil {
			return imp
		}
	}
	return nil
}

// constOf returns the string constant name of pkg.
func constOf(pkg *types.Package, name string) (string, bool) {
	c, ok := pkg.Scope().Lookup(name).(*types.Const)
	if !ok || c.Val().Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Val()), true
}

// step adds one chained builder call to ch.
func (ch *entChain) step(fields *types.Package, m *types.Func, c *ssa.CallCommon) {
	name := m.Name()
	switch {
	case name == "Where":
		elems, ok := variadic(arg(c, 0))
		if !ok {
			ch.unknown = true
		}
		for _, e := range elems {
			ch.pred(fields, e)
		}
	case name == "DoNothing" || name == "Ignore":
		if ch.upsert == "" {
			ch.upsert = "DO NOTHING"
		}
	case name == "OnConflict" || name == "OnConflictColumns":
		if ch.upsert == "" {
			ch.upsert = "DO UPDATE"
		}
		if elems, _ := variadic(arg(c, 0)); name == "OnConflict" && len(elems) > 0 && onlyDoNothing(elems) {
			ch.upsert = "DO NOTHING"
		}
	case strings.HasPrefix(name, "SetNillable"):
		ch.set(fields, strings.TrimPrefix(name, "SetNillable"), "%s", arg(c, 0))
	case strings.HasPrefix(name, "Set"):
		ch.set(fields, strings.TrimPrefix(name, "Set"), "%s", arg(c, 0))
	case strings.HasPrefix(name, "Add"):
		ch.set(fields, strings.TrimPrefix(name, "Add"), "+", arg(c, 0))
	case strings.HasPrefix(name, "Clear"):
		ch.set(fields, strings.TrimPrefix(name, "Clear"), "NULL", nil)
	}
}

// onlyDoNothing reports whether every conflict option is sql.DoNothing()
// or sql.ResolveWithIgnore().
func onlyDoNothing(opts []ssa.Value) bool {
	for _, o := range opts {
		p := producer(o)
		if p == nil {
			return false
		}
		f := calleeFunc(p.Common())
		if f == nil || f.Pkg() == nil || f.Pkg().Path() != "entgo.io/ent/dialect/sql" ||
			f.Name() != "DoNothing" && f.Name() != "ResolveWithIgnore" && f.Name() != "ConflictColumns" {
			return false
		}
	}
	return true
}

// set records the column the field a setter names is given (form "%s":
// the value, "+": added to it, "NULL": cleared), when the package has the
// field's column.
func (ch *entChain) set(fields *types.Package, field, form string, v ssa.Value) {
	col, ok := constOf(fields, "Field"+field)
	if !ok {
		return // an edge (AddTagIDs) or an unknown setter
	}
	val := "NULL"
	switch form {
	case "%s":
		val = ch.hole(v)
	case "+":
		val = col + " + " + ch.hole(v)
	}
	ch.cols, ch.vals = append(ch.cols, col), append(ch.vals, val)
}

// entOps returns the generated predicates' suffixes and their SQL
// operators, longest first.
func entOps() []struct{ suffix, op string } {
	return []struct{ suffix, op string }{
		{"NotNil", "IS NOT NULL"}, {"IsNil", "IS NULL"}, {"GTE", ">="}, {"LTE", "<="}, {"NEQ", "<>"},
		{"EQ", "="}, {"GT", ">"}, {"LT", "<"},
	}
}

// pred adds one Where predicate: a generated one (doc.FenceLT(tok)) as a
// comparison, any other as an unseen condition.
func (ch *entChain) pred(fields *types.Package, v ssa.Value) {
	p := producer(v)
	var f *types.Func
	if p != nil {
		f = calleeFunc(p.Common())
	}
	if f == nil || f.Pkg() != fields || recvType(f) != nil {
		ch.unknown = true
		return
	}
	field, op := f.Name(), "="
	for _, o := range entOps() {
		if rest, ok := strings.CutSuffix(field, o.suffix); ok && rest != "" {
			field, op = rest, o.op
			break
		}
	}
	col, ok := constOf(fields, "Field"+field)
	if !ok {
		ch.unknown = true // And, Or, Not, HasEdge, a field's In or Contains
		return
	}
	if strings.HasPrefix(op, "IS") {
		ch.conds = append(ch.conds, col+" "+op)
		return
	}
	ch.conds = append(ch.conds, col+" "+op+" "+ch.hole(arg(p.Common(), 0)))
}

// start reads the client method that made the builder: UpdateOneID(id)
// and DeleteOneID(id) select the row by its key.
func (ch *entChain) start(m *types.Func, c *ssa.CallCommon) bool {
	switch m.Name() {
	case "UpdateOneID", "DeleteOneID":
		ch.conds = append(ch.conds, "id = "+ch.hole(arg(c, 0)))
	case "UpdateOne", "DeleteOne":
		ch.conds = append(ch.conds, "id = "+ch.hole(nil))
	case "Create", "Update", "Delete", "CreateBulk":
	default:
		return false
	}
	return true
}

// hole records v as a run-time value and returns its marker.
func (ch *entChain) hole(v ssa.Value) string {
	ch.holes = append(ch.holes, hole{value: v})
	return sqlscan.HoleMarker(len(ch.holes))
}

// sqlText writes the chain out as the statement ent sends.
func (ch *entChain) sqlText() (sqlText, bool) {
	var s strings.Builder
	switch ch.kind {
	case entCreate, entCreateBulk, entUpsert:
		s.WriteString("INSERT INTO " + ch.table)
		if len(ch.cols) == 0 {
			s.WriteString(" DEFAULT VALUES")
		} else {
			s.WriteString(" (" + strings.Join(ch.cols, ", ") + ") VALUES (" + strings.Join(ch.vals, ", ") + ")")
		}
		switch ch.upsert {
		case "DO NOTHING":
			s.WriteString(" ON CONFLICT DO NOTHING")
		case "DO UPDATE":
			return sqlText{}, false // an upsert: the plain write the generated code makes
		}
		return sqlText{text: s.String(), holes: ch.holes}, true
	case entUpdate, entUpdateOne:
		if len(ch.cols) == 0 {
			return sqlText{}, false // no UPDATE at all: ent only checks the row exists
		}
		var sets []string
		for i, col := range ch.cols {
			sets = append(sets, col+" = "+ch.vals[i])
		}
		s.WriteString("UPDATE " + ch.table + " SET " + strings.Join(sets, ", "))
	case entDelete, entDeleteOne:
		s.WriteString("DELETE FROM " + ch.table)
	default:
		return sqlText{}, false
	}
	conds := ch.conds
	if ch.unknown {
		conds = append(conds, ch.hole(nil)) // a text hole: a condition out of sight
		ch.holes[len(ch.holes)-1].text = true
	}
	if len(conds) > 0 {
		s.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
	return sqlText{text: s.String(), holes: ch.holes}, true
}

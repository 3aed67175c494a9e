package lease

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
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
// of, and the entity's name ("Doc"), or entNone. via is what fn's write
// fact says it writes with: a package loaded from export data (go vet)
// may not list all its imports, but its fact names the sqlgraph call.
func entBuilder(fn *types.Func, via string) (entKind, string) {
	named, ok := types.Unalias(derefType(recvType(fn))).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return entNone, ""
	}
	if !importsPath(named.Obj().Pkg(), pkgSqlgraph) && !strings.HasPrefix(via, "sqlgraph.") {
		return entNone, ""
	}
	entity := entEntity(named.Obj().Name())
	return entKindOf(named.Obj().Name(), entity), entity
}

// entSuffixes returns the generated builders' type name suffixes and
// kinds, longest first.
func entSuffixes() []struct {
	suffix string
	kind   entKind
} {
	return []struct {
		suffix string
		kind   entKind
	}{
		{"UpsertOne", entUpsert}, {"UpsertBulk", entUpsert}, {"CreateBulk", entCreateBulk}, {"Create", entCreate},
		{"UpdateOne", entUpdateOne}, {"Update", entUpdate}, {"DeleteOne", entDeleteOne}, {"Delete", entDelete},
	}
}

// entEntity returns the entity a builder type's name is for (DocUpdateOne:
// Doc), or "".
func entEntity(name string) string {
	for _, k := range entSuffixes() {
		if entity, ok := strings.CutSuffix(name, k.suffix); ok && entity != "" {
			return entity
		}
	}
	return ""
}

// entKindOf returns the kind of the builder type named name for entity.
func entKindOf(name, entity string) entKind {
	for _, k := range entSuffixes() {
		if name == entity+k.suffix {
			return k.kind
		}
	}
	return entNone
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
	fields := b.entFieldsPkg(fn, entity, nil)
	table, ok := entTable(fields, w.Via, kind)
	if !ok {
		return w
	}
	w.What = fmt.Sprintf("%s.%s (%s %s)", fn.Pkg().Name(), shortName(fn), entVerb(kind), table)
	w.Via = ""
	c, ok := call.(*ssa.Call)
	if !ok {
		return w
	}
	ch, ok := b.entChain(c, fn, kind, entity, table)
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
	// reports it as an error or a count, not as RowsAffected. A state
	// transition needs no outcome read.
	if w.Fenced && w.RowsCAS && w.countFences || w.Unchecked {
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
	kind   entKind
	table  string
	cols   []string // the columns set, in order
	vals   []string // their values: "<hole>", "NULL", "fence + <hole>"
	conds  []string // ANDed
	holes  []hole
	entity string
	// The conflict clause: OnConflict or OnConflictColumns chained, and
	// options that leave the stored row alone (DoNothing, Ignore) or update
	// it. Any update makes an upsert, whatever the order.
	conflict, doNothing, doUpdate bool
	unknown                       bool // a predicate fencelint cannot read
}

// entChain reads the builder chain that ends in the call c of fn: back
// through the builder's own methods to the client method that made it.
func (b *builder) entChain(c *ssa.Call, fn *types.Func, kind entKind, entity, table string) (*entChain, bool) {
	var steps []*ssa.CallCommon // last first
	var start *ssa.CallCommon
	for v := callRecv(c.Common()); start == nil; {
		if len(steps) == 64 {
			return nil, false
		}
		p := producer(v)
		if p == nil {
			return nil, false // a parameter, a field, a phi: made out of sight
		}
		m := calleeFunc(p.Common())
		if m == nil || m.Pkg() != fn.Pkg() {
			return nil, false
		}
		switch recv := receiverName(m); {
		case recv == entity+"Client":
			start = p.Common()
		case entKindOf(recv, entity) != entNone:
			steps = append(steps, p.Common())
			v = callRecv(p.Common())
		default:
			return nil, false
		}
	}
	fields := b.entFieldsPkg(fn, entity, steps)
	ch := &entChain{kind: kind, table: table, entity: entity}
	if !ch.start(calleeFunc(start), start) {
		return nil, false
	}
	for i := len(steps) - 1; i >= 0; i-- {
		ch.step(fields, calleeFunc(steps[i]), steps[i])
	}
	if fields == nil && (kind == entUpdate || kind == entUpdateOne) {
		// The columns set are unknown (a package loaded from export data
		// without the entity's constants): an UPDATE all the same.
		ch.cols, ch.vals = []string{"ent_fields"}, []string{ch.hole(nil)}
	}
	return ch, true
}

// entFieldsPath is the import path of the generated package of an
// entity's constants: entity Doc of package .../ent is .../ent/doc, with
// Table, FieldBody and the predicates (doc.FenceLT).
func entFieldsPath(fn *types.Func, entity string) string {
	return fn.Pkg().Path() + "/" + strings.ToLower(entity)
}

// entFieldsPkg finds the entity's constants package, complete with its
// Table constant: among the package's imports (complete, when the
// application uses the predicates), the builder package's, or the
// packages of the predicates in steps; nil if none is.
func (b *builder) entFieldsPkg(fn *types.Func, entity string, steps []*ssa.CallCommon) *types.Package {
	path := entFieldsPath(fn, entity)
	candidates := slices.Concat(b.pass.Pkg.Imports(), fn.Pkg().Imports())
	for _, c := range steps {
		if calleeFunc(c).Name() != "Where" {
			continue
		}
		elems, _ := variadic(arg(c, 0))
		for _, e := range elems {
			if p := producer(e); p != nil {
				if f := calleeFunc(p.Common()); f != nil && f.Pkg() != nil {
					candidates = append(candidates, f.Pkg())
				}
			}
		}
	}
	for _, imp := range candidates {
		if imp.Path() == path {
			if _, ok := constOf(imp, "Table"); ok {
				return imp
			}
		}
	}
	return nil
}

// entTable returns the table an ent write names: the entity's Table
// constant, or else the statement its write fact describes ("sqlgraph.
// UpdateNode (UPDATE docs) at ...").
func entTable(fields *types.Package, via string, kind entKind) (string, bool) {
	if fields != nil {
		if t, ok := constOf(fields, "Table"); ok {
			return t, true
		}
	}
	_, rest, ok := strings.Cut(via, "("+entVerb(kind)+" ")
	if !ok {
		return "", false
	}
	t, _, ok := strings.Cut(rest, ")")
	return t, ok && t != "" && !strings.ContainsAny(t, " <")
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
		ch.doNothing = true // Ignore sets each column to itself: the row stays
	case entKindOf(receiverName(m), ch.entity) == entUpsert:
		ch.doUpdate = true // UpdateNewValues, Update(func), SetBody on the conflict
	case name == "OnConflict" || name == "OnConflictColumns":
		ch.conflict = true
		if elems, _ := variadic(arg(c, 0)); name == "OnConflict" && len(elems) > 0 {
			switch conflictActionOf(elems) {
			case conflictKeeps:
				ch.doNothing = true
			case conflictUpdates:
				ch.doUpdate = true
			}
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

// What the options given to OnConflict make of a conflict.
type conflictAction int

const (
	conflictTargetOnly conflictAction = iota // no action yet: a later call (Ignore, UpdateNewValues) gives it
	conflictKeeps                            // the stored row stays: sql.DoNothing(), sql.ResolveWithIgnore()
	conflictUpdates                          // an update, or an option fencelint cannot read
)

// conflictActionOf reads the options of OnConflict(opts...). A conflict
// target alone (sql.ConflictColumns, ConflictConstraint, ConflictWhere)
// sets no action: ent refuses to run it unless a chained call such as
// Ignore() or UpdateNewValues() adds one.
func conflictActionOf(opts []ssa.Value) conflictAction {
	action := conflictTargetOnly
	for _, o := range opts {
		p := producer(o)
		if p == nil {
			return conflictUpdates
		}
		f := calleeFunc(p.Common())
		if f == nil || f.Pkg() == nil || f.Pkg().Path() != "entgo.io/ent/dialect/sql" {
			return conflictUpdates
		}
		switch f.Name() {
		case "DoNothing", "ResolveWithIgnore":
			action = conflictKeeps
		case "ConflictColumns", "ConflictConstraint", "ConflictWhere":
		default:
			return conflictUpdates
		}
	}
	return action
}

// set records the column the field a setter names is given (form "%s":
// the value, "+": added to it, "NULL": cleared), when the package has the
// field's column.
func (ch *entChain) set(fields *types.Package, field, form string, v ssa.Value) {
	if fields == nil {
		return
	}
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
	if f == nil || fields == nil || f.Pkg() == nil || f.Pkg().Path() != fields.Path() || recvType(f) != nil {
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
		switch {
		case ch.doUpdate || ch.conflict && !ch.doNothing:
			return sqlText{}, false // an upsert: the plain write the generated code makes
		case ch.doNothing:
			s.WriteString(" ON CONFLICT DO NOTHING")
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

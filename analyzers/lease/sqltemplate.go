package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Applications format their INSERTs in a helper package from a table name
// and column lists that each caller passes as constants:
//
//	func ExecInsert(q Querier, table string, cols []string, obj any) error {
//		_, err := q.NamedExec(prepareInsert(table, cols), obj)
//		return err
//	}
//	func prepareInsert(table string, cols []string) string {
//		names := make([]string, len(cols))
//		for i, c := range cols {
//			names[i] = ":" + c
//		}
//		return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table,
//			strings.Join(cols, ", "), strings.Join(names, ", "))
//	}
//
//	dbcl.ExecInsert(tx, "blocks", []string{"chain_id", "end_time"}, b)
//
// Inside the helper the table and columns are run-time values. Its
// SQLTemplateFact keeps the statement with holes that name the parameters
// filling them, a column list as a join of the parameter's elements, each
// rendered by the loop that maps it; a call is read as the statement with
// the caller's constants in the holes, so the schema's natural keys
// (schema.go) and every other SQL rule apply to it. A list is followed
// only through a plain range loop that stores each element once and
// cannot leave early, into a slice nothing else writes or lets escape;
// anything else stays a hole. A helper gets the fact only when the
// statement is its one write, so reading a call as that statement hides
// no other, and only when it does not fence the write itself (its
// FencedByParamFact then says what a call must pass). A call whose
// statement is still out of sight (a WHERE built in the helper) or
// unreadable is read from the helper's WritesFact as before; one whose
// helper drops the statement's error is no create-if-absent.

// SQLTemplateFact: the function's one write sends the SQL statement Text,
// whose holes its parameters fill.
type SQLTemplateFact struct {
	System System
	Text   string         // the statement, with sqlscan.HoleMarker(n) for hole n
	Holes  []TemplateHole // hole n is Holes[n-1]
	// Args, Exec, Result and Checked are as in SQLParamFact.
	Args    int
	Exec    bool
	Result  int
	Checked bool
	// ErrReturned: the function returns the database call's error as its
	// own, so a caller that heeds the error heeds the INSERT's (schema.go).
	ErrReturned bool
	What        string // the database call: "Querier.NamedExec (INSERT <run-time name>) at writes.go:9"
	// Session, when not 0, is the parameter (1-based, receiver excluded)
	// whose database session (connection or transaction) the statement
	// goes through (sessions.go).
	Session int
}

// A TemplateHole is a hole of a SQLTemplateFact's statement.
type TemplateHole struct {
	// Param is the parameter (receiver excluded) whose argument fills the
	// hole, or -1 when it is filled inside the function, out of sight.
	Param int
	// Text says the hole may hold SQL text, not only a value.
	Text bool
	// Elem marks, in a Join's element, the element itself.
	Elem bool
	// Join, when set, says Param is a list of strings that fills the hole
	// element by element.
	Join *TemplateJoin
}

// A TemplateJoin is a list parameter's elements, each written out as Text
// with the element in its Elem hole, separated by Sep.
type TemplateJoin struct {
	Sep   string
	Text  string
	Holes []TemplateHole
}

func (*SQLTemplateFact) AFact() {}
func (f *SQLTemplateFact) String() string {
	return fmt.Sprintf("sql template %q: %s", renderTemplateDebug(f.Text, f.Holes), f.What)
}

// renderTemplateDebug writes a template out for tests: $p for a parameter,
// [p: elem sep] for a join, $e for the element, ? for a hidden hole.
func renderTemplateDebug(text string, holes []TemplateHole) string {
	return mapMarkers(text, len(holes), func(n int) string {
		h := holes[n-1]
		switch {
		case h.Elem:
			return "$e"
		case h.Join != nil:
			return fmt.Sprintf("[%d: %s %q]", h.Param, renderTemplateDebug(h.Join.Text, h.Join.Holes), h.Join.Sep)
		case h.Param >= 0:
			return "$" + strconv.Itoa(h.Param)
		}
		return "?"
	})
}

// mapMarkers replaces each hole marker of text (1..n) with what fill
// returns for it; a malformed marker becomes fill(0).
func mapMarkers(text string, n int, fill func(int) string) string {
	var out strings.Builder
	rest := text
	for {
		i := strings.IndexByte(rest, 0)
		if i < 0 || strings.IndexByte(rest[i+1:], 0) < 0 {
			out.WriteString(rest)
			return out.String()
		}
		j := strings.IndexByte(rest[i+1:], 0) + i + 1
		out.WriteString(rest[:i])
		k, err := strconv.Atoi(rest[i+2 : j]) // "\x00h12\x00"
		if err != nil || k < 1 || k > n {
			k = 0
		}
		out.WriteString(fill(k))
		rest = rest[j+1:]
	}
}

// exportTemplateFacts records a SQLTemplateFact for each declared function
// of the package whose one write is a SQL statement some of whose holes
// its parameters fill.
func (b *builder) exportTemplateFacts() {
	byFunc := make(map[*ssa.Function][]*Write)
	for _, w := range b.model.Writes {
		byFunc[outermost(w.Fn)] = append(byFunc[outermost(w.Fn)], w)
	}
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		ws := byFunc[fn]
		if obj == nil || len(ws) != 1 || b.ix.knowsPath(b.pass.Pkg.Path()) {
			continue
		}
		w := ws[0]
		call, ok := w.Call.(*ssa.Call)
		if !ok || w.Fn != fn || w.Fenced || w.heldOwn || w.LockImpl || w.spawned || w.once != oncePerCall {
			continue
		}
		if f := b.templateOf(fn, call); f != nil {
			f.What = b.describeWrite(w)
			b.setLocal(obj, f)
		}
	}
}

// templateOf returns the SQLTemplateFact fn deserves for its SQL call, or
// nil when no parameter fills a hole of its statement.
func (b *builder) templateOf(fn *ssa.Function, call *ssa.Call) *SQLTemplateFact {
	f := &folder{b: b, busy: make(map[any]bool), tmpl: fn}
	tf := &SQLTemplateFact{Args: -1, Result: -1}
	var text string
	resultAt := 0
	if inner, ok := b.templateFact(call.Common()); ok {
		f.seen = true
		text = f.render(inner.Text, inner.Holes, call.Common(), nil, 0)
		tf.System = inner.System
		tf.Args = paramIndex(fn, arg(call.Common(), inner.Args))
		tf.Exec, tf.Checked, resultAt = inner.Exec, inner.Checked, inner.Result
		tf.ErrReturned = inner.ErrReturned
	} else {
		c, ok := b.resolve(call.Common())
		if !ok || c.api == nil || c.api.Fence != SQLQuery {
			return nil
		}
		query := arg(call.Common(), c.api.Arg)
		if h, ok := b.helperFact(call.Common()); ok && h.Each { // one statement in the list: that one
			elems, ok := literalElems(query)
			if !ok || len(elems) != 1 {
				return nil
			}
			query = elems[0]
		}
		text = f.fold(query, 0)
		tf.System = c.api.System
		if at := b.sqlArgsAt(call.Common(), c.api); at >= 0 {
			tf.Args = paramIndex(fn, arg(call.Common(), at))
		}
		if inner, isHelper := b.helperFact(call.Common()); isHelper {
			tf.Exec, tf.Checked, resultAt = inner.Exec, inner.Checked, inner.Result
		} else {
			tf.Exec = isExec(call)
		}
		tf.ErrReturned = true
	}
	tf.ErrReturned = tf.ErrReturned && errorReturned(fn, call)
	tf.Session, _ = sessionSource(fn, b.callSQLSession(call))
	if !f.seen || len(text) > maxFoldText {
		return nil
	}
	if tf.Exec && !tf.Checked && resultAt >= 0 {
		tf.Result = returnedAt(fn, call, resultAt)
		tf.Checked = tf.Result < 0 && resultUsedAt(call, resultAt)
	}
	tf.Text, tf.Holes = text, templateHoles(fn, f.holes)
	for _, h := range tf.Holes {
		if h.Param >= 0 {
			return tf
		}
	}
	return nil
}

// errorReturned reports whether fn returns the error of call as its own
// error.
func errorReturned(fn *ssa.Function, call *ssa.Call) bool {
	sig := call.Common().Signature()
	if !lastResultError(sig) || !lastResultError(fn.Signature) {
		return false
	}
	return returnedAt(fn, call, sig.Results().Len()-1) == fn.Signature.Results().Len()-1
}

// templateErrorLost reports whether call invokes a template helper that
// does not return its statement's error.
func (b *builder) templateErrorLost(call ssa.CallInstruction) bool {
	tf, ok := b.templateFact(call.Common())
	return ok && !tf.ErrReturned
}

// templateHoles turns a folder's holes into a template's: a hole that
// holds a parameter of fn is filled by that parameter.
func templateHoles(fn *ssa.Function, holes []hole) []TemplateHole {
	out := make([]TemplateHole, len(holes))
	for i, h := range holes {
		th := TemplateHole{Param: h.param - 1, Text: h.text, Elem: h.elem, Join: h.join}
		if th.Param < 0 && !th.Elem && h.value != nil {
			th.Param = paramIndex(fn, h.value)
		}
		out[i] = th
	}
	return out
}

// templateFact returns the SQLTemplateFact of the function a call of
// another package's function invokes. A function of the package itself is
// read from its write facts: its template is only known once they are.
func (b *builder) templateFact(c *ssa.CallCommon) (SQLTemplateFact, bool) {
	var f SQLTemplateFact
	fn := calleeFunc(c)
	if c.IsInvoke() || fn == nil || fn.Pkg() == b.pass.Pkg {
		return f, false
	}
	return f, b.ownFact(fn, &f)
}

// templateWrite reads a call of a function with a SQLTemplateFact as its
// statement filled with the call's arguments. It returns nil when the
// statement is still not seen whole (a WHERE built in the helper) or is
// not a write fencelint can read: the call is then read as before.
func (b *builder) templateWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	tf, ok := b.templateFact(call.Common())
	if !ok {
		return nil
	}
	f := &folder{b: b, busy: make(map[any]bool), seen: true}
	text := f.render(tf.Text, tf.Holes, call.Common(), nil, 0)
	w := newWrite(fn, call, tf.System, shortName(calleeFunc(call.Common())))
	w.Via = tf.What
	w = b.sqlTextsWrite(w, call, []sqlText{{text: text, holes: f.holes}}, tf.Args)
	if w == nil || w.Unseen != "" {
		return nil
	}
	return w
}

// templateUnchecked is uncheckedResult for a call of a template helper.
func templateUnchecked(tf SQLTemplateFact, call ssa.CallInstruction) bool {
	return tf.Exec && !tf.Checked && (tf.Result < 0 || !resultUsedAt(call, tf.Result))
}

// render writes a template out as call fills it, each parameter's hole
// with its argument folded, a join with the elements of the slice literal
// passed; elem fills an element's own hole.
func (f *folder) render(text string, holes []TemplateHole, call *ssa.CallCommon, elem func() string, depth int) string {
	return mapMarkers(text, len(holes), func(n int) string {
		if n == 0 {
			return f.hole(nil)
		}
		h := holes[n-1]
		var a ssa.Value
		if h.Param >= 0 {
			a = arg(call, h.Param)
		}
		switch {
		case h.Elem && elem != nil:
			return elem()
		case h.Join != nil && a != nil:
			return f.renderJoin(h.Join, a, call, depth)
		case h.Join == nil && a != nil && h.Text && !isStringish(a.Type()):
			return f.holeOf(unwrap(a), true) // a list that may hold SQL, joined out of sight
		case h.Join == nil && a != nil:
			return f.fold(a, depth+1)
		}
		return f.holeOf(nil, h.Text)
	})
}

// renderJoin writes out a join of the list a, a slice literal of the
// caller's whose elements nothing changes after it is made.
func (f *folder) renderJoin(j *TemplateJoin, a ssa.Value, call *ssa.CallCommon, depth int) string {
	elems, ok := literalElems(a)
	if !ok {
		return f.holeOf(unwrap(a), true)
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = f.render(j.Text, j.Holes, call, func() string { return f.fold(e, depth+1) }, depth+1)
	}
	return strings.Join(parts, j.Sep)
}

// literalElems returns the elements of v, a slice literal every element of
// which is given and none changed through the slice.
func literalElems(v ssa.Value) ([]ssa.Value, bool) {
	s, ok := unwrap(v).(*ssa.Slice)
	if !ok || s.Low != nil || s.High != nil {
		return nil, false
	}
	alloc, ok := s.X.(*ssa.Alloc)
	if !ok || !literalArray(alloc, s) {
		return nil, false
	}
	elems, ok := variadic(s)
	if !ok || len(elems) == 0 || int64(len(elems)) != arrayLen(alloc) {
		return nil, false
	}
	for _, e := range elems {
		if e == nil {
			return nil, false
		}
	}
	for _, ref := range *s.Referrers() {
		if ia, ok := ref.(*ssa.IndexAddr); ok && hasStore(ia) {
			return nil, false
		}
	}
	return elems, true
}

// literalArray reports whether alloc is a composite literal's array: only
// its constant-indexed elements and the slice s of it are used.
func literalArray(alloc *ssa.Alloc, s *ssa.Slice) bool {
	for _, ref := range *alloc.Referrers() {
		switch x := ref.(type) {
		case *ssa.IndexAddr:
			if _, ok := constInt(x.Index); !ok {
				return false
			}
		case *ssa.DebugRef:
		default:
			if ref != ssa.Instruction(s) {
				return false
			}
		}
	}
	return true
}

// arrayLen returns the length of the array alloc allocates, or -1.
func arrayLen(alloc *ssa.Alloc) int64 {
	if p, ok := alloc.Type().Underlying().(*types.Pointer); ok {
		if a, ok := p.Elem().Underlying().(*types.Array); ok {
			return a.Len()
		}
	}
	return -1
}

// hasStore reports whether something is stored at addr.
func hasStore(addr *ssa.IndexAddr) bool {
	for _, ref := range *addr.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == addr {
			return true
		}
	}
	return false
}

// holeOf records v as a run-time value, text or not, and returns its
// marker.
func (f *folder) holeOf(v ssa.Value, text bool) string {
	f.holes = append(f.holes, hole{value: v, text: text})
	return sqlscan.HoleMarker(len(f.holes))
}

// A mapping is a list as a strings.Join reads it: the elements of src,
// each as expr computes it from src[index] in a range loop over src, or
// as they are when expr is nil.
type mapping struct {
	src, expr, index ssa.Value
}

// elemAt is the element of a mapping being folded: a load of
// mapping.src[mapping.index] in its expr stands for value (or, with value
// nil, for the template's element hole, marker).
type elemAt struct {
	m      mapping
	value  ssa.Value
	marker string
}

// join folds strings.Join(list, sep) with a constant sep.
func (f *folder) join(c *ssa.Call, depth int) string {
	common := c.Common()
	sep, ok := constString(arg(common, 1))
	if !ok {
		return f.hole(c)
	}
	m, ok := listOf(c, unwrap(arg(common, 0)))
	if !ok {
		return f.hole(c)
	}
	src := f.boundValue(m.src)
	if elems, ok := literalElems(src); ok {
		parts := make([]string, len(elems))
		for i, e := range elems {
			parts[i] = f.element(m, e, depth)
		}
		return strings.Join(parts, sep)
	}
	p, ok := src.(*ssa.Parameter)
	if f.tmpl == nil || !ok || p.Parent() != f.tmpl || paramIndex(f.tmpl, p) < 0 {
		return f.hole(c)
	}
	sub := &folder{b: f.b, busy: f.busy, tmpl: f.tmpl, bound: f.bound}
	sub.holes = []hole{{elem: true, text: true}}
	marker := sqlscan.HoleMarker(1)
	text := marker
	if m.expr != nil {
		sub.elem = &elemAt{m: m, marker: marker}
		text = sub.fold(m.expr, depth+1)
	}
	f.seen = f.seen || sub.seen
	j := &TemplateJoin{Sep: sep, Text: text, Holes: templateHoles(f.tmpl, sub.holes)}
	f.holes = append(f.holes, hole{text: true, param: paramIndex(f.tmpl, p) + 1, join: j})
	return sqlscan.HoleMarker(len(f.holes))
}

// element folds one element e of a mapping.
func (f *folder) element(m mapping, e ssa.Value, depth int) string {
	if m.expr == nil {
		return f.fold(e, depth+1)
	}
	saved := f.elem
	f.elem = &elemAt{m: m, value: e}
	defer func() { f.elem = saved }()
	return f.fold(m.expr, depth+1)
}

// loadedElem folds a load of the element of the mapping being folded.
func (f *folder) loadedElem(addr ssa.Value, depth int) (string, bool) {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok || f.elem == nil || ia.X != f.elem.m.src || ia.Index != f.elem.m.index {
		return "", false
	}
	if f.elem.value == nil {
		return f.elem.marker, true
	}
	at := f.elem
	f.elem = nil
	defer func() { f.elem = at }()
	return f.fold(at.value, depth+1), true
}

// boundValue follows the parameters bound to a call's arguments.
func (f *folder) boundValue(v ssa.Value) ssa.Value {
	for range maxFoldDepth {
		p, ok := unwrap(v).(*ssa.Parameter)
		if !ok {
			break
		}
		a, ok := f.bound[p]
		if !ok {
			break
		}
		v = a
	}
	return unwrap(v)
}

// listOf reads the list s that join joins: a parameter or slice literal
// nothing writes into, or one a range loop over a source list rewrites
// element by element (cols[i] = "`" + c + "`"), or a slice made as long as
// a source list and filled by such a loop (names[i] = ":" + c). The loop
// must finish before join: each iteration stores exactly once, and it has
// no other exit.
func listOf(join *ssa.Call, s ssa.Value) (mapping, bool) {
	stores, ok := listStores(s)
	if !ok {
		return mapping{}, false
	}
	_, made := s.(*ssa.MakeSlice)
	switch s.(type) {
	case *ssa.Parameter, *ssa.Slice:
		if len(stores) == 0 {
			return mapping{src: s}, true
		}
	case *ssa.MakeSlice:
	default:
		return mapping{}, false
	}
	if len(stores) != 1 {
		return mapping{}, false
	}
	st := stores[0]
	index, src, ok := rangeLoop(st, join)
	if !ok {
		return mapping{}, false
	}
	if made && !lenOf(s.(*ssa.MakeSlice).Len, src) || !made && src != s {
		return mapping{}, false
	}
	if src != s {
		srcStores, ok := listStores(src)
		if !ok || !storesAfterLoads(srcStores, src, index, st.Block()) {
			return mapping{}, false
		}
		if _, ok := src.(*ssa.Parameter); !ok {
			return mapping{}, false
		}
	} else if !storesAfterLoads(stores, src, index, st.Block()) {
		return mapping{}, false
	}
	return mapping{src: src, expr: st.Val, index: index}, true
}

// listStores returns the stores into the elements of slice s; ok is
// false when s is used otherwise than by indexing, len and strings.Join.
func listStores(s ssa.Value) ([]*ssa.Store, bool) {
	refs := s.Referrers()
	if refs == nil {
		return nil, false
	}
	var stores []*ssa.Store
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.IndexAddr:
			for _, r := range *x.Referrers() {
				switch y := r.(type) {
				case *ssa.Store:
					if y.Addr != x {
						return nil, false
					}
					stores = append(stores, y)
				case *ssa.UnOp:
					if y.Op != token.MUL {
						return nil, false
					}
				case *ssa.DebugRef:
				default:
					return nil, false
				}
			}
		case *ssa.Call:
			if !isLen(x.Common()) && !isJoin(x.Common()) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return stores, true
}

// storesAfterLoads reports whether every store into src's elements is in
// blk at index, after every load of src[index] there: each iteration reads
// the element before it rewrites it.
func storesAfterLoads(stores []*ssa.Store, src, index ssa.Value, blk *ssa.BasicBlock) bool {
	lastLoad := -1
	for i, instr := range blk.Instrs {
		if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.MUL {
			if ia, ok := u.X.(*ssa.IndexAddr); ok && ia.X == src {
				lastLoad = i
			}
		}
	}
	for _, st := range stores {
		ia := st.Addr.(*ssa.IndexAddr)
		if st.Block() != blk || ia.Index != index || instrIndex(blk, st) < lastLoad {
			return false
		}
	}
	return true
}

// rangeLoop reads the loop a store into list[i] is made in: a range over
// src whose body is the store's one straight block, counting i from 0 to
// len(src), with join only after the loop ended.
func rangeLoop(st *ssa.Store, join *ssa.Call) (index, src ssa.Value, ok bool) {
	ia := st.Addr.(*ssa.IndexAddr)
	inc, ok := ia.Index.(*ssa.BinOp)
	if !ok || inc.Op != token.ADD {
		return nil, nil, false
	}
	if n, ok := constInt(inc.Y); !ok || n != 1 {
		return nil, nil, false
	}
	phi, ok := inc.X.(*ssa.Phi)
	head, body := inc.Block(), st.Block()
	if !ok || phi.Block() != head || len(phi.Edges) != 2 || len(body.Preds) != 1 || body.Preds[0] != head ||
		len(body.Succs) != 1 || body.Succs[0] != head || len(head.Succs) != 2 || head.Succs[0] != body {
		return nil, nil, false
	}
	for k, pred := range head.Preds {
		if pred == body {
			if phi.Edges[k] != inc {
				return nil, nil, false
			}
		} else if n, ok := constInt(phi.Edges[k]); !ok || n != -1 {
			return nil, nil, false
		}
	}
	cond, ok := head.Instrs[len(head.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, nil, false
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.LSS || cmp.X != inc {
		return nil, nil, false
	}
	lc, ok := cmp.Y.(*ssa.Call)
	if !ok || !isLen(lc.Common()) {
		return nil, nil, false
	}
	exit := head.Succs[1]
	if len(exit.Preds) != 1 || !exit.Dominates(join.Block()) {
		return nil, nil, false
	}
	return inc, lc.Common().Args[0], true
}

// lenOf reports whether v is len(s).
func lenOf(v, s ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	return ok && isLen(c.Common()) && c.Common().Args[0] == s
}

// isLen reports whether c calls the builtin len.
func isLen(c *ssa.CallCommon) bool {
	b, ok := c.Value.(*ssa.Builtin)
	return ok && b.Name() == "len" && len(c.Args) == 1
}

// isJoin reports whether c calls strings.Join.
func isJoin(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "strings" && fn.Name() == "Join"
}

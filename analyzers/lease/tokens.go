package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Token flow: where does a value that a store compares as a fencing token
// come from? The answer walks SSA def-use chains backwards from the value to
// the call or field read that produced it, through conversions, arithmetic
// with constants, phis, tuple extracts, loads of locals and of captured
// variables, struct fields (a field carries what the package stores into it),
// parameters (what the package's call sites pass), results (what the
// function returns) and, across packages, TokenFacts. When paths disagree or
// a step is not understood the answer is Unknown: a check must stay quiet
// then.
//
// One source needs context: a monotonic counter drawn by its own call (SQL
// nextval, an UPDATE ... RETURNING, Redis INCR). It is a good token when it
// is drawn in the step that takes the lease, or before it; drawn while a
// lease is already held it is LateDrawn, because a holder that pauses between
// acquiring and drawing draws a larger number than its successor.

// tokenFlow answers where token values come from.
type tokenFlow struct {
	b   *builder
	idx *flowIndex // built on first use
}

// flowIndex holds what the walk needs to look up by definition rather than
// by use: stores into struct fields, call sites, closure creations.
type flowIndex struct {
	// fieldSources lists, per struct field, the values stored into it
	// anywhere in the package, and the field addresses passed to calls
	// (row.Scan(&l.Token)).
	fieldSources map[*types.Var][]ssa.Value
	// callSites lists the static calls of each function of the package.
	callSites map[*ssa.Function][]ssa.CallInstruction
	// closures lists the MakeClosure instructions that create each literal.
	closures map[*ssa.Function][]*ssa.MakeClosure
	// escapes marks functions used as values, whose callers are unknown.
	escapes map[*ssa.Function]bool
	// globals lists the values stored into each package variable.
	globals map[*ssa.Global][]ssa.Value
	// keyDeleted reports that the package can delete a Consul lock key,
	// which restarts its LockIndex.
	keyDeleted bool
}

// maxDepth bounds the walk; chains longer than this are Unknown.
const maxDepth = 48

// source is an Origin being computed. A zero source is Unknown.
type source struct {
	Origin
	// none marks a contribution that says nothing (a constant, a value
	// already on the walk): it is left out of a merge.
	none bool
	// counter marks a monotonic counter drawn at drawAt by a call of its
	// own: whether it is LateDrawn depends on the leases held there.
	counter bool
	drawAt  ssa.Instruction
}

// neutral is a contribution that says nothing.
func neutral() source { return source{none: true} }

// known reports whether s says anything definite.
func (s source) known() bool { return !s.none && (s.Kind != Unknown || s.counter) }

// walk is one query's state.
type walk struct {
	t *tokenFlow
	// seen marks the values being walked: meeting one again is a cycle
	// (a loop's phi), which adds nothing.
	seen map[ssa.Value]bool
	// done holds the values already walked in this query.
	done  map[ssa.Value]source
	depth int
}

func (t *tokenFlow) newWalk() *walk {
	return &walk{t: t, seen: make(map[ssa.Value]bool), done: make(map[ssa.Value]source)}
}

// origin reports where v comes from.
func (t *tokenFlow) origin(v ssa.Value) Origin {
	if t.b == nil || t.b.funcs == nil {
		return Origin{}
	}
	return t.settle(t.newWalk().value(v))
}

// settle turns a walk's result into an Origin: a counter is LateDrawn if a
// lease is held where it is drawn, and a good token otherwise.
func (t *tokenFlow) settle(s source) Origin {
	if s.none {
		return Origin{}
	}
	if s.counter {
		if l := t.lateAt(s.drawAt, 0); l != nil {
			return t.lateDrawn(s, l)
		}
		s.Kind = Monotonic
	}
	return s.Origin
}

// lateDrawn describes a counter drawn while lease l was held.
func (t *tokenFlow) lateDrawn(s source, l *Lease) Origin {
	o := s.Origin
	o.Kind = LateDrawn
	o.System = l.System
	o.Note = fmt.Sprintf("it is drawn in a separate step after %s (line %d) was taken: "+
		"a holder that pauses in between draws a larger token than its successor",
		l.What, t.b.pass.Fset.Position(l.Pos).Line)
	return o
}

// fieldOrigin reports where field fv of x (a struct or a pointer to one)
// comes from, for a read of it at pos.
func (t *tokenFlow) fieldOrigin(x ssa.Value, fv *types.Var, pos token.Pos) Origin {
	if t.b == nil || t.b.funcs == nil {
		return Origin{}
	}
	i := fieldIndex(x.Type(), fv)
	if i < 0 {
		return Origin{}
	}
	return t.settle(t.newWalk().field(x.Type(), i, x, pos))
}

// fieldFilled reports whether the package stores into field fv or scans
// rows into it anywhere.
func (t *tokenFlow) fieldFilled(fv *types.Var) bool {
	return len(t.index().fieldSources[fv.Origin()]) > 0
}

// fieldIndex returns the index of fv in the struct t is or points to, or -1.
func fieldIndex(t types.Type, fv *types.Var) int {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok {
		for i := range s.NumFields() {
			if s.Field(i) == fv {
				return i
			}
		}
	}
	return -1
}

// value returns the source of v.
func (w *walk) value(v ssa.Value) source {
	if v == nil || w.seen[v] {
		return neutral()
	}
	if s, ok := w.done[v]; ok {
		return s
	}
	if w.depth > maxDepth {
		return source{}
	}
	w.seen[v] = true
	w.depth++
	s := w.step(v)
	w.depth--
	delete(w.seen, v)
	w.done[v] = s
	return s
}

// step returns the source of v, one definition back.
func (w *walk) step(v ssa.Value) source {
	switch v := v.(type) {
	case *ssa.Const:
		return neutral()
	case *ssa.Convert:
		return w.value(v.X)
	case *ssa.ChangeType:
		return w.value(v.X)
	case *ssa.MakeInterface:
		return w.value(v.X)
	case *ssa.ChangeInterface:
		return w.value(v.X)
	case *ssa.TypeAssert:
		return w.value(v.X)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return w.load(v.X)
		}
		return source{} // -x reverses the order; <-ch is anyone's
	case *ssa.BinOp:
		return w.binOp(v)
	case *ssa.Phi:
		return w.merge(v.Edges)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return w.call(call, v.Index)
		}
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
			return w.value(ta.X)
		}
	case *ssa.Call:
		return w.call(v, 0)
	case *ssa.Field:
		return w.field(v.X.Type(), v.Field, v.X, v.Pos())
	case *ssa.Parameter:
		return w.param(v)
	case *ssa.Alloc: // a pointer carries what is stored where it points
		return w.stored(v)
	case *ssa.FreeVar:
		return w.freeVar(v)
	}
	return source{}
}

// merge combines the sources of several values that may reach one place:
// they must agree, or the answer is Unknown.
func (w *walk) merge(vs []ssa.Value) source {
	var ss []source
	for _, v := range vs {
		ss = append(ss, w.value(v))
	}
	return mergeSources(ss)
}

func mergeSources(ss []source) source {
	out, have := neutral(), false
	for _, s := range ss {
		switch {
		case s.none:
		case !s.known():
			return source{}
		case !have:
			out, have = s, true
		case out.Kind != s.Kind || out.counter != s.counter:
			return source{}
		}
	}
	return out
}

// binOp follows arithmetic that keeps the order of a token: adding,
// multiplying or shifting by a constant, subtracting or dividing a constant.
func (w *walk) binOp(v *ssa.BinOp) source {
	switch v.Op {
	case token.ADD, token.MUL, token.SHL, token.OR:
		return w.merge([]ssa.Value{v.X, v.Y})
	case token.SUB, token.QUO, token.SHR:
		if isConst(v.Y) {
			return w.value(v.X)
		}
	}
	return source{}
}

// load follows a read through a pointer: a struct field, a local variable
// (what was stored into it, or scanned into it), a captured variable, a
// package variable, or a pointer that carries its pointee's origin.
func (w *walk) load(addr ssa.Value) source {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return w.field(a.X.Type(), a.Field, a.X, a.Pos())
	case *ssa.Alloc:
		return w.stored(a)
	case *ssa.FreeVar:
		return w.freeVar(a)
	case *ssa.Global:
		return w.merge(w.t.index().globals[a])
	case *ssa.IndexAddr:
		return source{}
	}
	return w.value(addr)
}

// stored returns the source of what the program puts into a local
// variable: its stores, stores through closures that capture it, and rows
// scanned into it.
func (w *walk) stored(alloc *ssa.Alloc) source {
	var ss []source
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == alloc {
				ss = append(ss, w.value(r.Val))
			}
		case *ssa.MakeClosure:
			ss = append(ss, w.capturedStores(r, alloc))
		case *ssa.MakeInterface:
			ss = append(ss, w.scanned(alloc))
		case *ssa.Call:
			ss = append(ss, source{}) // json.Unmarshal(b, &x) and the like
		}
	}
	return mergeSources(ss)
}

// capturedStores returns the source of what a closure stores into a
// variable it captures.
func (w *walk) capturedStores(mc *ssa.MakeClosure, alloc *ssa.Alloc) source {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return source{}
	}
	var ss []source
	for i, b := range mc.Bindings {
		if b != alloc || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == fn.FreeVars[i] {
				ss = append(ss, w.value(st.Val))
			}
		}
	}
	return mergeSources(ss)
}

// freeVar returns the source of a closure's free variable: what its
// creators bind to it.
func (w *walk) freeVar(fv *ssa.FreeVar) source {
	fn := fv.Parent()
	i := indexOf(fn.FreeVars, fv)
	var vs []ssa.Value
	for _, mc := range w.t.index().closures[fn] {
		if i >= 0 && i < len(mc.Bindings) {
			vs = append(vs, mc.Bindings[i])
		}
	}
	if len(vs) == 0 {
		return source{}
	}
	var ss []source
	for _, b := range vs {
		if alloc, ok := b.(*ssa.Alloc); ok && types.Identical(alloc.Type(), fv.Type()) {
			ss = append(ss, w.stored(alloc))
			continue
		}
		ss = append(ss, w.value(b))
	}
	return mergeSources(ss)
}

// param returns the source of a parameter: what every call site of the
// package passes. A function used as a value has callers the walk cannot
// see.
func (w *walk) param(p *ssa.Parameter) source {
	fn := p.Parent()
	i := indexOf(fn.Params, p)
	ix := w.t.index()
	if i < 0 || ix.escapes[fn] || len(ix.callSites[fn]) == 0 {
		return source{}
	}
	var ss []source
	for _, site := range ix.callSites[fn] {
		args := site.Common().Args
		if i >= len(args) {
			return source{}
		}
		ss = append(ss, w.value(args[i]))
	}
	return mergeSources(ss)
}

// field returns the source of a read of field i of the struct that t is or
// points to: the catalog's word on it, or what the package stores into it,
// or what the field's package exported about it.
func (w *walk) field(t types.Type, i int, x ssa.Value, pos token.Pos) source {
	fv := fieldVar(t, i)
	if fv == nil {
		return source{}
	}
	if api := w.t.b.ix.lookupField(t, fv); api != nil {
		what := w.t.describe(x) + "." + fv.Name()
		if isLockIndex(api) {
			return w.lockIndex(api, x, pos, what)
		}
		return fromAPI(api, pos, what)
	}
	fv = fv.Origin()
	s := w.fieldSources(fv)
	if s.known() || fv.Pkg() == nil || fv.Pkg() == w.t.b.pass.Pkg {
		return s
	}
	var fact TokenFact
	if w.t.b.pass.ImportObjectFact(fv, &fact) {
		o := fact.Origin
		o.Pos = pos
		return source{Origin: o}
	}
	return s
}

// fieldSources merges what the package stores into field fv.
func (w *walk) fieldSources(fv *types.Var) source {
	var ss []source
	for _, v := range w.t.index().fieldSources[fv] {
		if fa, ok := v.(*ssa.FieldAddr); ok { // scanned into: row.Scan(&l.Token)
			ss = append(ss, w.scanned(fa))
			continue
		}
		ss = append(ss, w.value(v))
	}
	return mergeSources(ss)
}

// call returns the source of result i of call.
func (w *walk) call(call *ssa.Call, i int) source {
	common := call.Common()
	if isErrorResult(common, i) {
		return neutral()
	}
	if fn := common.StaticCallee(); fn != nil && fn.Blocks != nil && w.t.inPackage(fn) {
		if c, ok := w.t.b.resolve(common); ok && c.role.Has(RoleToken) {
			return monotonic(call.Pos(), c.what+"()", "marked //fencelint:token", c.system)
		}
		return w.returns(fn, i, call)
	}
	if c, ok := w.t.b.resolve(common); ok {
		if s, ok := w.apiCall(call, c); ok {
			return s
		}
	}
	if obj := calleeFunc(common); obj != nil {
		if s, ok := w.converted(call, obj); ok {
			return s
		}
		if s, ok := w.importedToken(call, obj); ok {
			return s
		}
		if api := w.t.getter(obj); api != nil {
			return fromAPI(api, call.Pos(), w.t.describe(callRecv(common))+"."+obj.Name()+"()")
		}
	}
	if s, ok := w.passThrough(call); ok {
		return s
	}
	return source{}
}

// apiCall returns the source of a call the catalog, a directive or a role
// fact knows.
func (w *walk) apiCall(call *ssa.Call, c callee) (source, bool) {
	name := c.what + "()"
	switch {
	case c.role.Has(RoleToken):
		note := "marked //fencelint:token"
		if c.api != nil {
			note = c.api.Note
		}
		return monotonic(call.Pos(), name, note, c.system), true
	case c.role.Has(RoleNotToken) && c.api != nil:
		return fromAPI(c.api, call.Pos(), name), true
	case c.role.Has(RoleCounter):
		return counter(call, name, c.system), true
	case c.api != nil && c.api.Fence == RedisScript:
		return w.script(call, c)
	case c.api != nil && c.api.Fence == SQLQuery && c.api.Role.Has(RoleWrite):
		// A query whose rows are read: handled where the row is scanned.
		return source{}, true
	}
	return source{}, false
}

// importedToken applies the TokenFact of a function of another package.
func (w *walk) importedToken(call *ssa.Call, obj *types.Func) (source, bool) {
	obj = obj.Origin()
	if obj.Pkg() == nil || obj.Pkg() == w.t.b.pass.Pkg {
		return source{}, false
	}
	var fact TokenFact
	if !w.t.b.pass.ImportObjectFact(obj, &fact) {
		return source{}, false
	}
	o := fact.Origin
	o.Pos = call.Pos()
	o.What = fmt.Sprintf("%s(), which returns %s", shortName(obj), fact.Origin.What)
	if fact.Counter { // drawn by this call: late if a lease is held here
		return source{Origin: o, counter: true, drawAt: call}, true
	}
	return source{Origin: o}, true
}

// converted follows a conversion into a token (a function with a
// TokenConvFact, fencegen's TokenOf): the token has the origin of the value
// converted. A constant is a made-up token: every holder that passes it
// writes with the same one, so the fence refuses nobody.
func (w *walk) converted(call *ssa.Call, obj *types.Func) (source, bool) {
	var fact TokenConvFact
	if !w.t.b.fact(obj, &fact) {
		return source{}, false
	}
	v := arg(call.Common(), fact.Param)
	if c, ok := unwrap(v).(*ssa.Const); ok && c.Value != nil {
		return source{Origin: Origin{Kind: NotOrdered, Pos: call.Pos(), What: "the constant " + c.Value.ExactString(),
			Note: "every holder passes the same value, so the store cannot tell a stale holder from the current one"}}, true
	}
	return w.value(v), true
}

// passThrough follows calls that only reformat a value: a method of
// another package on a value whose source is known (time.Now().UnixNano(),
// uuid.New().String(), rdb.Incr(ctx, k).Val()), and strconv/fmt formatting
// of a single value.
func (w *walk) passThrough(call *ssa.Call) (source, bool) {
	common := call.Common()
	obj := calleeFunc(common)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == w.t.b.pass.Pkg {
		return source{}, false
	}
	if recv := callRecv(common); recv != nil {
		s := w.value(recv)
		if !s.known() {
			return source{}, false
		}
		if !strings.HasPrefix(s.What, "the ") { // an expression, not a description
			s.What += "." + obj.Name() + "()"
		}
		if s.counter {
			s.drawAt = call
		}
		s.Pos = call.Pos()
		return s, true
	}
	switch obj.Pkg().Path() {
	case "strconv", "fmt":
		return w.single(callArgs(common)), true
	}
	return source{}, false
}

// single returns the source of the one non-constant value among args
// (a variadic ...any counts element by element), or Unknown.
func (w *walk) single(args []ssa.Value) source {
	var vals []ssa.Value
	for _, a := range args {
		if elems, ok := variadic(a); ok {
			vals = append(vals, elems...)
			continue
		}
		vals = append(vals, a)
	}
	var found ssa.Value
	for _, v := range vals {
		if v == nil || isConst(v) {
			continue
		}
		if found != nil {
			return source{}
		}
		found = v
	}
	if found == nil {
		return source{}
	}
	return w.value(found)
}

// returns returns the source of result i of fn, a function of this
// package, called at call. A counter fn drew while holding no lease of its
// own is drawn, as far as the caller is concerned, at the call.
func (w *walk) returns(fn *ssa.Function, i int, call ssa.CallInstruction) source {
	s := w.merge(returnValues(fn, i))
	if s.counter {
		if l := w.t.heldAt(s.drawAt); l != nil {
			return source{Origin: w.t.lateDrawn(s, l)}
		}
		s.drawAt = call
	}
	return s
}

// returnValues returns the values fn's return statements give result i.
func returnValues(fn *ssa.Function, i int) []ssa.Value {
	var vs []ssa.Value
	for _, blk := range fn.Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			vs = append(vs, ret.Results[i])
		}
	}
	return vs
}

// scanned returns the source of a variable filled by row.Scan(&v): the
// query that produced the row.
func (w *walk) scanned(addr ssa.Value) source {
	row := scannedFrom(addr)
	if row == nil {
		return source{}
	}
	q := producer(row)
	if q == nil {
		return source{}
	}
	text, ok := queryText(q.Common())
	if !ok {
		return source{}
	}
	return w.t.sqlSource(q, text)
}

// queryText returns the SQL text of a query call: its first constant string
// argument.
func queryText(c *ssa.CallCommon) (string, bool) {
	for _, a := range callArgs(c) {
		if s, ok := constString(a); ok {
			return s, true
		}
	}
	return "", false
}

// sqlSource classifies the value a query returns: a counter if the
// statement draws one (nextval, or a write RETURNING its result), issued
// with the grant if the same statement takes a lock.
func (t *tokenFlow) sqlSource(call *ssa.Call, text string) source {
	script := sqlscan.Parse(text)
	if script.Unknown {
		return source{}
	}
	var draws, locks bool
	for _, st := range script.Statements {
		for _, c := range st.Calls {
			switch c.Role() {
			case sqlscan.RoleSequence:
				draws = draws || c.Name == "nextval"
			case sqlscan.RoleAcquire, sqlscan.RoleTryAcquire, sqlscan.RoleAcquireXact, sqlscan.RoleTryAcquireXact:
				locks = true
			}
		}
		draws = draws || st.Writes && st.Returning
	}
	what := "the query " + quoteSQL(text)
	switch {
	case draws && locks:
		return monotonic(call.Pos(), what, "drawn in the statement that takes the lock", "")
	case draws:
		return counter(call, what, Postgres)
	}
	return source{}
}

// quoteSQL shortens a query for a diagnostic.
func quoteSQL(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 48 {
		text = text[:45] + "..."
	}
	return fmt.Sprintf("%q", text)
}

// script classifies the result of a Redis Lua script: one that takes the
// lock (SET NX) and increments a counter issues the token with the grant;
// one that only increments draws a counter.
func (w *walk) script(call *ssa.Call, c callee) (source, bool) {
	src, ok := scriptSource(call.Common(), c.api)
	if !ok {
		src, ok = w.t.scriptVar(call.Common())
	}
	if !ok {
		return source{}, true
	}
	lua := luascan.Parse(src)
	if lua.Unknown {
		return source{}, true
	}
	var locks, increments bool
	for _, rc := range lua.Calls {
		switch rc.Command {
		case "INCR", "INCRBY":
			increments = true
		case "SETNX":
			locks = true
		case "SET":
			locks = locks || hasLiteral(rc.Args, "NX")
		}
	}
	switch {
	case increments && locks:
		return monotonic(call.Pos(), "the Lua script", "it takes the lock and increments the fence in one step", c.system), true
	case increments:
		return counter(call, "the Lua script's INCR", c.system), true
	}
	return source{}, true
}

// hasLiteral reports whether a literal argument is word, in any case.
func hasLiteral(args []luascan.Arg, word string) bool {
	for _, a := range args {
		if a.Kind == luascan.Literal && strings.EqualFold(a.Text, word) {
			return true
		}
	}
	return false
}

// scriptVar returns the source of a Script held in a package variable
// (var acquire = redis.NewScript(`...`)).
func (t *tokenFlow) scriptVar(c *ssa.CallCommon) (string, bool) {
	load, ok := callRecv(c).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return "", false
	}
	return t.b.globalScript(g)
}

// isLockIndex reports whether api is Consul's KVPair.LockIndex.
func isLockIndex(api *API) bool {
	return api.System == Consul && api.Recv == "KVPair" && api.Name == "LockIndex"
}

// lockIndex classifies a read of a Consul KVPair's LockIndex. It counts the
// lock's acquisitions by different sessions, so it is a token for the holder
// whose session the pair shows, as long as the key is never deleted (which
// restarts it at 1). Read back after acquiring without comparing the pair's
// Session, it may be the successor's.
func (w *walk) lockIndex(api *API, pair ssa.Value, pos token.Pos, what string) source {
	checked := sessionCompared(pair)
	if get := producer(pair); get != nil && !checked {
		if l := w.t.heldAt(get); l != nil {
			o := Origin{Kind: LateDrawn, Pos: pos, What: what, System: Consul,
				Note: fmt.Sprintf("it is read back after %s (line %d) was taken without comparing the pair's Session "+
					"with this holder's: a holder that pauses in between reads its successor's LockIndex",
					l.What, w.t.b.pass.Fset.Position(l.Pos).Line)}
			return source{Origin: o}
		}
	}
	switch {
	case w.t.index().keyDeleted:
		return fromAPI(api, pos, what)
	case checked:
		return monotonic(pos, what, "the pair's Session is compared with this holder's", Consul)
	}
	return source{}
}

// sessionCompared reports whether the Session field of the pair that ptr
// points to is compared with a session ID (if pair.Session != id { ... }).
// A comparison with a constant (pair.Session != "") only says that someone
// holds the lock, not that this holder does.
func sessionCompared(ptr ssa.Value) bool {
	refs := ptr.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != "Session" {
			continue
		}
		for _, r := range *fa.Referrers() {
			load, ok := r.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			for _, u := range *load.Referrers() {
				if cmp, ok := u.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) && !isConst(cmp.X) && !isConst(cmp.Y) {
					return true
				}
			}
		}
	}
	return false
}

// heldAt returns a lease held where instr runs (other than one instr itself
// takes, and other than a bare session, which is not yet the lock a counter
// would be ordered by), or nil.
func (t *tokenFlow) heldAt(instr ssa.Instruction) *Lease {
	var entered leaseSet // judged at the function's calls, as for any function
	if fn := instr.Parent(); fn != nil && t.b.regions != nil {
		entered = t.b.regions.leaseOnly[outermost(fn)]
	}
	for _, l := range t.b.heldBefore(instr) {
		if l.Call != instr && !t.sessionOnly(l) && !slices.Contains(entered, l) {
			return l
		}
	}
	return nil
}

// lateAt returns a lease held where instr runs, in its function or, for a
// function of the package that holds none there, at a call site of it.
func (t *tokenFlow) lateAt(instr ssa.Instruction, depth int) *Lease {
	if instr == nil {
		return nil
	}
	if l := t.heldAt(instr); l != nil {
		return l
	}
	fn := instr.Parent()
	if depth >= 3 || fn == nil || t.index().escapes[fn] {
		return nil
	}
	for _, site := range t.index().callSites[fn] {
		if l := t.lateAt(site, depth+1); l != nil {
			return l
		}
	}
	return nil
}

// sessionOnly reports whether l was opened by a grant (an etcd session or
// lease, a Consul session) rather than a lock taken under it.
func (t *tokenFlow) sessionOnly(l *Lease) bool {
	if l.Call == nil {
		return false
	}
	c, ok := t.b.resolve(l.Call.Common())
	return ok && c.role.Has(RoleGrant)
}

// describe names the value a field is read from, for diagnostics:
// "Mutex.Header()" for a call result, else the value's type name.
func (t *tokenFlow) describe(x ssa.Value) string {
	if p := producer(x); p != nil {
		if fn := calleeFunc(p.Common()); fn != nil {
			return shortName(fn) + "()"
		}
	}
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			return t.describe(fa.X) + "." + fieldName(fa.X.Type(), fa.Field)
		}
	}
	if name := typeName(x.Type()); name != "" {
		return name
	}
	return x.Name()
}

// inPackage reports whether fn is a function of the package being
// analyzed (its SSA body is the one built for this pass).
func (t *tokenFlow) inPackage(fn *ssa.Function) bool {
	return fn.Pkg != nil && fn.Pkg.Pkg == t.b.pass.Pkg
}

// isErrorResult reports whether result i of the call is an error.
func isErrorResult(c *ssa.CallCommon, i int) bool {
	res := c.Signature().Results()
	return i < res.Len() && types.Identical(res.At(i).Type(), types.Universe.Lookup("error").Type())
}

func monotonic(pos token.Pos, what, note string, system System) source {
	return source{Origin: Origin{Kind: Monotonic, Pos: pos, What: what, Note: note, System: system}}
}

func counter(call *ssa.Call, what string, system System) source {
	return source{Origin: Origin{Kind: Monotonic, Pos: call.Pos(), What: what, System: system,
		Note: "a counter drawn in its own step"}, counter: true, drawAt: call}
}

// fromAPI is the source a catalog row gives a value.
func fromAPI(api *API, pos token.Pos, what string) source {
	kind := Unknown
	switch {
	case api.Role.Has(RoleToken):
		kind = Monotonic
	case api.Role.Has(RoleNotToken):
		kind = NotOrdered
	}
	return source{Origin: Origin{Kind: kind, Pos: pos, What: what, Note: api.Note, System: api.System}}
}

// isBasic reports whether t is a number, a string or a bool, possibly named.
func isBasic(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

func indexOf[T comparable](xs []T, x T) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// index builds the flow index on first use.
func (t *tokenFlow) index() *flowIndex {
	if t.idx != nil {
		return t.idx
	}
	ix := &flowIndex{
		fieldSources: make(map[*types.Var][]ssa.Value),
		callSites:    make(map[*ssa.Function][]ssa.CallInstruction),
		closures:     make(map[*ssa.Function][]*ssa.MakeClosure),
		escapes:      make(map[*ssa.Function]bool),
		globals:      make(map[*ssa.Global][]ssa.Value),
	}
	for _, fn := range t.b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				t.indexInstr(ix, instr)
			}
		}
	}
	t.idx = ix
	return ix
}

// indexInstr records what instr defines for the index.
func (t *tokenFlow) indexInstr(ix *flowIndex, instr ssa.Instruction) {
	switch x := instr.(type) {
	case *ssa.Store:
		switch addr := x.Addr.(type) {
		case *ssa.FieldAddr:
			if fv := fieldVar(addr.X.Type(), addr.Field); fv != nil {
				ix.fieldSources[fv.Origin()] = append(ix.fieldSources[fv.Origin()], x.Val)
				if fv.Name() == "Behavior" && typeName(addr.X.Type()) == "SessionEntry" {
					if s, ok := constString(x.Val); ok && s == "delete" {
						ix.keyDeleted = true
					}
				}
			}
		case *ssa.Global:
			ix.globals[addr] = append(ix.globals[addr], x.Val)
		}
	case *ssa.FieldAddr:
		if scannedInto(x) {
			if fv := fieldVar(x.X.Type(), x.Field); fv != nil {
				ix.fieldSources[fv.Origin()] = append(ix.fieldSources[fv.Origin()], x)
			}
		}
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			ix.closures[fn] = append(ix.closures[fn], x)
			if !onlyCalled(x) {
				ix.escapes[fn] = true
			}
		}
	case ssa.CallInstruction:
		t.indexCall(ix, x)
	}
	// A function used other than as the callee of a call escapes.
	for _, op := range instr.Operands(nil) {
		if fn, ok := (*op).(*ssa.Function); ok && t.inPackage(fn) {
			if call, ok := instr.(ssa.CallInstruction); ok && call.Common().Value == fn {
				continue
			}
			if _, ok := instr.(*ssa.MakeClosure); ok {
				continue
			}
			ix.escapes[fn] = true
		}
	}
}

// indexCall records a static call and notes calls that delete a Consul
// lock key (Lock.Destroy, Semaphore.Destroy).
func (t *tokenFlow) indexCall(ix *flowIndex, call ssa.CallInstruction) {
	common := call.Common()
	if fn := common.StaticCallee(); fn != nil && t.inPackage(fn) {
		ix.callSites[fn] = append(ix.callSites[fn], call)
	}
	if obj := calleeFunc(common); obj != nil && obj.Name() == "Destroy" && obj.Pkg() != nil &&
		CanonicalPath(obj.Pkg().Path()) == pkgConsul {
		if r := receiverName(obj); r == "Lock" || r == "Semaphore" {
			ix.keyDeleted = true
		}
	}
}

// getter returns the catalog row of the field a protobuf getter reads:
// (*ResponseHeader).GetRevision reads ResponseHeader.Revision.
func (t *tokenFlow) getter(fn *types.Func) *API {
	name, ok := strings.CutPrefix(fn.Name(), "Get")
	sig, isSig := fn.Type().(*types.Signature)
	if !ok || name == "" || !isSig || sig.Recv() == nil || sig.Params().Len() != 0 {
		return nil
	}
	recv := sig.Recv().Type()
	if p, ok := recv.Underlying().(*types.Pointer); ok {
		recv = p.Elem()
	}
	st, ok := recv.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return t.b.ix.lookupField(recv, st.Field(i))
		}
	}
	return nil
}

// onlyCalled reports whether a closure is only ever called, never stored
// or passed on.
func onlyCalled(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		call, ok := ref.(ssa.CallInstruction)
		if !ok || call.Common().Value != mc {
			return false
		}
		for _, a := range call.Common().Args {
			if a == mc {
				return false
			}
		}
	}
	return true
}

// scannedInto reports whether the field address fa is passed to a Scan.
func scannedInto(fa *ssa.FieldAddr) bool {
	refs := fa.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if _, ok := ref.(*ssa.MakeInterface); ok {
			return scannedFrom(fa) != nil
		}
	}
	return false
}

// exportTokenFacts exports a TokenFact for each function of the package
// whose result has a known origin, and for each struct field of the package
// that is stored values of one origin, so that importers follow tokens
// across packages. A counter the function draws holding no lease is
// exported as one (TokenFact.Counter): whether it is drawn late depends on
// the caller.
func (b *builder) exportTokenFacts() {
	t := b.tokens
	if t == nil || b.funcs == nil {
		return
	}
	exported := false
	export := func(obj types.Object, o Origin) {
		o.Pos = token.NoPos // positions mean nothing in another package's pass
		b.pass.ExportObjectFact(obj, &TokenFact{Origin: o})
		exported = true
	}
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || b.fencegen.declares(obj) { // its API says what it returns
			continue
		}
		if f, ok := t.resultOrigin(fn); ok {
			f.Origin.Pos = token.NoPos
			b.pass.ExportObjectFact(obj, &f)
			exported = true
		}
	}
	for fv := range t.index().fieldSources {
		if fv.Pkg() != b.pass.Pkg || !b.isTokenType(fv.Type()) {
			continue
		}
		if s := t.newWalk().fieldSources(fv); s.known() && !s.counter {
			export(fv, s.Origin)
		}
	}
	if exported {
		b.pass.ExportPackageFact(&PackageFact{})
	}
}

// resultOrigin returns the origin of fn's first result that can carry a
// token (a number or a string, or fencegen's Token), if it is known and
// does not depend on the caller's arguments. A counter fn draws holding no
// lease is a Counter: the caller's leases decide whether it is late.
func (t *tokenFlow) resultOrigin(fn *ssa.Function) (TokenFact, bool) {
	res := fn.Signature.Results()
	for i := range res.Len() {
		if !t.b.isTokenType(res.At(i).Type()) {
			continue
		}
		s := t.newWalk().merge(returnValues(fn, i))
		switch {
		case !s.known():
			return TokenFact{}, false
		case s.counter:
			if l := t.heldAt(s.drawAt); l != nil {
				return TokenFact{Origin: t.lateDrawn(s, l)}, true
			}
			return TokenFact{Origin: s.Origin, Counter: true}, true
		}
		return TokenFact{Origin: s.Origin}, true
	}
	return TokenFact{}, false
}

// TokenFromCaller reports whether w's token is a parameter of the function
// that makes the write and the package's calls of that function are writes
// of their own (it is fenced by that parameter): the token's origin is at
// each call, and a check reports there rather than at w.
func (m *Model) TokenFromCaller(w *Write) bool {
	if m == nil || w == nil || w.Token == nil || w.Fn == nil {
		return false
	}
	fn := outermost(w.Fn)
	if tokenParam(fn, w.Token) < 0 {
		return false
	}
	for _, x := range m.Writes {
		if x.Via != "" && x.Call != nil && x.Call.Common().StaticCallee() == fn {
			return true
		}
	}
	return false
}

// leaseAround returns a lease held where w is made: one of w.Held, or, for
// a write in a function of the package that holds none itself, a lease held
// where the package calls that function (up to a few calls up). It is nil
// when no lease is seen.
func (t *tokenFlow) leaseAround(w *Write) *Lease {
	if len(w.Held) > 0 {
		return w.Held[0]
	}
	if t.b.funcs == nil || w.Call == nil {
		return nil
	}
	return t.lateAt(w.Call, 0)
}

package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// SQL text is read from SSA, not only from constants: the constant
// fragments of + and fmt.Sprintf are folded, and package-level variables,
// struct fields and maps of named queries assigned constants (or filled
// from //go:embed files) are followed to what was assigned. What stays
// out of sight becomes a hole (sqlscan.HoleMarker) that remembers the Go
// value spliced in, so "fence < %d" with the token still fences, and a
// WHERE clause built at run time is known to be unseen rather than absent.

// A sqlText is the text of a query as far as the package shows it.
type sqlText struct {
	text  string
	holes []hole // hole n is holes[n-1]
}

// A hole is a run-time value spliced into SQL text.
type hole struct {
	value ssa.Value // the Go value spliced in, or nil when there is not one
	text  bool      // a string, which may hold SQL (a condition, a clause), not only a value
	// builder is the import path of the query builder whose condition
	// (sq.Lt{...}, a Sqlizer) value holds, or "".
	builder string
	// param (1 + the parameter's index), join and elem say what fills the
	// hole of a helper's statement (sqltemplate.go).
	param int
	join  *TemplateJoin
	elem  bool
}

// holeValue returns the Go value of hole p of t, or nil.
func (t sqlText) holeValue(p sqlscan.Param) ssa.Value {
	if p.Style != sqlscan.Hole || p.Index < 1 || p.Index > len(t.holes) {
		return nil
	}
	return t.holes[p.Index-1].value
}

// openHoles returns the numbers of the holes that stand where a condition
// may be (sqlscan's Open) and are text that may hold one.
func (t sqlText) openHoles(open []sqlscan.Param) []int {
	var ns []int
	for _, p := range open {
		if p.Index >= 1 && p.Index <= len(t.holes) && t.holes[p.Index-1].text {
			ns = append(ns, p.Index)
		}
	}
	return ns
}

// maxFoldDepth and maxFoldText bound the folding of one query.
const (
	maxFoldDepth = 12
	maxFoldText  = 1 << 16
)

// sqlText folds the SQL text v carries. ok is false when no part of it is
// constant: such a query cannot be seen at all.
func (b *builder) sqlText(v ssa.Value) (sqlText, bool) {
	if v == nil {
		return sqlText{}, false
	}
	if s, ok := constString(v); ok { // the common case, without allocating a folder
		return sqlText{text: s}, true
	}
	f := &folder{b: b, busy: make(map[any]bool)}
	text := f.fold(v, 0)
	if !f.seen || len(text) > maxFoldText {
		return sqlText{}, false
	}
	return sqlText{text: text, holes: f.holes}, true
}

// A folder folds one query's text.
type folder struct {
	b     *builder
	holes []hole
	seen  bool         // some fragment is constant
	busy  map[any]bool // globals, fields and functions being folded (cycles)
	// When the text is read along each path (sqlTexts), choices holds the
	// edge taken at each phi met so far, in order, and arity how many
	// edges each had; visits counts the phis a builder chain went through
	// (a loop is followed around once).
	enumerate bool
	choices   []int
	arity     []int
	visits    map[*ssa.Phi]int
	dead      bool // the path takes a branch the bound arguments rule out
	// inChain counts the builder chains being read (built); otherChoice
	// records a phi chosen outside one.
	inChain     int
	otherChoice bool
	// saveSelected writes GORM's Save out as if Select were chained
	// (sqlorm.go: the UPDATE alone, without the upsert that follows it).
	saveSelected bool
	// bound maps the parameters of a helper being folded (returned) to the
	// arguments of the call that is being read.
	bound map[*ssa.Parameter]ssa.Value
	// tmpl is the helper whose statement is being read as a template: its
	// parameters are holes its callers fill (sqltemplate.go). elem is the
	// element of a list being folded.
	tmpl *ssa.Function
	elem *elemAt
}

// hole records v as a run-time value and returns its marker.
func (f *folder) hole(v ssa.Value) string {
	h := hole{value: v, text: v == nil || isStringish(v.Type())}
	f.holes = append(f.holes, h)
	return sqlscan.HoleMarker(len(f.holes))
}

// isStringish reports whether t is a string, []byte or an interface (any
// text may be in it), as opposed to a number or a bool.
func isStringish(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Interface:
		return true
	}
	return false
}

// fold returns the text of v with holes for what cannot be seen.
func (f *folder) fold(v ssa.Value, depth int) string {
	if depth > maxFoldDepth {
		return f.hole(v)
	}
	switch x := unwrap(v).(type) {
	case *ssa.Const:
		if s, ok := constText(x); ok {
			f.seen = true
			return s
		}
	case *ssa.BinOp:
		if x.Op == token.ADD && isStringish(x.Type()) {
			return f.fold(x.X, depth+1) + f.fold(x.Y, depth+1)
		}
	case *ssa.Convert: // string(b), []byte(s)
		if isStringish(x.X.Type()) {
			return f.fold(x.X, depth+1)
		}
	case *ssa.Extract:
		if x.Index == 0 {
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return f.call(c, depth)
			}
		}
	case *ssa.Call:
		return f.call(x, depth)
	case *ssa.Parameter:
		if a, ok := f.bound[x]; ok {
			return f.fold(a, depth+1)
		}
		if f.tmpl != nil && x.Parent() == f.tmpl {
			if i := paramIndex(f.tmpl, x); i >= 0 {
				f.holes = append(f.holes, hole{value: x, text: isStringish(x.Type()), param: i + 1})
				return sqlscan.HoleMarker(len(f.holes))
			}
		}
	case *ssa.Phi:
		return f.phi(x, depth)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if s, ok := f.loadedElem(x.X, depth); ok {
				return s
			}
			if s, ok := f.load(x.X, depth); ok {
				return s
			}
		}
	case *ssa.Field:
		if s, ok := f.assigned(fieldVar(x.X.Type(), x.Field), depth); ok {
			return s
		}
	case *ssa.Lookup:
		if s, ok := f.lookup(x, depth); ok {
			return s
		}
	}
	return f.hole(v)
}

// constText renders a constant as SQL text: a string as is, a number as
// written.
func constText(c *ssa.Const) (string, bool) {
	if c.Value == nil {
		return "", false
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value), true
	case constant.Int, constant.Float:
		return c.Value.ExactString(), true
	}
	return "", false
}

// call folds the text a call returns: fmt.Sprintf, strconv's formatting,
// embed.FS.ReadFile, and functions of the package that return one text.
func (f *folder) call(c *ssa.Call, depth int) string {
	common := c.Common()
	fn := calleeFunc(common)
	if fn == nil || fn.Pkg() == nil {
		return f.hole(c)
	}
	if CanonicalPath(fn.Pkg().Path()) == pkgGorm {
		if s, ok := f.gorm(c, depth); ok {
			return s
		}
	}
	if s, ok := f.boiler(c, depth); ok {
		return s
	}
	if s, ok := f.strmangle(c); ok {
		return s
	}
	if f.b.grammarOf(fn.Pkg().Path()) != nil {
		recv := ssa.Value(c)
		if fn.Name() == "ToSql" || fn.Name() == "ToSQL" {
			recv = callRecv(common)
		}
		if s, ok := f.built(recv, depth); ok {
			return s
		}
	}
	if i := sqlxQueryArg(fn); i >= 0 {
		return f.fold(arg(common, i), depth+1)
	}
	if ff, ok := f.b.formatterFact(common); ok { // fmt.Sprintf, sqlescape.MustEscapeSQL (sqlformat.go)
		return f.printf(arg(common, ff.Format), arg(common, ff.Args), depth)
	}
	switch path, name := fn.Pkg().Path(), fn.Name(); {
	case path == "strings" && name == "Join":
		return f.join(c, depth)
	case path == "strconv" && (name == "Itoa" || name == "FormatInt" || name == "FormatUint"):
		return f.hole(arg(common, 0)) // a number: the hole carries it (a token formatted into the text)
	case sameStatement(fn):
		return f.fold(arg(common, 0), depth+1)
	case path == "embed" && name == "ReadFile" && receiverName(fn) == "FS":
		if s, ok := f.b.embeddedFile(callRecv(common), arg(common, 0)); ok {
			f.seen = true
			return s
		}
	}
	if callee := common.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == f.b.pass.Pkg {
		if s, ok := f.returned(callee, common, depth); ok {
			return s
		}
	}
	if s, ok := f.b.importedText(fn); ok {
		return s
	}
	return f.hole(c)
}

// returned folds the text a function of the package returns: the text
// every return gives alike, or, when the function returns from one place,
// that text read with the function's parameters standing for the call's
// arguments. The latter reads the helpers that format a statement from a
// table name and column lists,
//
//	func prepareUpdate(table string, cols []string) string {
//		return fmt.Sprintf("UPDATE %s SET %s WHERE id = :id", table, set(cols))
//	}
//
// as the statement they make, with holes for what they compute.
func (f *folder) returned(fn *ssa.Function, call *ssa.CallCommon, depth int) (string, bool) {
	if f.busy[fn] || fn.Signature.Results().Len() == 0 {
		return "", false
	}
	f.busy[fn] = true
	defer delete(f.busy, fn)
	var texts []ssa.Value
	for _, blk := range fn.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			texts = append(texts, ret.Results[0])
		}
	}
	if s, ok := f.same(texts, depth); ok || call == nil || len(texts) != 1 || len(fn.Params) != len(call.Args) {
		return s, ok
	}
	return f.inlined(fn.Params, call.Args, texts[0], depth), true
}

// inlined folds v with params bound to args.
func (f *folder) inlined(params []*ssa.Parameter, args []ssa.Value, v ssa.Value, depth int) string {
	if f.bound == nil {
		f.bound = make(map[*ssa.Parameter]ssa.Value)
	}
	for i, p := range params {
		f.bound[p] = args[i]
	}
	defer func() {
		for _, p := range params {
			delete(f.bound, p)
		}
	}()
	return f.fold(v, depth+1)
}

// same folds each of vs alone and returns their text if they all agree and
// hold no hole.
func (f *folder) same(vs []ssa.Value, depth int) (string, bool) {
	text, ok := "", false
	for _, v := range vs {
		sub := &folder{b: f.b, busy: f.busy}
		s := sub.fold(v, depth+1)
		if !sub.seen || len(sub.holes) > 0 || ok && s != text {
			return "", false
		}
		text, ok = s, true
	}
	if ok {
		f.seen = true
	}
	return text, ok
}

// phi folds a value chosen by control flow: the text every edge gives
// alike, or, read along each path, the text of the edge this path takes.
func (f *folder) phi(p *ssa.Phi, depth int) string {
	if f.busy[p] {
		return f.hole(p)
	}
	f.busy[p] = true
	defer delete(f.busy, p)
	if s, ok := f.same(p.Edges, depth); ok {
		return s
	}
	if f.enumerate {
		return f.fold(f.choose(p), depth+1)
	}
	return f.hole(p)
}

// choose returns the edge of p this path takes, and records p as a choice
// point. An edge the arguments of the helper being read rule out (the
// branch tests a parameter against a constant, and the call passes
// another) makes the path dead: a helper called with "jobs" does not send
// the statement its "steps" branch builds.
func (f *folder) choose(p *ssa.Phi) ssa.Value {
	e := f.chooseOf(len(p.Edges))
	if len(f.bound) > 0 && !f.edgeFeasible(p, e) {
		f.dead = true
	}
	return p.Edges[e]
}

// chooseOf records a choice among n values at this point of the path and
// returns the one the path takes: a phi's edge (choose), or one of a memo
// field's reaching stores.
func (f *folder) chooseOf(n int) int {
	i := len(f.arity)
	f.arity = append(f.arity, n)
	if i >= len(f.choices) {
		f.choices = append(f.choices, 0)
	}
	if f.inChain == 0 {
		f.otherChoice = true
	}
	return f.choices[i]
}

// edgeFeasible reports whether control may reach p's block through its
// edge e: false when the nearest branch above that edge tests a condition
// the bound arguments decide the other way.
func (f *folder) edgeFeasible(p *ssa.Phi, e int) bool {
	child, blk := p.Block(), p.Block().Preds[e]
	for range maxFoldDepth {
		if br, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If); ok {
			if blk.Succs[0] == blk.Succs[1] {
				return true
			}
			val, known := f.decided(br.Cond)
			return !known || val == (blk.Succs[0] == child)
		}
		if len(blk.Preds) != 1 {
			return true
		}
		child, blk = blk, blk.Preds[0]
	}
	return true
}

// decided evaluates a branch condition that compares values the folder
// sees whole (constants, and parameters bound to constants): x == y, x !=
// y, and their negation.
func (f *folder) decided(cond ssa.Value) (val, known bool) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			v, ok := f.decided(c.X)
			return !v, ok
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false, false
		}
		x, okx := f.constant(c.X, 0)
		y, oky := f.constant(c.Y, 0)
		if !okx || !oky {
			return false, false
		}
		return (x == y) == (c.Op == token.EQL), true
	}
	return false, false
}

// through resolves a builder chain's value that comes from a phi (q =
// q.Where(...) in an if) to the edge this path takes. Read as one text,
// the phi stays: the chain is then not seen. A loop is followed around
// once, then left through its first edge.
func (f *folder) through(v ssa.Value) ssa.Value {
	for {
		p, ok := unwrap(v).(*ssa.Phi)
		if !ok || !f.enumerate {
			return v
		}
		if f.visits == nil {
			f.visits = make(map[*ssa.Phi]int)
		}
		f.visits[p]++
		switch n := f.visits[p]; {
		case n <= 2:
			v = f.choose(p)
		case n <= 4:
			v = p.Edges[0]
		default:
			return nil
		}
	}
}

// maxAlternatives bounds the paths along which one query is read.
const maxAlternatives = 16

// sqlTexts folds the SQL text v carries along each path through the
// branches that choose it (a query picked in an if, a builder chain
// extended in one). ok is false when the text cannot be seen on some path
// or there are too many paths, except along a builder chain (foldTexts).
func (b *builder) sqlTexts(v ssa.Value) ([]sqlText, bool) {
	if v == nil {
		return nil, false
	}
	if s, ok := constString(v); ok {
		return []sqlText{{text: s}}, true
	}
	return b.foldTexts(func(f *folder) string { return f.fold(v, 0) })
}

// queryTexts returns the SQL texts a call to a SQL API sends with query:
// for a helper that formats its query (SQLParamFact.Format), the query
// formatted with the call's arguments.
func (b *builder) queryTexts(c *ssa.CallCommon, query ssa.Value) ([]sqlText, bool) {
	if h, ok := b.helperFact(c); ok && h.Format > 0 {
		if query == nil || query != arg(c, h.Query) {
			return nil, false
		}
		return b.foldTexts(func(f *folder) string { return f.printf(query, arg(c, h.Format-1), 0) })
	}
	return b.sqlTexts(query)
}

// foldTexts folds a text along each path, as sqlTexts says. Past
// maxAlternatives paths it gives up, unless every branch met so far is in
// a query builder's chain (its receivers, or a clause's argument): one
// that sets each changed column
// under its own if (UPDATE ... SET a only if a changed, b only if b
// changed, ... WHERE uid = $n) has 2^n paths that differ in their SET
// lists, and a path found unfenced is one the code has, whatever the
// others say, so the texts of the first paths are kept (the callers judge
// a write by its weakest path; one they would call fenced may be a miss).
func (b *builder) foldTexts(root func(*folder) string) ([]sqlText, bool) {
	var texts []sqlText
	var choices []int
	otherChoice := false
	for {
		f := &folder{b: b, busy: make(map[any]bool), enumerate: true, choices: choices}
		text := root(f)
		otherChoice = otherChoice || f.otherChoice
		if !f.dead {
			if !f.seen || len(text) > maxFoldText {
				return nil, false
			}
			texts = append(texts, sqlText{text: text, holes: f.holes})
		}
		if choices = nextChoice(f.choices, f.arity); choices == nil {
			return texts, len(texts) > 0
		}
		if len(texts) == maxAlternatives {
			return texts, !otherChoice
		}
	}
}

// nextChoice advances choices like an odometer, the last choice point
// first (the points after it are met again on the new path); nil when
// every path was taken.
func nextChoice(choices, arity []int) []int {
	for i := min(len(choices), len(arity)) - 1; i >= 0; i-- {
		if choices[i]+1 < arity[i] {
			next := slices.Clone(choices[:i+1])
			next[i]++
			return next
		}
	}
	return nil
}

// printf folds a printf-like formatter's text (fmt.Sprintf, sqlformat.go)
// with a constant format: each verb becomes its argument's text, or a hole
// that carries the argument.
func (f *folder) printf(formatArg, argsArg ssa.Value, depth int) string {
	format, ok := constString(formatArg)
	if !ok {
		format, ok = f.memoFormat(formatArg, depth)
	}
	if !ok {
		return f.hole(nil)
	}
	f.seen = true
	args, known := variadic(argsArg)
	var out strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			out.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == '[' { // %[2]d
			k := strings.IndexByte(format[j:], ']')
			if k < 0 {
				return out.String() + f.hole(nil)
			}
			if n, err := strconv.Atoi(format[j+1 : j+k]); err == nil {
				next = n - 1
			}
			j += k + 1
		}
		if j >= len(format) {
			break
		}
		verb := format[j]
		i = j
		if verb == '%' {
			out.WriteByte('%')
			continue
		}
		var a ssa.Value
		if known && next >= 0 && next < len(args) {
			a = args[next]
		}
		next++
		out.WriteString(f.verb(verb, a, depth))
	}
	return out.String()
}

// verb renders one Sprintf argument: a constant as Go would print it with
// %s, %v, %d; anything else folded (a string) or as a hole.
func (f *folder) verb(verb byte, a ssa.Value, depth int) string {
	if a == nil {
		return f.hole(nil)
	}
	if verb == '?' { // sqlescape's value, written out quoted: a value, whatever its constant
		return f.hole(unwrap(a))
	}
	if c, ok := unwrap(a).(*ssa.Const); ok && verb != 'q' && verb != 'x' && verb != 'X' {
		if s, ok := constText(c); ok {
			return s
		}
	}
	if verb == 's' || verb == 'v' {
		return f.fold(a, depth+1)
	}
	return f.hole(unwrap(a))
}

// load folds a load from a package-level variable or a struct field.
func (f *folder) load(addr ssa.Value, depth int) (string, bool) {
	switch x := addr.(type) {
	case *ssa.Global:
		if s, ok := f.b.embeddedVar(x); ok {
			f.seen = true
			return s, true
		}
		return f.assigned(x, depth)
	case *ssa.FieldAddr:
		if s, ok := f.assigned(fieldVar(x.X.Type(), x.Field), depth); ok {
			return s, true
		}
		return f.memoField(x, depth)
	case *ssa.FreeVar: // a query built before the closure that sends it, assigned once
		if alloc, ok := boundTo(x).(*ssa.Alloc); ok {
			if val := storedOnce(alloc); val != nil {
				return f.fold(val, depth+1), true
			}
		}
	}
	return "", false
}

// assigned folds what the package stores into a global or a field (key is
// the *ssa.Global or the field's *types.Var), when every store agrees.
func (f *folder) assigned(key any, depth int) (string, bool) {
	if key == nil || key == (*types.Var)(nil) || f.busy[key] {
		return "", false
	}
	stores := f.b.storesTo(key)
	if len(stores) == 0 {
		return "", false
	}
	f.busy[key] = true
	defer delete(f.busy, key)
	return f.same(stores, depth)
}

// lookup folds queries["name"] on a map the package fills with constant
// keys, or whose named queries come from an embedded file.
func (f *folder) lookup(l *ssa.Lookup, depth int) (string, bool) {
	name, ok := constString(l.Index)
	if !ok || l.CommaOk {
		return "", false
	}
	root := mapRoot(l.X)
	if root == nil || f.busy[root] {
		return "", false
	}
	if vs := f.b.mapEntries(root)[name]; len(vs) > 0 {
		f.busy[root] = true
		defer delete(f.busy, root)
		return f.same(vs, depth)
	}
	if s, ok := f.b.namedQuery(name); ok {
		f.seen = true
		return s, true
	}
	return "", false
}

// mapRoot names the variable a map value was loaded from: its *ssa.Global
// or its field's *types.Var.
func mapRoot(m ssa.Value) any {
	switch x := unwrap(m).(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		switch a := x.X.(type) {
		case *ssa.Global:
			return a
		case *ssa.FieldAddr:
			if v := fieldVar(a.X.Type(), a.Field); v != nil {
				return v
			}
		}
	case *ssa.Field:
		if v := fieldVar(x.X.Type(), x.Field); v != nil {
			return v
		}
	case *ssa.MakeMap:
		return x
	}
	return nil
}

// assignments indexes, once per package, the values stored into globals
// and struct fields and the constant-keyed entries put into maps.
type assignments struct {
	stores map[any][]ssa.Value            // *ssa.Global or *types.Var -> stored values
	maps   map[any]map[string][]ssa.Value // map root -> key -> values
}

// storesTo returns the values the package stores into a global or field.
func (b *builder) storesTo(key any) []ssa.Value {
	return b.assigned().stores[key]
}

// mapEntries returns the constant-keyed entries the package puts into the
// map rooted at root.
func (b *builder) mapEntries(root any) map[string][]ssa.Value {
	return b.assigned().maps[root]
}

func (b *builder) assigned() *assignments {
	if b.assigns != nil {
		return b.assigns
	}
	a := &assignments{stores: make(map[any][]ssa.Value), maps: make(map[any]map[string][]ssa.Value)}
	made := make(map[*ssa.MakeMap][]any) // a map literal and the variables it was stored into
	var updates []*ssa.MapUpdate
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					var key any
					switch addr := x.Addr.(type) {
					case *ssa.Global:
						key = addr
					case *ssa.FieldAddr:
						if v := fieldVar(addr.X.Type(), addr.Field); v != nil {
							key = v
						}
					}
					if key != nil {
						a.stores[key] = append(a.stores[key], x.Val)
						if mm, ok := unwrap(x.Val).(*ssa.MakeMap); ok {
							made[mm] = append(made[mm], key)
						}
					}
				case *ssa.MapUpdate:
					updates = append(updates, x)
				}
			}
		}
	}
	for _, u := range updates {
		name, ok := constString(u.Key)
		if !ok {
			continue
		}
		roots := []any{mapRoot(u.Map)}
		if mm, ok := unwrap(u.Map).(*ssa.MakeMap); ok {
			roots = append(roots, made[mm]...)
		}
		for _, r := range roots {
			if r == nil {
				continue
			}
			if a.maps[r] == nil {
				a.maps[r] = make(map[string][]ssa.Value)
			}
			a.maps[r][name] = append(a.maps[r][name], u.Value)
		}
	}
	b.assigns = a
	return a
}

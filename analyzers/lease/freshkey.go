package lease

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Redis write to a key built from a fresh identifier needs no fence. A
// worker that hands a job to the others under a redsync lock does this:
//
//	id := uuid.NewString()
//	rdb.Set(ctx, "job:"+id, body, time.Hour)  // a new key: no fence needed
//	rdb.LPush(ctx, "jobs:queue", id)          // the link into shared state: judged
//
// The key is new: no other holder, stale or current, can know it before
// this holder tells someone, so a stale holder's write to it overwrites
// nothing another holder wrote. Whatever harm the stale holder does, it
// does with the write that links the new key into shared state (the
// LPUSH), and that write is still judged, so the one finding lands where
// the user fixes it. Precisely, a go-redis command on one key (SET, HSET,
// EXPIRE, RPUSH, ...; not RENAME, SMOVE or MSET, which name a second key)
// is fenced when its key is built from a fresh identifier:
//
//   - the identifier is drawn in the function that writes, by a
//     catalogued generator (RoleFreshID: google/uuid's New, NewString,
//     NewRandom, NewV7, gofrs' NewV4, NewV7, pborman/uuid's New and
//     NewRandom, HashiCorp's GenerateUUID, crypto/rand.Text, xid.New,
//     ksuid.New, ulid.Make; ulid.New, MustNew and GenerateUUIDWithReader
//     only from a RoleEntropy source: crypto/rand.Reader,
//     ulid.DefaultEntropy(), ulid.Monotonic over one), or is a
//     parameter the caller fills with one: a function whose every
//     unfenced write is to a key built from a parameter gets that
//     parameter in WritesFact.FreshKeys, and a call of it is judged by
//     the same rules with its argument (through helpers of helpers, and
//     across packages; not through interfaces, whose implementations may
//     differ), or is captured, assigned once before the call, by the
//     closure go-redis's Pipelined or TxPipelined runs;
//   - it reaches the key through steps that keep all of it: its String
//     method, uuid.Must, conversions, string concatenation, fmt.Sprintf
//     without a precision (%.4s would cut it), and helpers of the same
//     package that do only these (a key builder such as
//     func streamKey(chat, id string) string). Mixing in other values keeps
//     the whole key fresh (chat:<chatID>:stream:<fresh>);
//   - nothing else sees the identifier before the write: every other use
//     (a store into a struct, a call, a log line) comes after it on every
//     path, and the write is not in a loop that reuses the identifier.
//     Other writes to keys built from it are not such uses.
//
// FreshKeys only narrows a WritesFact: the goroutine, spawner, chosen-func
// and interface paths that do not read it still see a write.
//
// Not counted: a part of the identifier (ChirpStack's downlink token, 16
// bits of a UUID: two holders pick the same token with a chance of one in
// 65536, which is a bug of the application with or without a lease, but
// no longer "a key no one else can know"); an identifier read back from a
// context, a struct field or the store (who else read it is unknown); a
// key built by a helper of another package (no fact says it keeps its
// parameters whole); time-based UUIDs; snowflake IDs (unique only by a
// node number the application configures, often the same in every
// replica); and SQL. A row inserted under a fresh ID is still
// found by its other columns (WHERE order_id = $1, count(*) per build): a
// stale holder's INSERT after the next holder's check-then-insert is a
// duplicate payment or a second volume for the same container, the very
// check-then-act a lock exists for, whatever its primary key. Redis
// readers that find keys by pattern (SCAN MATCH job:*) would see a fresh
// key too; fencelint assumes keys are named, not scanned.

// freshKeyCommands are the go-redis writes that touch only the key in
// their first argument after ctx.
func freshKeyCommand(name string) bool {
	switch name {
	case "MSet", "MSetNX", "Del", "Unlink", "Rename", "RenameNX", "SMove", "FlushDB", "FlushAll", "SlaveOf":
		return false
	}
	return slices.Contains(redisWrites(), name)
}

// freshKeyWrite marks fenced a Redis write whose key is built from a
// fresh identifier drawn in fn that nothing sees before the write, and
// notes the parameters it is built from when they are what the key keeps.
func (b *builder) freshKeyWrite(w *Write, fn *ssa.Function, call ssa.CallInstruction, name string) {
	if !freshKeyCommand(name) {
		return
	}
	key := redisArg(call.Common(), 1)
	if key == nil {
		return
	}
	if params, ok := b.freshValue(key, fn, call); ok {
		b.markFresh(w, params)
	}
}

// freshCall judges a call of a function whose every unfenced write is to
// a key built from each parameter in mask: fenced when the call passes a
// fresh identifier in one of them, or to be judged at fn's callers when
// what it passes comes from fn's own parameters.
func (b *builder) freshCall(w *Write, fn *ssa.Function, call ssa.CallInstruction, mask uint64) {
	var params uint64
	for i := range 64 {
		if mask&(1<<i) == 0 {
			continue
		}
		p, ok := b.freshValue(arg(call.Common(), i), fn, call)
		if ok && p == 0 {
			b.markFresh(w, 0)
			return
		}
		params |= p
	}
	if params != 0 {
		b.markFresh(w, params)
	}
}

// markFresh fences w when its key is fresh here (params is 0), or notes
// the parameters its callers must fill with fresh identifiers.
func (b *builder) markFresh(w *Write, params uint64) {
	if params == 0 {
		w.Fenced, w.FencedBy = true, "a new key under a fresh ID"
		return
	}
	w.freshParams = params
}

// freshParamsOf returns the parameters each of which, fresh, makes every
// unfenced write (made while its function holds no lease) write a new key,
// or 0 if there is none.
func freshParamsOf(writes []*Write) uint64 {
	mask := ^uint64(0)
	for _, w := range writes {
		if w.heldOwn || w.LockImpl || w.Fenced {
			continue
		}
		mask &= w.freshParams
	}
	if mask == ^uint64(0) {
		return 0
	}
	return mask
}

// freshValue reports whether v, an argument of call in fn, is built from a
// fresh identifier that nothing else sees before call: one drawn in fn
// (params is 0), or else any of the parameters of fn in params (bit i:
// parameter i, receiver excluded), should fn's caller fill it with one.
func (b *builder) freshValue(v ssa.Value, fn *ssa.Function, call ssa.CallInstruction) (params uint64, ok bool) {
	var sources []ssa.Value
	b.freshSources(v, 0, &sources)
	for _, src := range sources {
		if src.Parent() != fn || !b.freshBefore(src, v, fn, call, nil) {
			continue
		}
		switch x := src.(type) {
		case *ssa.Parameter:
			if fn.Parent() != nil {
				continue // a closure's parameters are not its function's
			}
			if i := paramIndex(fn, x); i >= 0 && i < 64 {
				params |= 1 << i
			}
		case *ssa.FreeVar:
			if b.freshCaptured(x, fn) {
				return 0, true
			}
		default:
			return 0, true
		}
	}
	return params, params != 0
}

// freshCaptured reports whether fv, a free variable of the closure fn,
// holds a fresh identifier drawn by the function that creates fn and
// hands it only to go-redis's Pipelined or TxPipelined, which run it once
// there: rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
// pipe.Set(ctx, "job:"+id, ...) }). The captured variable is assigned
// once, before that call, and nothing there may see the identifier before
// the call but the closure.
func (b *builder) freshCaptured(fv *ssa.FreeVar, fn *ssa.Function) bool {
	parent := fn.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if parent == nil || i < 0 {
		return false
	}
	var mc *ssa.MakeClosure
	for _, bb := range parent.Blocks {
		for _, instr := range bb.Instrs {
			if m, ok := instr.(*ssa.MakeClosure); ok && m.Fn == fn {
				if mc != nil {
					return false
				}
				mc = m
			}
		}
	}
	if mc == nil || i >= len(mc.Bindings) {
		return false
	}
	refs := referrers(mc)
	if len(refs) != 1 {
		return false
	}
	run, ok := refs[0].(ssa.CallInstruction)
	if !ok || !b.runsPipeline(run.Common(), mc) {
		return false
	}
	bound, ok := mc.Bindings[i].(*ssa.Alloc)
	if !ok {
		return false
	}
	init := onlyStoreInto(bound)
	if init == nil || !precedes(init, run) {
		return false
	}
	var sources []ssa.Value
	b.freshSources(init.Val, 0, &sources)
	for _, src := range sources {
		if _, isCall := src.(*ssa.Call); isCall && src.Parent() == parent && b.freshBefore(src, bound, parent, run, mc) {
			return true
		}
	}
	return false
}

func isAlloc(v ssa.Value) bool {
	_, ok := v.(*ssa.Alloc)
	return ok
}

// onlyStoreInto returns the one store into the variable alloc, or nil.
func onlyStoreInto(alloc *ssa.Alloc) *ssa.Store {
	var only *ssa.Store
	for _, r := range referrers(alloc) {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			if only != nil {
				return nil
			}
			only = st
		}
	}
	return only
}

// precedes reports whether a runs before b on every path to b: earlier
// in b's block, or in a block that dominates it.
func precedes(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb {
		return slices.Index(ab.Instrs, a) < slices.Index(bb.Instrs, b)
	}
	return ab.Dominates(bb)
}

// runsPipeline reports whether call is go-redis's Pipelined or
// TxPipelined with f as the function it runs.
func (b *builder) runsPipeline(call *ssa.CallCommon, f ssa.Value) bool {
	fn := calleeFunc(call)
	if fn == nil || fn.Pkg() == nil || b.ix.canonical(fn.Pkg().Path()) != pkgGoRedis {
		return false
	}
	if fn.Name() != "Pipelined" && fn.Name() != "TxPipelined" {
		return false
	}
	args := callArgs(call)
	return len(args) == 2 && args[1] == f
}

// freshBefore reports whether v is built from src kept whole, and nothing
// but v's write, other writes under keys built from src and the closure
// closure (the one handed to call, if any) sees src before call.
func (b *builder) freshBefore(src, v ssa.Value, fn *ssa.Function, call ssa.CallInstruction, closure *ssa.MakeClosure) bool {
	uses, derived := b.freshUses(src, true)
	if !derived[v] && !derived[unwrap(v)] {
		return false
	}
	start := fn.Blocks[0]
	if instr, ok := src.(ssa.Instruction); ok {
		start = instr.Block()
	}
	if reenters(call.Block(), start) {
		return false // a loop writes the key again after it was shared
	}
	for _, u := range uses {
		if u != call && (closure == nil || u != ssa.Instruction(closure)) && !b.createsUnder(u, derived) && !after(u, call) {
			return false
		}
	}
	return true
}

// freshSources collects the fresh identifiers v may be built from,
// walking back through the steps that keep a value whole: generators'
// calls, parameters and a closure's free variables.
func (b *builder) freshSources(v ssa.Value, depth int, sources *[]ssa.Value) {
	if depth > 8 || v == nil || len(*sources) > 8 {
		return
	}
	add := func(src ssa.Value) {
		if !slices.Contains(*sources, src) {
			*sources = append(*sources, src)
		}
	}
	switch x := unwrap(v).(type) {
	case *ssa.Parameter:
		add(x)
	case *ssa.UnOp:
		if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
			add(fv) // a captured variable, read when the closure runs
		}
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 && b.generator(c) {
			add(c)
		}
	case *ssa.Convert:
		b.freshSources(x.X, depth+1, sources)
	case *ssa.BinOp:
		if x.Op == token.ADD {
			b.freshSources(x.X, depth+1, sources)
			b.freshSources(x.Y, depth+1, sources)
		}
	case *ssa.Call:
		if b.generator(x) {
			add(x)
			return
		}
		for _, a := range b.keptArgs(x, true) {
			b.freshSources(a, depth+1, sources)
		}
	}
}

// generator reports whether call draws a fresh identifier: a seeded
// generator (ulid.New) only from a source of entropy.
func (b *builder) generator(call *ssa.Call) bool {
	api := b.ix.lookupFunc(calleeFunc(call.Common()))
	return api != nil && api.Role.Has(RoleFreshID) && (!api.Seeded || b.entropy(arg(call.Common(), api.Arg), 0))
}

// entropy reports whether v is a source of random bytes no other process
// repeats: a catalogued variable (crypto/rand.Reader) or the result of a
// catalogued call (ulid.DefaultEntropy, ulid.Monotonic over a source).
func (b *builder) entropy(v ssa.Value, depth int) bool {
	if depth > 4 || v == nil {
		return false
	}
	switch x := unwrap(v).(type) {
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			gv, _ := g.Object().(*types.Var)
			api := b.ix.lookupVar(gv)
			return api != nil && api.Role.Has(RoleEntropy)
		}
	case *ssa.Call:
		api := b.ix.lookupFunc(calleeFunc(x.Common()))
		return api != nil && api.Role.Has(RoleEntropy) && (!api.Seeded || b.entropy(arg(x.Common(), api.Arg), depth+1))
	}
	return false
}

// keptArgs returns the arguments whose whole value call's result keeps:
// the receiver of a String method of a catalogued package's type,
// uuid.Must's UUID, fmt.Sprint's and (without a precision) fmt.Sprintf's
// operands, and (with helpers) the parameters a key-building helper of the
// package keeps.
func (b *builder) keptArgs(call *ssa.Call, helpers bool) []ssa.Value {
	c := call.Common()
	f := calleeFunc(c)
	if f == nil || c.IsInvoke() {
		return nil
	}
	args := callArgs(c)
	switch {
	case f.Name() == "String" && len(c.Args) == 1 && f.Pkg() != nil && b.ix.known[b.ix.canonical(f.Pkg().Path())]:
		return c.Args[:1]
	case f.Name() == "Must" && len(args) == 2:
		if api := b.ix.lookupFunc(f); api != nil && api.Role.Has(RoleNotToken) {
			return args[:1]
		}
	case f.Pkg() != nil && f.Pkg().Path() == "fmt" && (f.Name() == "Sprint" || f.Name() == "Sprintf"):
		var list ssa.Value
		if f.Name() == "Sprintf" {
			format, ok := constString(arg(c, 0))
			if !ok || !wholeOperands(format) {
				return nil
			}
			list = arg(c, 1)
		} else {
			list = arg(c, 0)
		}
		elems, _ := variadic(list)
		return elems
	}
	if callee := c.StaticCallee(); helpers && callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == b.pass.Pkg && callee.Blocks != nil {
		var kept []ssa.Value
		for i, p := range callee.Params {
			if b.keepsParam(callee, p) && i < len(c.Args) {
				kept = append(kept, c.Args[i])
			}
		}
		return kept
	}
	return nil
}

// wholeOperands reports whether a Sprintf format prints each operand
// whole: no verb has a precision.
func wholeOperands(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.[]*", format[j]) >= 0 {
			if format[j] == '.' {
				return false
			}
			j++
		}
		i = j
	}
	return true
}

// keepsParam reports whether fn, a helper of the package, returns p kept
// whole (a key builder, built without other helpers) and does nothing
// else with it.
func (b *builder) keepsParam(fn *ssa.Function, p *ssa.Parameter) bool {
	uses, derived := b.freshUses(p, false)
	returned := false
	for _, u := range uses {
		ret, ok := u.(*ssa.Return)
		if !ok {
			return false
		}
		for _, r := range ret.Results {
			returned = returned || derived[r]
		}
	}
	return returned
}

// freshUses follows src forward through the steps that keep it whole and
// returns the values built from it (derived) and every other instruction
// that uses one of them; helpers says whether the package's key-building
// helpers are steps.
func (b *builder) freshUses(src ssa.Value, helpers bool) (uses []ssa.Instruction, derived map[ssa.Value]bool) {
	derived = map[ssa.Value]bool{}
	var visit func(v ssa.Value)
	visit = func(v ssa.Value) {
		if derived[v] {
			return
		}
		derived[v] = true
		for _, r := range referrers(v) {
			if next := b.keptStep(r, v, helpers); next != nil {
				visit(next)
				continue
			}
			if e, ok := r.(*ssa.Extract); ok && e.Index != 0 {
				continue // the generator's error
			}
			if st, ok := r.(*ssa.Store); ok && st.Addr == v && isAlloc(v) {
				continue // the one store that made v, a variable, hold it
			}
			if _, ok := r.(*ssa.DebugRef); !ok && !slices.Contains(uses, r) {
				uses = append(uses, r)
			}
		}
	}
	visit(src)
	return uses, derived
}

// keptStep returns the value r makes from v keeping it whole, or nil when
// r is a use of v. A fresh identifier boxed into fmt's operand list (the
// MakeInterface, the Store into the list's array) steps to the Sprint.
func (b *builder) keptStep(r ssa.Instruction, v ssa.Value, helpers bool) ssa.Value {
	switch x := r.(type) {
	case *ssa.Extract:
		if x.Index == 0 {
			return x
		}
		return nil
	case *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface:
		return r.(ssa.Value)
	case *ssa.UnOp:
		if x.Op == token.MUL && x.X == v {
			return x // read through a variable that holds it
		}
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return x
		}
	case *ssa.Call:
		if slices.Contains(b.keptArgs(x, helpers), v) {
			return x
		}
	case *ssa.Store:
		if x.Val != v {
			return nil
		}
		if alloc, ok := x.Addr.(*ssa.Alloc); ok && onlyStoreInto(alloc) == x {
			return alloc // the variable a closure captures
		}
		ia, ok := x.Addr.(*ssa.IndexAddr)
		if !ok {
			return nil
		}
		alloc, ok := ia.X.(*ssa.Alloc)
		if !ok {
			return nil
		}
		for _, ref := range referrers(alloc) {
			if s, ok := ref.(*ssa.Slice); ok {
				for _, u := range referrers(s) {
					if call, ok := u.(*ssa.Call); ok && slices.Contains(b.keptArgs(call, helpers), unwrap(v)) {
						return call
					}
				}
			}
		}
	}
	return nil
}

// createsUnder reports whether u is itself a write to a key built from
// the fresh identifier: a Redis command on such a key, or the key stored
// as the Stream of the arguments of an XADD.
func (b *builder) createsUnder(u ssa.Instruction, derived map[ssa.Value]bool) bool {
	if st, ok := u.(*ssa.Store); ok {
		return b.streamArg(st)
	}
	call, ok := u.(ssa.CallInstruction)
	if !ok {
		return false
	}
	c := call.Common()
	if callee, ok := b.resolve(c); ok && callee.api != nil && callee.api.System == Redis && callee.role.Has(RoleWrite) {
		key := redisArg(c, 1)
		return key != nil && freshKeyCommand(redisMethod(callee.api)) && (derived[key] || derived[unwrap(key)])
	}
	return false
}

// streamArg reports whether st stores into the Stream field of a struct
// that only Redis commands take (&redis.XAddArgs{Stream: key, ...}).
func (b *builder) streamArg(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok || fieldName(fa.X.Type(), fa.Field) != "Stream" {
		return false
	}
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range referrers(alloc) {
		switch r := ref.(type) {
		case *ssa.FieldAddr, *ssa.DebugRef:
		case ssa.CallInstruction:
			callee, ok := b.resolve(r.Common())
			if !ok || callee.api == nil || callee.api.System != Redis {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// after reports whether u runs only after call: later in its block, or in
// a block call's block dominates.
func after(u ssa.Instruction, call ssa.CallInstruction) bool {
	ub, cb := u.Block(), call.Block()
	if ub == nil || cb == nil {
		return false
	}
	if ub == cb {
		return slices.Index(ub.Instrs, u) > slices.Index(cb.Instrs, ssa.Instruction(call))
	}
	return cb.Dominates(ub)
}

// reenters reports whether from can be reached again from itself without
// passing through start (where the identifier is drawn).
func reenters(from, start *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := slices.Clone(from.Succs)
	for len(stack) > 0 {
		bb := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if bb == from {
			return true
		}
		if bb == start || seen[bb] {
			continue
		}
		seen[bb] = true
		stack = append(stack, bb.Succs...)
	}
	return false
}

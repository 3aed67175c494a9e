package lease

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A goroutine a program starts at most once is not work handed over under
// the lease that happens to be held when it starts: a getter that lazily
// starts a destination's background workers (jitsu's RetryableProxy.Get:
// if !started { start() }) runs them for the life of the process, whoever
// holds which lock. Such a start is inside sync.Once.Do, or behind a flag
// that the code tests and sets and that nothing resets (a bool or integer
// field, sync/atomic's or go.uber.org/atomic's Bool, a CompareAndSwap from
// false to true). What matters is whose flag it is:
//   - a package-level flag (or Once): once per process;
//   - a flag of the function's receiver: once per receiver. A caller that
//     calls the function on an object it built itself (&worker{} or a
//     constructor's result) starts it again per call, so that write stays;
//     one that calls it on an object it looked up (a field, a map, a
//     getter's result, LookupFact) starts it at most once;
//   - anything else (a local, another parameter): per call.
//
// A flag that is reset anywhere (started = false on stop, Store(false), a
// new Once), exported (another package may reset it) or handed on by
// address makes the start one per reset: those stay writes. Only writes
// made in a goroutine the guarded code starts count (Write.spawned): a
// write made once but synchronously, under the lease, is still a write
// made under it.
//
// The function a lease is handed to (a leadership handler a helper or a
// library calls while it holds the lease) is the lease's own work, and a
// flag it tests and sets there (if c.leading { return } ... c.leading =
// true) keeps one leadership from starting that work twice: what it
// starts is started under the lease, whether or not the flag is ever
// reset. Its own flag tests are not once-guards; those of the functions
// it calls (a getter's lazy start) still are.

// onceKind says how often the code at an instruction runs.
type onceKind uint8

const (
	oncePerCall    onceKind = iota // every call
	oncePerRecv                    // at most once per receiver of the outermost function
	oncePerProcess                 // at most once per process
)

// onceAt returns how often instr of fn runs, judged by the once-guards of
// fn and of the functions fn's closure is nested in.
func (b *builder) onceAt(fn *ssa.Function, instr ssa.Instruction) onceKind {
	kind := oncePerCall
	for fn != nil {
		if !b.handedOver(fn) {
			kind = max(kind, b.guardedOnce(fn, instr))
		}
		parent := fn.Parent()
		if parent == nil {
			break
		}
		mc := makerOf(parent, fn)
		if mc == nil {
			break
		}
		kind = max(kind, b.onceDoArg(mc))
		fn, instr = parent, mc
	}
	return kind
}

// handedOver reports whether fn is a function some instruction hands over
// to run under a lease (a callback argument, a callback field).
func (b *builder) handedOver(fn *ssa.Function) bool {
	for h := range b.regions.handed {
		if h.fn == fn {
			return true
		}
	}
	return false
}

// makerOf returns the MakeClosure in parent that makes the closure fn.
func makerOf(parent, fn *ssa.Function) *ssa.MakeClosure {
	for _, ref := range *fn.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn && mc.Parent() == parent {
			return mc
		}
	}
	return nil
}

// onceDoArg returns how often the closure mc makes runs when mc is handed
// to sync.Once's Do: once per the Once's owner.
func (b *builder) onceDoArg(mc *ssa.MakeClosure) onceKind {
	for _, ref := range *mc.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok || !isMethodOf(calleeFunc(call.Common()), "sync", "Once", "Do") || arg(call.Common(), 0) != mc {
			continue
		}
		addr := callRecv(call.Common())
		if obj := flagObject(addr); obj != nil && b.onceFlag(obj, false) {
			return b.ownerOf(addr)
		}
	}
	return oncePerCall
}

// guardedOnce returns how often instr runs as far as the flag tests of fn
// tell: the flag is tested not set on the only way into instr's block.
func (b *builder) guardedOnce(fn *ssa.Function, instr ssa.Instruction) onceKind {
	kind := oncePerCall
	for _, blk := range fn.Blocks {
		ifi, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		addr, unsetSucc := flagTest(ifi.Cond)
		if addr == nil {
			continue
		}
		succ := blk.Succs[unsetSucc]
		if len(succ.Preds) != 1 || !succ.Dominates(instr.Block()) {
			continue
		}
		obj := flagObject(addr)
		if obj == nil || !b.onceFlag(obj, true) || !b.setsOnWayIn(fn, blk, succ, obj) {
			continue
		}
		kind = max(kind, b.ownerOf(addr))
	}
	return kind
}

// flagTest returns the address of the flag cond tests and the successor
// (0: then, 1: else) taken when it is not set; nil if cond tests none.
// The tests: !f, f, f == 0, f != 0, f.Load() (and negated), and
// f.CompareAndSwap(false, true) or atomic.CompareAndSwapInt32(&f, 0, 1),
// which set it on the way in.
func flagTest(cond ssa.Value) (ssa.Value, int) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			if addr, unset := flagTest(c.X); addr != nil {
				return addr, 1 - unset
			}
		}
		if c.Op == token.MUL {
			return c.X, 1
		}
	case *ssa.BinOp:
		if (c.Op == token.EQL || c.Op == token.NEQ) && isConstInt(c.Y, 0) {
			if addr, unset := flagTest(c.X); addr != nil && !isBool(c.X) {
				if c.Op == token.EQL {
					return addr, 1 - unset
				}
				return addr, unset
			}
		}
	case *ssa.Call:
		common := c.Common()
		callee := calleeFunc(common)
		if callee == nil {
			return nil, 0
		}
		switch {
		case isAtomicMethod(callee, "Load"):
			return callRecv(common), 1
		case isAtomicMethod(callee, "CompareAndSwap") && unsetToSet(arg(common, 0), arg(common, 1)):
			return callRecv(common), 0
		case isAtomicFunc(callee, "CompareAndSwap") && unsetToSet(arg(common, 1), arg(common, 2)):
			return arg(common, 0), 0
		}
	}
	return nil, 0
}

// unsetToSet reports whether old and new are false and true, or 0 and a
// constant other than 0.
func unsetToSet(old, new ssa.Value) bool {
	if o, ok := constBool(old); ok {
		n, ok := constBool(new)
		return !o && ok && n
	}
	n, ok := constInt(new)
	return isConstInt(old, 0) && ok && n != 0
}

// flagObject returns the unexported struct field or package-level variable
// of the program's own package that addr (a flag's or a Once's address, or
// a pointer field's value) is, or nil.
func flagObject(addr ssa.Value) types.Object {
	addr = unwrap(addr)
	if load, ok := addr.(*ssa.UnOp); ok && load.Op == token.MUL {
		addr = load.X // a *atomic.Bool or *sync.Once field
	}
	var obj types.Object
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		obj = fieldVar(a.X.Type(), a.Field)
	case *ssa.Global:
		obj = a.Object()
	}
	if obj == nil || obj.Exported() {
		return nil
	}
	return obj
}

// ownerOf says whose the object v (a flag's address, a receiver) is: a
// package-level variable's, or one read from a map, a field or a getter
// (LookupFact) of one, lives as long as the process; one reached from the
// outermost function's receiver lives as long as that receiver; one the
// function allocated, or took as another parameter, may be new per call.
func (b *builder) ownerOf(v ssa.Value) onceKind {
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value) onceKind
	walk = func(v ssa.Value) onceKind {
		v = unwrap(v)
		if seen[v] {
			return oncePerProcess
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				break
			}
			if fa, ok := unwrap(x.X).(*ssa.FieldAddr); ok && b.replaced(fa) {
				return oncePerCall // the object in the field may be new per lease
			}
			return walk(x.X)
		case *ssa.FieldAddr:
			return walk(x.X)
		case *ssa.Field:
			return walk(x.X)
		case *ssa.IndexAddr:
			return walk(x.X)
		case *ssa.Lookup:
			return walk(x.X)
		case *ssa.Extract:
			return walk(x.Tuple)
		case *ssa.Call:
			if obj := calleeFunc(x.Common()); obj != nil {
				var lf LookupFact
				if b.callFact(x.Common(), obj, &lf) {
					return oncePerProcess
				}
			}
		case *ssa.Phi:
			kind := oncePerProcess
			for _, e := range x.Edges {
				kind = min(kind, walk(e))
			}
			return kind
		case *ssa.Global:
			return oncePerProcess
		case *ssa.Alloc:
			// A variable a closure captures (the receiver among them)
			// holds what was stored in it; a struct allocated here is new.
			if isReference(x.Type().(*types.Pointer).Elem()) {
				if stored := storedOnce(x); stored != nil {
					return walk(stored)
				}
			}
		case *ssa.FreeVar:
			if bound := freeVarBinding(x); bound != nil {
				return walk(bound)
			}
		case *ssa.Parameter:
			fn := x.Parent()
			if fn.Parent() == nil && fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == x {
				return oncePerRecv
			}
		}
		return oncePerCall
	}
	return walk(v)
}

// replaced reports whether the field fa addresses may be given another
// value after its owner is made: it is exported or another package's, or
// a function of the package stores into it other than as the initial
// value of a struct it allocated.
func (b *builder) replaced(fa *ssa.FieldAddr) bool {
	field := fieldVar(fa.X.Type(), fa.Field)
	if field == nil || field.Exported() || field.Pkg() != b.pass.Pkg {
		return true
	}
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if a, ok := st.Addr.(*ssa.FieldAddr); ok && fieldVar(a.X.Type(), a.Field) == field && !initialValue(fn, a) {
					return true
				}
			}
		}
	}
	return false
}

// onceFlag reports whether the flag (or Once) obj is never reset in the
// package: every store to it, but the first one into a value the storing
// function allocated itself (a constructor), sets it; nothing takes its
// address for anything else. A flag must also be set somewhere (needSet).
func (b *builder) onceFlag(obj types.Object, needSet bool) bool {
	set, reset := b.flagWrites(obj)
	return !reset && (set || !needSet)
}

// flagWrites reports whether the package's functions set the flag obj and
// whether they reset it (or may: its address escapes).
func (b *builder) flagWrites(obj types.Object) (set, reset bool) {
	if got, ok := b.flags[obj]; ok {
		return got.set, got.reset
	}
	for _, fn := range b.funcs {
		s, r := flagWritesIn(fn, obj)
		set = set || s
		reset = reset || r
	}
	if b.flags == nil {
		b.flags = make(map[types.Object]flagWriteSet)
	}
	b.flags[obj] = flagWriteSet{set, reset}
	return set, reset
}

// A flagWriteSet says whether a package sets and resets a flag.
type flagWriteSet struct{ set, reset bool }

// flagWritesIn is flagWrites for one function.
func flagWritesIn(fn *ssa.Function, obj types.Object) (set, reset bool) {
	return flagWritesInBlocks(fn, obj, func(*ssa.BasicBlock) bool { return true })
}

// flagWritesInBlocks is flagWrites for the blocks of fn that keep says.
func flagWritesInBlocks(fn *ssa.Function, obj types.Object, keep func(*ssa.BasicBlock) bool) (set, reset bool) {
	for _, blk := range fn.Blocks {
		if !keep(blk) {
			continue
		}
		for _, instr := range blk.Instrs {
			if fa, ok := instr.(*ssa.FieldAddr); ok && fieldVar(fa.X.Type(), fa.Field) == obj {
				for _, ref := range *fa.Referrers() {
					s, r := flagUse(fn, ref, fa)
					set, reset = set || s, reset || r
				}
				continue
			}
			var ops [8]*ssa.Value
			for _, op := range instr.Operands(ops[:0]) {
				if g, ok := (*op).(*ssa.Global); ok && g.Object() == obj {
					s, r := flagUse(fn, instr, g)
					set, reset = set || s, reset || r
				}
			}
		}
	}
	return set, reset
}

// flagUse classifies one use of the flag's address addr in fn: a load
// reads it; a store of true or non-zero sets it, and so does any store
// into a struct fn allocated itself or into a package-level flag from the
// package's initializer (its initial value); a method call Load reads it,
// Store(true), CompareAndSwap(false, true) and Do set it; a pointer
// field's load is followed to those calls. Anything else resets it, or
// may.
func flagUse(fn *ssa.Function, ref ssa.Instruction, addr ssa.Value) (set, reset bool) {
	switch u := ref.(type) {
	case *ssa.UnOp:
		if u.Op != token.MUL {
			return false, true
		}
		if _, ok := u.Type().Underlying().(*types.Pointer); ok {
			for _, r := range *u.Referrers() { // a *atomic.Bool field: its methods
				s, rs := flagUse(fn, r, u)
				set, reset = set || s, reset || rs
			}
		}
		return set, reset
	case *ssa.Store:
		if u.Addr != addr {
			return false, true // its address stored somewhere
		}
		if initialValue(fn, addr) {
			return false, false
		}
		return setsTo(u.Val), !setsTo(u.Val)
	case ssa.CallInstruction:
		return flagCall(u.Common(), addr)
	case *ssa.DebugRef:
		return false, false
	}
	return false, true
}

// initialValue reports whether a store to addr in fn gives the flag its
// first value: a field of a struct fn allocated, or a package-level
// variable in the package's initializer.
func initialValue(fn *ssa.Function, addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		_, fresh := unwrap(a.X).(*ssa.Alloc)
		return fresh
	case *ssa.Global:
		return fn.Synthetic == "package initializer"
	}
	return false
}

// flagCall classifies a call that uses the flag's address addr.
func flagCall(c *ssa.CallCommon, addr ssa.Value) (set, reset bool) {
	callee := calleeFunc(c)
	if callee == nil {
		return false, true
	}
	recv := callRecv(c) == addr
	switch {
	case recv && isMethodOf(callee, "sync", "Once", "Do"):
		return true, false
	case recv && isAtomicMethod(callee, "Load"), !recv && isAtomicFunc(callee, "Load"):
		return false, false
	case recv && isAtomicMethod(callee, "Store"):
		return setsTo(arg(c, 0)), !setsTo(arg(c, 0))
	case !recv && isAtomicFunc(callee, "Store") && arg(c, 0) == addr:
		return setsTo(arg(c, 1)), !setsTo(arg(c, 1))
	case recv && isAtomicMethod(callee, "CompareAndSwap"):
		return unsetToSet(arg(c, 0), arg(c, 1)), !unsetToSet(arg(c, 0), arg(c, 1))
	case !recv && isAtomicFunc(callee, "CompareAndSwap") && arg(c, 0) == addr:
		return unsetToSet(arg(c, 1), arg(c, 2)), !unsetToSet(arg(c, 1), arg(c, 2))
	}
	return false, true
}

// setsTo reports whether v is true or a constant other than 0.
func setsTo(v ssa.Value) bool {
	if t, ok := constBool(v); ok {
		return t
	}
	n, ok := constInt(v)
	return ok && n != 0
}

// setsOnWayIn reports whether the code that runs because the flag obj was
// found unset sets it: the test itself (a CompareAndSwap in test, the
// block that ends in it), the blocks the unset branch unset dominates, or
// a function of the package called there (if !started { start() } with
// start setting started). A flag only set elsewhere (closed, set by Close)
// guards nothing once.
func (b *builder) setsOnWayIn(fn *ssa.Function, test, unset *ssa.BasicBlock, obj types.Object) bool {
	onWay := func(blk *ssa.BasicBlock) bool { return blk == test || unset.Dominates(blk) }
	if set, _ := flagWritesInBlocks(fn, obj, onWay); set {
		return true
	}
	for _, blk := range fn.Blocks {
		if !onWay(blk) {
			continue
		}
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if callee := call.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
				if set, _ := flagWritesIn(callee, obj); set {
					return true
				}
			}
		}
	}
	return false
}

// isAtomicMethod reports whether fn is method name of a type of sync/atomic
// or go.uber.org/atomic (Bool, Int32, Uint32, ...).
func isAtomicMethod(fn *types.Func, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Signature().Recv() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return path == "sync/atomic" || path == "go.uber.org/atomic"
}

// isAtomicFunc reports whether fn is sync/atomic's package function
// name+Int32, name+Uint32, ... (StoreInt32, CompareAndSwapUint64).
func isAtomicFunc(fn *types.Func, name string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || fn.Signature().Recv() != nil {
		return false
	}
	rest, ok := cutPrefix(fn.Name(), name)
	return ok && (rest == "Int32" || rest == "Int64" || rest == "Uint32" || rest == "Uint64")
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return "", false
	}
	return s[len(prefix):], true
}

// isMethodOf reports whether fn is method name of pkg's type recv.
func isMethodOf(fn *types.Func, pkg, recv, name string) bool {
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == pkg && receiverName(fn) == recv
}

// LookupFact: the function returns, as its first result, an object it read
// from a field, a map or a package-level variable (a registry's
// GetDestinationByID): the same object on every call, not a new one.
type LookupFact struct{}

func (*LookupFact) AFact()         {}
func (*LookupFact) String() string { return "lookup" }

// exportLookupFacts learns which of the package's functions are lookups.
func (b *builder) exportLookupFacts() {
	for _, fn := range b.funcs {
		if obj := declaredFunc(fn); obj != nil && b.returnsStored(fn) {
			b.setLocal(obj, &LookupFact{})
		}
	}
}

// returnsStored reports whether every return of fn gives, as its first
// result (a pointer or an interface), nil or a value loaded from memory:
// a map's, or a field's that nothing replaces after its owner is made.
func (b *builder) returnsStored(fn *ssa.Function) bool {
	results := fn.Signature.Results()
	if results.Len() == 0 || !isReference(results.At(0).Type()) {
		return false
	}
	stored := false
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		switch v := unwrap(ret.Results[0]).(type) {
		case *ssa.Const:
			if !v.IsNil() {
				return false
			}
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return false
			}
			if fa, ok := unwrap(v.X).(*ssa.FieldAddr); ok && b.replaced(fa) {
				return false
			}
			stored = true
		case *ssa.Lookup:
			stored = true
		case *ssa.Extract:
			if _, ok := v.Tuple.(*ssa.Lookup); !ok || v.Index != 0 {
				return false
			}
			stored = true
		default:
			return false
		}
	}
	return stored
}

// isReference reports whether t is a pointer or an interface (not a type
// parameter).
func isReference(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return true
	}
	return false
}

// markOnce sets Write.spawned and Write.once: whether w is made in a
// goroutine its function starts, and how often that goroutine is started.
func (b *builder) markOnce(w *Write) {
	if _, ok := w.Call.(*ssa.Go); ok || b.inGoroutine(w.Fn) {
		w.spawned = true
	}
	if !w.spawned || w.Fenced {
		return
	}
	w.once = max(w.once, b.onceAt(w.Fn, w.Call))
}

// inGoroutine reports whether the closure fn, or one it is nested in, is
// started in a goroutine of its own: by a go statement, a Spawner, or a
// goroutine helper of the application (safego.RunWithRestart(func() {...})).
func (b *builder) inGoroutine(fn *ssa.Function) bool {
	for ; fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if b.startedByGo(fn) || b.startedByHelper(fn) {
			return true
		}
	}
	return false
}

// startedByHelper reports whether the closure fn is handed, by its parent,
// to a function that runs it in a goroutine (GoParamFact).
func (b *builder) startedByHelper(fn *ssa.Function) bool {
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			_, params := b.goParams(call)
			for _, i := range params {
				if funcValue(arg(call.Common(), i)) == fn {
					return true
				}
			}
		}
	}
	return false
}

// onceCall returns how often a call of a function whose fact says it
// starts its writing goroutine once per receiver (WritesFact.OnceRecv)
// starts it: once per the receiver's owner.
func (b *builder) onceCall(call ssa.CallInstruction) onceKind {
	recv := callRecv(call.Common())
	if recv == nil {
		return oncePerCall
	}
	return b.ownerOf(recv)
}

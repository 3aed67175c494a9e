package lease

// Validity checks and the code they guard.
//
// findChecks fills Model.Checks with every lease-validity check of the
// package: calls of RoleCheck catalog rows (redsync Valid, ValidContext and
// Until, redislock TTL, leaderelection IsLeader, raft State and
// VerifyLeader, etcd TimeToLive, Consul Session.Info, ZooKeeper State,
// gocron Elector.IsLeader; etcd Election.Leader, leaderelection GetLeader
// and raft Leader/LeaderWithID when compared with our own ID; ZooKeeper
// Exists and go-redis TTL/PTTL when the key names a lock), calls of
// //fencelint:check functions and of wrappers that answer with a check
// (faithfulWrapper), a Consul KVPair's Session read back and
// compared with the holder's session, and hand-written comparisons of the
// clock with a lease's deadline (time.Now().Before(lease.ExpiresAt),
// time.Until(l.expiry) > 0, time.Now().UnixMilli() < row.ExpiresAtMs). A
// deadline is a lease's when its expression names holding (lease, lock,
// leader, held, acquired: whole words, so a clock is no lock), or is a
// field named only as a deadline (expiry, valid, TTL) of a struct about
// holding (leaseNamed), or when it was returned by an acquire or renew
// call, or computed as now plus a duration after one; a retry loop's
// deadline is not, nor a business record's own (a payment's ExpiredAt).
//
// For each check it follows the result through the SSA values (tuple
// extracts, negation, comparisons with nil, zero, the leader constant or the
// holder's own ID, Future.Error, Duration and Time methods, the phi of a
// short-circuit &&) to the If instructions it decides, and records for each
// the branch taken when the check says "held". A block is guarded by the
// check when such a branch dominates it: every path from the function's
// entry to the block takes the branch. That covers if/else, an early return
// (if !ok { return }), a loop condition and &&; a block after the if/else
// that runs whichever way the check went is reached by both branches, so it
// is not guarded.
//
// markGuards links each check with the writes it guards (Check.Guarded,
// Write.Guards), including writes in closures made in a guarded block.
//
// checkedRegions is what regions.go calls to open the Checked leases: for
// each check with a "held" branch, a Lease of Kind Checked (the code acts as
// the holder there) and the blocks of the check's function the branch
// dominates, in block order. Closures made in those blocks inherit the
// lease through regions.go's usual closure handling.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// A branch is one successor of a block that ends in an If.
type branch struct {
	from *ssa.BasicBlock
	succ int // 0: the true successor, 1: the false one
}

// dominates reports whether every path from the function's entry to blk
// takes the branch.
func (br branch) dominates(blk *ssa.BasicBlock) bool {
	to := br.from.Succs[br.succ]
	if to == br.from.Succs[1-br.succ] || !to.Dominates(blk) {
		return false
	}
	for _, p := range to.Preds {
		if p != br.from && !to.Dominates(p) { // another way into to that is not a back edge
			return false
		}
	}
	return true
}

// guardsBlock reports whether blk runs only after c said the lease is held:
// one of its "held" branches dominates blk and none of its "lost" branches
// does (ttl, err := l.TTL(ctx); err == nil says held, but in
// if ttl < time.Second { ... } the same check says lost).
func (c *Check) guardsBlock(blk *ssa.BasicBlock) bool {
	guarded := false
	for _, br := range c.held {
		if (branch{from: br.from, succ: 1 - br.succ}).dominates(blk) {
			return false
		}
		guarded = guarded || br.dominates(blk)
	}
	return guarded
}

// findChecks fills Model.Checks with the package's lease-validity checks,
// in source order. Deadline comparisons are looked for last, so that one a
// library check's flow already went through (time.Now().Before(m.Until()))
// is not counted twice.
func (b *builder) findChecks() {
	used := make(map[ssa.CallInstruction]bool) // time calls a check's flow already explains
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		switch x := instr.(type) {
		case *ssa.Call:
			b.callCheck(fn, x, used)
		case *ssa.Field, *ssa.FieldAddr:
			b.sessionCheck(fn, x)
		}
	})
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		switch x := instr.(type) {
		case *ssa.Call:
			if !used[x] {
				b.deadlineCheck(fn, x)
			}
		case *ssa.BinOp:
			b.unixDeadlineCheck(fn, x)
		}
	})
	b.leaderFlagChecks()
	b.leaderFieldChecks()
	b.leaderNoticeChecks()
	slices.SortStableFunc(b.model.Checks, func(x, y *Check) int { return int(x.Pos - y.Pos) })
}

// instrs calls f with every instruction of the package's functions.
func (b *builder) instrs(f func(fn *ssa.Function, instr ssa.Instruction)) {
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				f(fn, instr)
			}
		}
	}
}

// fieldStores yields every store to a struct field (x.f = v) in the
// package's functions, with the field's address.
func (b *builder) fieldStores() iter.Seq2[*ssa.Store, *ssa.FieldAddr] {
	return func(yield func(*ssa.Store, *ssa.FieldAddr) bool) {
		for _, fn := range b.funcs {
			for _, blk := range fn.Blocks {
				for _, instr := range blk.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok && !yield(st, fa) {
						return
					}
				}
			}
		}
	}
}

// callCheck records call if it calls a validity check.
func (b *builder) callCheck(fn *ssa.Function, call *ssa.Call, used map[ssa.CallInstruction]bool) {
	cal, ok := b.resolve(call.Common())
	if !ok || !cal.role.Has(RoleCheck) {
		return
	}
	flow := newCheckFlow()
	if api := cal.api; api != nil {
		switch api.Held {
		case ValueOnly:
			flow.skipErr, flow.skipNil = true, true
		case NotErr:
			flow.skipErr = true
		case LockKeyAt:
			if !b.namesLock(apiArg(call.Common(), api)) {
				return
			}
		}
	} else if cal.held == ValueOnly { // a cached leader ID's getter: only its value, compared with ours
		flow.skipErr, flow.skipNil = true, true
	} else {
		if !b.answersCheck(call) {
			return
		}
		// A wrapper that returns a value and an error says "held" with
		// the value; its error may only mean the lookup failed, and a
		// nil pointer only that there was nothing to return.
		flow.skipErr, flow.skipNil = hasNonError(call.Type()), true
	}
	flow.follow(call, +1)
	for c := range flow.used {
		used[c] = true
	}
	pos, end := b.callExtent(call)
	b.model.Checks = append(b.model.Checks, &Check{
		Call: call, Pos: pos, End: end, Fn: fn, System: cal.system, What: cal.what, held: flow.branches,
		inLease: cal.held == InLease, Claim: cal.claim,
	})
}

// dropUnleasedChecks forgets the checks that vouch for a lease only where
// one is held (a ZooKeeper connection's State, InLease) and are made where
// none is: in a function that holds no lease, called from none in the
// package. A start-up readiness check of the connection is no lease check.
// The regions are then computed again without their Checked leases.
func (b *builder) dropUnleasedChecks() {
	unleased := func(c *Check) bool { return c.inLease && !b.leaseAround(c.Call, 0) }
	if !slices.ContainsFunc(b.model.Checks, unleased) {
		return
	}
	b.model.Checks = slices.DeleteFunc(b.model.Checks, unleased)
	b.model.Leases = nil
	b.findLeases()
}

// leaseAround reports whether a lease other than a validity check's or a
// bare session's is held where instr runs: in its function or, a few calls
// up, where the package calls that function.
func (b *builder) leaseAround(instr ssa.Instruction, depth int) bool {
	return b.heldAround(instr, depth) != nil
}

// heldAround returns the first lease leaseAround finds, or nil.
func (b *builder) heldAround(instr ssa.Instruction, depth int) *Lease {
	for _, l := range b.heldBefore(instr) {
		if l.Kind != Checked && !b.tokens.sessionOnly(l) {
			return l
		}
	}
	fn := instr.Parent()
	if depth >= 3 || fn == nil || b.tokens.index().escapes[fn] {
		return nil
	}
	for _, site := range b.tokens.index().callSites[fn] {
		if l := b.heldAround(site, depth+1); l != nil {
			return l
		}
	}
	return nil
}

// A leaderFlag is a bool that code sets to true only while it leads: a
// cached IsLeader.
type leaderFlag struct {
	name   string
	system System
	origin string // where it is set, for the diagnostic: "set in OnStartedLeading"
}

// leaderFlagChecks records reads of a leader flag: a bool field or package
// variable, or a sync/atomic.Bool, that a leaderelection OnStartedLeading
// callback sets to true (c.leading.Store(true)). Reading it is reading a
// cached IsLeader, stale by the write it guards. Flags set while a lease
// is held (after Lock returned) are found once the regions are known:
// regionLeaderFlagChecks.
func (b *builder) leaderFlagChecks() {
	b.addFlagChecks(b.leaderFlags, nil)
}

// regionLeaderFlagChecks records reads of the flags that are set to true
// only where a lease is held (lost, err := lock.Lock(stop); m.isLeader =
// true; <-lost; m.isLeader = false) and were not known as leader flags
// yet, and recomputes the regions so that the blocks those reads guard act
// as the holder. Like the callbacks' flags, a flag counts only when its
// name is about leading and nothing sets it to true where no lease is held.
func (b *builder) regionLeaderFlagChecks() {
	if len(b.model.Leases) == 0 {
		return
	}
	known := b.leaderFlags
	flags := make(map[any]leaderFlag)
	elsewhere := make(map[any]bool)
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		addr := b.setsTrue(instr)
		key := flagKey(addr)
		if key == nil {
			return
		}
		if _, ok := known[key]; ok {
			return
		}
		l := b.leaseHeldAt(instr)
		switch {
		case l == nil:
			elsewhere[key] = true
		case leaderWord(flagName(addr)):
			if _, ok := flags[key]; !ok {
				flags[key] = leaderFlag{name: flagName(addr), system: l.System, origin: "set while " + l.What + " is held"}
			}
		}
	})
	for key := range elsewhere {
		delete(flags, key)
	}
	// A read where a lease is held is the holder's own: the lease guards
	// what follows it (unfencedwrite), the flag adds nothing.
	outside := func(instr ssa.Instruction) bool { return b.leaseHeldAt(instr) == nil }
	if b.addFlagChecks(flags, outside)+b.addGetterChecks(flags, outside) == 0 {
		return
	}
	slices.SortStableFunc(b.model.Checks, func(x, y *Check) int { return int(x.Pos - y.Pos) })
	b.model.Leases = nil
	b.findLeases()
}

// leaseHeldAt returns a lease that may be held just before instr, other
// than one opened by a validity check, or nil.
func (b *builder) leaseHeldAt(instr ssa.Instruction) *Lease {
	for _, l := range b.heldBefore(instr) {
		if l.Kind != Checked {
			return l
		}
	}
	return nil
}

// addFlagChecks records every read of flags that decides a branch (and
// that keep accepts, when it is not nil) as a validity check, and returns
// how many it recorded.
func (b *builder) addFlagChecks(flags map[any]leaderFlag, keep func(ssa.Instruction) bool) int {
	if len(flags) == 0 {
		return 0
	}
	n := 0
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		var addr ssa.Value
		var load *ssa.Call
		polarity := +1
		switch x := instr.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL && isFlagType(x.Type()) {
				addr = x.X
			}
		case *ssa.Call:
			if isAtomicBool(x, "Load") {
				addr, load = x.Call.Args[0], x
			}
		case *ssa.BinOp:
			if l, p := atomicIntRead(x); p != 0 {
				addr, load, polarity = l.Call.Args[0], l, p
			}
		}
		flag, ok := flags[flagKey(addr)]
		if !ok || keep != nil && !keep(instr) {
			return
		}
		flow := newCheckFlow()
		flow.follow(instr.(ssa.Value), polarity)
		if len(flow.branches) == 0 {
			return
		}
		check := &Check{Pos: addr.Pos(), Fn: fn, System: flag.system,
			What: "the leader flag " + flag.name + " (" + flag.origin + ")", held: flow.branches}
		if g, ok := addr.(*ssa.Global); ok { // its position is its declaration: find the read
			check.Pos = b.firstUse(fn, g.Object())
		}
		if load != nil {
			check.Call = load
			check.Pos, check.End = b.callExtent(load)
		}
		b.model.Checks = append(b.model.Checks, check)
		n++
	})
	return n
}

// addGetterChecks records every call of a getter of the package that
// returns one of flags (func (c *Capture) IsOwner() bool { return c.owner
// != nil }) whose result decides a branch (and that keep accepts) as a
// validity check, and returns how many it recorded. Getters of the flags
// OnStartedLeading sets are checks by their roles already
// (leaderGetterRole); these are for flags found with the regions.
func (b *builder) addGetterChecks(flags map[any]leaderFlag, keep func(ssa.Instruction) bool) int {
	returned := make(map[*ssa.Function]*leaderFlag)
	getterFlag := func(fn *ssa.Function) *leaderFlag {
		if f, ok := returned[fn]; ok {
			return f
		}
		var flag *leaderFlag
		if fn.Signature.Results().Len() == 1 && typeIsBool(fn.Signature.Results().At(0).Type()) {
			var last leaderFlag
			if _, every := everyReturn(fn, func(v ssa.Value) (System, bool) {
				f, ok := returnedFlagIn(flags, v)
				last = f
				return f.system, ok
			}); every {
				flag = &last
			}
		}
		returned[fn] = flag
		return flag
	}
	n := 0
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		call, ok := instr.(*ssa.Call)
		if !ok || keep != nil && !keep(instr) {
			return
		}
		getter := call.Call.StaticCallee()
		if getter == nil || getter.Pkg == nil || getter.Pkg.Pkg != b.pass.Pkg {
			return
		}
		obj, ok := getter.Object().(*types.Func)
		if !ok {
			return
		}
		flag := getterFlag(getter)
		if flag == nil {
			return
		}
		flow := newCheckFlow()
		flow.follow(call, +1)
		if len(flow.branches) == 0 {
			return
		}
		check := &Check{Call: call, Fn: fn, System: flag.system,
			What: shortName(obj) + " (which returns the leader flag " + flag.name + ", " + flag.origin + ")", held: flow.branches}
		check.Pos, check.End = b.callExtent(call)
		b.model.Checks = append(b.model.Checks, check)
		n++
	})
	return n
}

// resultValues returns the values a returned value v stands for: those
// stored in the result slot a function with defers returns from (its
// recover block returns *slot), or v itself.
func resultValues(v ssa.Value) []ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return []ssa.Value{v}
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok || slot.Heap {
		return []ssa.Value{v}
	}
	var out []ssa.Value
	for _, ref := range *slot.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == slot {
			out = append(out, st.Val)
		}
	}
	return out
}

// firstUse returns the position of the first identifier in fn's source
// that refers to obj, or fn's position.
func (b *builder) firstUse(fn *ssa.Function, obj types.Object) token.Pos {
	if fn.Syntax() == nil {
		return fn.Pos()
	}
	found := token.NoPos
	ast.Inspect(fn.Syntax(), func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found.IsValid() && b.pass.TypesInfo.Uses[id] == obj {
			found = id.Pos()
		}
		return !found.IsValid()
	})
	if !found.IsValid() {
		return fn.Pos()
	}
	return found
}

// callbackLeaderFlags returns the flags that OnStartedLeading callbacks
// (and the package's functions they call, two calls deep) set to true, by
// flagKey, with their names: those named for leading (isLeader, leading,
// elected, active) and set to true nowhere else. In a standalone run, so
// are those the package's setters store where other packages call them
// with true under a lease (programLeaderFlags).
func (b *builder) callbackLeaderFlags() map[any]leaderFlag {
	reached := make(map[*ssa.Function]bool)
	var visit func(f *ssa.Function, depth int)
	visit = func(f *ssa.Function, depth int) {
		if f == nil || reached[f] || depth > 2 || (f.Pkg != nil && f.Pkg.Pkg != b.pass.Pkg) {
			return
		}
		reached[f] = true
		for _, anon := range f.AnonFuncs {
			visit(anon, depth)
		}
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					visit(call.Common().StaticCallee(), depth+1)
				}
			}
		}
	}
	for st, fa := range b.fieldStores() {
		if api := b.ix.lookupField(fa.X.Type(), fieldVar(fa.X.Type(), fa.Field)); api != nil && api.Role.Has(RoleCallback) && api.System == Kubernetes {
			visit(funcValue(st.Val), 0)
		}
	}
	flags := make(map[any]leaderFlag)
	elsewhere := make(map[any]bool) // set true outside the callbacks too: not about leading
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		addr := b.setsTrue(instr)
		key := flagKey(addr)
		switch {
		case key == nil:
		case !reached[fn]:
			elsewhere[key] = true
		case leaderWord(flagName(addr)):
			flags[key] = leaderFlag{name: flagName(addr), system: Kubernetes, origin: "set in OnStartedLeading"}
		}
	})
	set, notLeader := b.programLeaderFlags()
	for key, flag := range set {
		if _, ok := flags[key]; !ok {
			flags[key] = flag
		}
	}
	for key := range elsewhere {
		delete(flags, key)
	}
	for key := range notLeader {
		delete(flags, key)
	}
	return flags
}

// setsTrue returns the address instr raises a flag at (x = true,
// x.Store(true), a pointer flag given a value that is not nil: c.owner =
// o; or a call of the package's setter with such a value:
// l.setLeader(true), c.setOwner(o)), or nil.
func (b *builder) setsTrue(instr ssa.Instruction) ssa.Value {
	if call, ok := instr.(*ssa.Call); ok {
		if addr := atomicIntArg(call, "Store"); addr != nil {
			if nonZeroInt(call.Call.Args[1]) {
				return addr // atomic.StoreInt32(&c.leading, 1)
			}
			return nil
		}
	}
	addr, val := boolStore(instr)
	if call, ok := instr.(*ssa.Call); ok && addr == nil {
		if fn := call.Call.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg == b.pass.Pkg {
			if stored, i := setterParam(fn); stored != nil && i < len(call.Call.Args) {
				addr, val = stored, call.Call.Args[i]
			}
		}
	}
	if raisesFlag(val) {
		return addr
	}
	return nil
}

// raisesFlag reports whether val, stored in a flag, says "leading": the
// constant true, or a pointer that is not the constant nil (the owner
// object a service keeps while it leads: IsOwner() is c.owner != nil). A
// setter's parameter says what its callers pass (setsTrue reads them).
func raisesFlag(val ssa.Value) bool {
	switch x := val.(type) {
	case nil, *ssa.Parameter:
		return false
	case *ssa.Const:
		return isConstTrue(x) || isPointer(x.Type()) && !x.IsNil()
	}
	return isPointer(val.Type())
}

// isFlagType reports whether a variable of type t can be a leader flag:
// a bool, or a pointer whose being nil says "not leading".
func isFlagType(t types.Type) bool {
	return typeIsBool(t) || isPointer(t)
}

// boolStore returns the address instr stores to and the value it stores
// (x = v, or x.Store(v) of a sync/atomic.Bool), or nils.
func boolStore(instr ssa.Instruction) (addr, val ssa.Value) {
	switch x := instr.(type) {
	case *ssa.Store:
		return x.Addr, x.Val
	case *ssa.Call:
		if isAtomicBool(x, "Store") && len(x.Call.Args) == 2 {
			return x.Call.Args[0], x.Call.Args[1]
		}
	}
	return nil, nil
}

// setterParam returns the flag a setter stores its bool or pointer
// parameter in (func (l *Elector) setLeader(v bool) { l.isLeader = v },
// func (c *Capture) setOwner(o *Owner) { c.owner = o }) and the
// parameter's index among the call's arguments (the receiver's is 0), or
// nil when fn stores no such parameter in a field or package variable.
func setterParam(fn *ssa.Function) (ssa.Value, int) {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			addr, val := boolStore(instr)
			p, ok := val.(*ssa.Parameter)
			if !ok || !isFlagType(p.Type()) || flagKey(addr) == nil {
				continue
			}
			if i := slices.Index(fn.Params, p); i >= 0 {
				return addr, i
			}
		}
	}
	return nil, 0
}

// leaderWord reports whether a flag's name says it is about leading:
// isLeader, leading, elected, active, primary.
func leaderWord(name string) bool {
	for _, w := range words(name) {
		for _, prefix := range [...]string{"lead", "elect", "active", "primary", "master", "leas", "holder", "owner"} {
			if strings.HasPrefix(w, prefix) {
				return true
			}
		}
	}
	return false
}

// flagKey identifies the variable at addr: a struct field (*types.Var) or
// a package variable (*ssa.Global); nil for anything else.
func flagKey(addr ssa.Value) any {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		if v := fieldVar(x.X.Type(), x.Field); v != nil {
			return v
		}
	case *ssa.Global:
		return x
	}
	return nil
}

// flagName names the variable at addr for a diagnostic.
func flagName(addr ssa.Value) string {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		return fieldName(x.X.Type(), x.Field)
	case *ssa.Global:
		return x.Name()
	}
	return "?"
}

// atomicIntArg returns the integer a call of sync/atomic's name on an
// integer reads or writes (atomic.LoadInt64(&c.leading), c.leading.Store(1)
// of an atomic.Int32), the flag of code written before atomic.Bool, or nil.
func atomicIntArg(call *ssa.Call, name string) ssa.Value {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || len(call.Call.Args) == 0 {
		return nil
	}
	for _, t := range [...]string{"Int32", "Int64", "Uint32", "Uint64"} {
		if fn.Name() == name+t && receiverName(fn) == "" || fn.Name() == name && receiverName(fn) == t {
			return call.Call.Args[0]
		}
	}
	return nil
}

// nonZeroInt reports whether v is an integer constant other than 0.
func nonZeroInt(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) != 0
}

// isAtomicBool reports whether call is (*sync/atomic.Bool).name.
func isAtomicBool(call *ssa.Call, name string) bool {
	fn := calleeFunc(call.Common())
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" &&
		receiverName(fn) == "Bool" && len(call.Call.Args) > 0
}

// answersCheck reports whether call, to a function with RoleCheck that is
// not in the catalog, answers whether the lease is held: a
// //fencelint:check function, a wrapper from another package (its fact
// says so), or a function of this package that returns a leader flag or
// field, or is a faithful wrapper.
func (b *builder) answersCheck(call *ssa.Call) bool {
	if obj := calleeFunc(call.Common()); obj != nil && b.dirs.roles[obj.Origin()].Has(RoleCheck) {
		return true
	}
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != b.pass.Pkg || len(fn.Blocks) == 0 {
		return true
	}
	if _, _, getter := b.leaderGetterRole(fn); getter {
		return true
	}
	return b.faithfulWrapper(fn)
}

// faithfulWrapper reports whether fn, a function that calls validity
// checks, answers with them: it returns a check's result, or on every path
// from a check's "lost" branch it returns false or an error. A function
// that checks and then does its work, returning nil either way
// (if !le.IsLeader() { return nil }; return work()), is no check its
// callers can lean on. The lead's wrapper inference (roles.go) can call it
// too, so that facts only call faithful wrappers checks.
func (b *builder) faithfulWrapper(fn *ssa.Function) bool {
	answered := false
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			c, ok := b.resolve(call.Common())
			if !ok || !c.role.Has(RoleCheck) {
				continue
			}
			if c.api != nil && c.api.Held == LockKeyAt && !b.namesLock(apiArg(call.Common(), c.api)) {
				continue // the TTL of a cache key
			}
			flow := newCheckFlow()
			flow.skipErr = c.api != nil && c.api.Held == NotErr
			flow.follow(call, +1)
			if flow.returned {
				answered = true
				continue
			}
			if len(flow.branches) == 0 {
				continue
			}
			if !lostReturnsLost(flow.branches) {
				return false
			}
			answered = true
		}
	}
	return answered
}

// lostReturnsLost reports whether every return reachable from a check's
// "lost" branches, without taking one of its "held" branches, returns
// false or an error.
func lostReturnsLost(held []branch) bool {
	isHeld := func(from *ssa.BasicBlock, succ int) bool {
		return slices.Contains(held, branch{from: from, succ: succ})
	}
	seen := make(map[*ssa.BasicBlock]bool)
	var queue []*ssa.BasicBlock
	for _, br := range held {
		if lost := br.from.Succs[1-br.succ]; !seen[lost] && !isHeld(br.from, 1-br.succ) {
			seen[lost] = true
			queue = append(queue, lost)
		}
	}
	for len(queue) > 0 {
		blk := queue[0]
		queue = queue[1:]
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && !returnsLost(ret) {
			return false
		}
		for i, succ := range blk.Succs {
			if !seen[succ] && !isHeld(blk, i) {
				seen[succ] = true
				queue = append(queue, succ)
			}
		}
	}
	return true
}

// returnsLost reports whether ret says "not held": a bool result that is
// not the constant true, or, with no bool result, an error that is not nil.
func returnsLost(ret *ssa.Return) bool {
	sawErr := false
	for _, r := range ret.Results {
		switch {
		case typeIsBool(r.Type()):
			c, ok := r.(*ssa.Const)
			return !ok || c.Value == nil || c.Value.Kind() != constant.Bool || !constant.BoolVal(c.Value)
		case typeIsError(r.Type()):
			c, ok := r.(*ssa.Const)
			sawErr = sawErr || !ok || !c.IsNil()
		}
	}
	return sawErr
}

// sessionCheck records a read of a catalogued RoleCheck field, such as the
// Session of a Consul KVPair read back from the lock key and compared with
// the holder's own session: the pair says whose the lock is.
func (b *builder) sessionCheck(fn *ssa.Function, instr ssa.Instruction) {
	var owner types.Type
	var field int
	switch x := instr.(type) {
	case *ssa.FieldAddr:
		owner, field = x.X.Type(), x.Field
	case *ssa.Field:
		owner, field = x.X.Type(), x.Field
	default:
		return
	}
	api := b.ix.lookupField(owner, fieldVar(owner, field))
	if api == nil || !api.Role.Has(RoleCheck) {
		return
	}
	flow := newCheckFlow()
	flow.skipErr, flow.skipNil = true, true
	flow.follow(instr.(ssa.Value), +1)
	if len(flow.branches) == 0 {
		return
	}
	check := &Check{Pos: instr.Pos(), Fn: fn, System: api.System, What: typeName(owner) + "." + api.Name, held: flow.branches}
	if get := producerOf(instr); get != nil {
		for _, c := range b.model.Checks {
			if c.Call == get { // pair.Session read twice: one check
				c.held = append(c.held, flow.branches...)
				return
			}
		}
		check.Call = get
		check.Pos, check.End = b.callExtent(get)
		check.What = shortName(calleeFunc(get.Common())) + " of the lock key"
	}
	b.model.Checks = append(b.model.Checks, check)
}

// producerOf returns the call that produced the struct a field instruction
// reads (pair, _, err := kv.Get(key, nil); pair.Session), or nil.
func producerOf(instr ssa.Instruction) *ssa.Call {
	var x ssa.Value
	switch f := instr.(type) {
	case *ssa.FieldAddr:
		x = f.X
	case *ssa.Field:
		x = f.X
	}
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		x = load.X
	}
	call := producer(x)
	if call == nil || calleeFunc(call.Common()) == nil {
		return nil
	}
	return call
}

// deadlineCheck records a hand-written comparison of the clock with a
// lease's deadline: now.Before(d), d.After(now), now.Compare(d),
// d.Sub(now), time.Until(d), time.Since(d), where d is named for a lease
// (lease.ExpiresAt, l.validUntil, heldUntil, acquired.Add(ttl)). A deadline
// not named for a lease (a retry loop's deadline) is not a lease check.
func (b *builder) deadlineCheck(fn *ssa.Function, call *ssa.Call) {
	d, expr := b.deadlineOperand(call)
	if d == nil || !(b.leaseNamed(expr) || b.leaseDeadline(d) || holdingDeadline(d)) {
		return
	}
	flow := newCheckFlow()
	flow.call(d, call, +1)
	if len(flow.branches) == 0 { // time.Sleep(time.Until(lease.ExpiresAt) / 2) decides nothing
		return
	}
	pos, end := b.callExtent(call)
	b.model.Checks = append(b.model.Checks, &Check{
		Pos: pos, End: end, Fn: fn, What: abbreviate(b.exprString(call)), held: flow.branches, deadline: d,
	})
}

// unixDeadlineCheck records a comparison of the clock in Unix units with
// a lease's deadline kept as a number: time.Now().Unix() < l.ExpiresAtUnix.
func (b *builder) unixDeadlineCheck(fn *ssa.Function, op *ssa.BinOp) {
	switch op.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return
	}
	nowLeft := isUnixNow(op.X)
	if nowLeft == isUnixNow(op.Y) {
		return
	}
	be := b.binaryExpr(op.Pos())
	if be == nil {
		return
	}
	deadline, value := be.Y, op.Y
	if !nowLeft {
		deadline, value = be.X, op.X
	}
	if !b.leaseNamed(deadline) && !holdingDeadline(value) {
		return
	}
	p := +1 // now < deadline: held
	if (op.Op == token.GTR || op.Op == token.GEQ) == nowLeft {
		p = -1
	}
	flow := newCheckFlow()
	flow.follow(op, p)
	if len(flow.branches) == 0 {
		return
	}
	b.model.Checks = append(b.model.Checks, &Check{
		Pos: be.Pos(), End: be.End(), Fn: fn, What: abbreviate(types.ExprString(be)), held: flow.branches, deadline: value,
	})
}

// isUnixNow reports whether v is the current time in Unix units:
// time.Now().Unix(), UnixMilli, UnixMicro or UnixNano.
func isUnixNow(v ssa.Value) bool {
	call, ok := unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	if fn == nil || !isTimeMethod(fn) || !strings.HasPrefix(fn.Name(), "Unix") {
		return false
	}
	return isNow(call.Common().Args[0], true)
}

// binaryExpr returns the binary expression whose operator is at opPos.
func (b *builder) binaryExpr(opPos token.Pos) *ast.BinaryExpr {
	for _, n := range b.pathAt(opPos) {
		if be, ok := n.(*ast.BinaryExpr); ok && be.OpPos == opPos {
			return be
		}
	}
	return nil
}

// leaseDeadline reports whether d, a time compared with the clock, is a
// lease's deadline by where it comes from: returned by a call that
// acquires or renews a lease, or computed as now plus a duration after
// such a call in the same function (m.Lock(); deadline :=
// time.Now().Add(ttl)).
func (b *builder) leaseDeadline(d ssa.Value) bool {
	call, ok := unwrap(d).(*ssa.Call)
	if !ok {
		if p := producer(d); p != nil {
			return b.acquiresOrRenews(p)
		}
		return false
	}
	if b.acquiresOrRenews(call) {
		return true
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Name() != "Add" || !isTimeMethod(fn) || !isNow(call.Common().Args[0], false) {
		return false
	}
	for _, blk := range call.Parent().Blocks {
		if !blk.Dominates(call.Block()) {
			continue
		}
		for _, instr := range blk.Instrs {
			if instr == call {
				break
			}
			if c, ok := instr.(*ssa.Call); ok && b.acquiresOrRenews(c) {
				return true
			}
		}
	}
	return false
}

// acquiresOrRenews reports whether call acquires or renews a lease.
func (b *builder) acquiresOrRenews(call *ssa.Call) bool {
	c, ok := b.resolve(call.Common())
	return ok && c.role&(RoleAcquire|RoleTryAcquire|RoleRenew) != 0
}

// deadlineOperand returns the deadline a time call compares with the clock,
// and its source expression: the argument of time.Until and time.Since, or
// the operand of Before, After, Compare and Sub that is not time.Now().
func (b *builder) deadlineOperand(call *ssa.Call) (ssa.Value, ast.Expr) {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
		return nil, nil
	}
	args := call.Common().Args
	recv := receiverName(fn)
	isClock := recv == "" && (fn.Name() == "Until" || fn.Name() == "Since") && len(args) == 1
	isCompare := recv == "Time" && isTimeComparison(fn.Name()) && len(args) == 2
	if !isClock && !isCompare {
		return nil, nil
	}
	ce := b.callExpr(call.Pos())
	if ce == nil || len(ce.Args) != 1 {
		return nil, nil
	}
	if isClock {
		return args[0], ce.Args[0]
	}
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	// The clock side is the plain now; failing that, now with a margin
	// added (time.Now().Add(margin).Before(l.ExpiresAt)).
	for _, margin := range [...]bool{false, true} {
		switch {
		case isNow(args[0], margin) && !isNow(args[1], margin):
			return args[1], ce.Args[0]
		case isNow(args[1], margin) && !isNow(args[0], margin):
			return args[0], sel.X
		}
	}
	return nil, nil
}

// isTimeMethod reports whether fn is a method of time.Time.
func isTimeMethod(fn *types.Func) bool {
	return receiverName(fn) == "Time" && fn.Pkg() != nil && fn.Pkg().Path() == "time"
}

func isTimeComparison(name string) bool {
	return name == "Before" || name == "After" || name == "Compare" || name == "Sub"
}

// isNow reports whether v is the current time: time.Now() or a clock's
// Now() (k8s.io/utils/clock, a fake clock in tests), possibly converted
// (UTC, Round) or, with margin, moved (Add), or a parameter named now.
func isNow(v ssa.Value, margin bool) bool {
	switch x := v.(type) {
	case *ssa.Parameter:
		return slices.Contains(words(x.Name()), "now")
	case *ssa.Call:
		fn := calleeFunc(x.Common())
		if fn == nil || !typeIsTime(x.Type()) {
			return false
		}
		switch fn.Name() {
		case "Now":
			return true
		case "Add":
			return margin && isTimeMethod(fn) && isNow(x.Common().Args[0], margin)
		case "UTC", "Local", "In", "Round", "Truncate":
			return isTimeMethod(fn) && isNow(x.Common().Args[0], margin)
		}
	}
	return false
}

// leaseNamed reports whether expr names a lease's deadline. One of its
// identifiers, or the type of one of its variables, names holding
// (leaseEnd, heldUntil, l *Lease, lockDeadline), or it is a field named
// only as a deadline (ExpiresAt, validUntil, ttlEnd) of a struct that is
// about holding: the struct's type, or another of its fields, names holding
// (a Lease row with its Holder; a worker keeping lease and expiry side by
// side). A business record's own deadline (a payment's ExpiredAt, a
// coupon's ValidUntil) is none: the clock compared with it decides whether
// the record is still good, and says nothing about a lease.
func (b *builder) leaseNamed(expr ast.Expr) bool {
	found := false
	ast.Inspect(expr, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.Ident:
			if hasHoldingWord(x.Name) {
				found = true
			} else if v, ok := b.pass.TypesInfo.Uses[x].(*types.Var); ok && hasHoldingWord(typeName(v.Type())) {
				found = true
			}
		case *ast.SelectorExpr:
			found = hasDeadlineWord(x.Sel.Name) && b.fieldOfHolding(x)
		}
		return !found
	})
	return found
}

// fieldOfHolding reports whether sel selects a field of a struct that is
// about holding (aboutHolding).
func (b *builder) fieldOfHolding(sel *ast.SelectorExpr) bool {
	s, ok := b.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	// Walk the embedding path to the struct that declares the field.
	t := s.Recv()
	index := s.Index()
	for _, i := range index[:len(index)-1] {
		f := fieldVar(t, i)
		if f == nil {
			return false
		}
		t = f.Type()
	}
	return aboutHolding(t, index[len(index)-1])
}

// holdingDeadline reports whether d, a time compared with the clock, is
// loaded from a field named as a deadline of a struct about holding, also
// through a local copy (end := w.lease.ExpiresAt; time.Now().Before(end)).
func holdingDeadline(d ssa.Value) bool {
	d = unwrap(d)
	if load, ok := d.(*ssa.UnOp); ok && load.Op == token.MUL {
		d = load.X
	}
	var t types.Type
	var i int
	switch x := d.(type) {
	case *ssa.FieldAddr:
		t, i = x.X.Type(), x.Field
	case *ssa.Field:
		t, i = x.X.Type(), x.Field
	default:
		return false
	}
	name := fieldName(t, i)
	return (hasDeadlineWord(name) || hasHoldingWord(name)) && aboutHolding(t, i)
}

// aboutHolding reports whether t (or *t), a struct, is about holding: its
// type name, or the name or type of a field other than field except, names
// holding (a Lease row; a row with its Holder; a worker that keeps its
// lease and expiry side by side). A struct of more than maxHoldingFields
// fields counts by its name only: an application's configuration gathers
// every subsystem's settings, a leader election's among them, and its
// InstancePoolExpiryMinutes is no lease's.
func aboutHolding(t types.Type, except int) bool {
	if hasHoldingWord(typeName(t)) {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() > maxHoldingFields {
		return false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if i != except && (hasHoldingWord(f.Name()) || hasHoldingWord(typeName(f.Type()))) {
			return true
		}
	}
	return false
}

// maxHoldingFields is the most fields a struct about holding is taken to
// have when only its fields' names say so.
const maxHoldingFields = 24

// hasLeaseWord reports whether name mentions a lease: one of its words
// (leaseDeadline, ExpiresAt, "locks:report", heldUntil) starts with a word
// that marks a time as a lease's deadline or a key as a lock's. Words, not
// substrings: a clock or a blocklist is no lock.
func hasLeaseWord(name string) bool {
	return hasHoldingWord(name) || hasDeadlineWord(name)
}

// hasHoldingWord reports whether one of name's words is about holding
// something (lease, lock, leader, held, hold, acquired, mutex, elect).
func hasHoldingWord(name string) bool {
	return hasWordPrefix(name, "lease", "lock", "leader", "held", "hold", "acquir", "mutex", "elect")
}

// hasDeadlineWord reports whether one of name's words marks a deadline
// (expiry, expires, valid, TTL): a lease has one, and so do many records
// that are no lease.
func hasDeadlineWord(name string) bool {
	return hasWordPrefix(name, "expir", "valid", "ttl")
}

func hasWordPrefix(name string, prefixes ...string) bool {
	for _, w := range words(name) {
		for _, prefix := range prefixes {
			if strings.HasPrefix(w, prefix) {
				return true
			}
		}
	}
	return false
}

// words splits an identifier or a key into lower-case words at
// punctuation and at camel-case humps: "leaseExpiresAt" and
// "lease_expires_at" both give lease, expires, at.
func words(name string) []string {
	var out []string
	start := -1
	runes := []rune(name)
	for i, r := range runes {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		hump := i > 0 && unicode.IsUpper(r) && (unicode.IsLower(runes[i-1]) ||
			(i+1 < len(runes) && unicode.IsUpper(runes[i-1]) && unicode.IsLower(runes[i+1])))
		if start >= 0 && (!alnum || hump) {
			out = append(out, strings.ToLower(string(runes[start:i])))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(string(runes[start:])))
	}
	return out
}

// namesLock reports whether v, the key or path a check reads, names a lock:
// a key the package passes to SET NX, a string that mentions a lock, or a
// variable, field or function named for one.
func (b *builder) namesLock(v ssa.Value) bool {
	seen := make(map[ssa.Value]bool)
	var names func(v ssa.Value) bool
	names = func(v ssa.Value) bool {
		v = unwrap(v)
		if v == nil || seen[v] {
			return false
		}
		seen[v] = true
		if b.isLockKey(v) {
			return true
		}
		if s, ok := constString(v); ok {
			return hasLeaseWord(s) || strings.Contains(strings.ToLower(s), "mutex")
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			return hasLeaseWord(x.Name())
		case *ssa.Global:
			return hasLeaseWord(x.Name())
		case *ssa.FieldAddr:
			return hasLeaseWord(fieldName(x.X.Type(), x.Field))
		case *ssa.Field:
			return hasLeaseWord(fieldName(x.X.Type(), x.Field))
		case *ssa.UnOp:
			return names(x.X)
		case *ssa.Extract: // node, err := conn.CreateProtectedEphemeralSequential(lockPath+"/n-", ...)
			return names(x.Tuple)
		case *ssa.BinOp: // "lock:" + name
			return names(x.X) || names(x.Y)
		case *ssa.Call:
			if f := calleeFunc(x.Common()); f != nil && hasLeaseWord(f.Name()) {
				return true
			}
			for _, a := range x.Common().Args { // fmt.Sprintf("lock:%s", id), path.Join(root, "leader")
				if names(a) {
					return true
				}
			}
		case *ssa.Slice: // variadic arguments
			for _, e := range arrayElemsOf(x) {
				if names(e) {
					return true
				}
			}
		}
		return false
	}
	return names(v)
}

// arrayElemsOf returns the elements stored in the array a slice expression
// was made from, if it was made at the call site.
func arrayElemsOf(s *ssa.Slice) []ssa.Value {
	if alloc, ok := s.X.(*ssa.Alloc); ok {
		return arrayElems(alloc)
	}
	return nil
}

// hasNonError reports whether t, a call's result type, is or includes a
// value other than an error.
func hasNonError(t types.Type) bool {
	tuple, ok := t.(*types.Tuple)
	if !ok {
		return !typeIsError(t)
	}
	for i := range tuple.Len() {
		if !typeIsError(tuple.At(i).Type()) {
			return true
		}
	}
	return false
}

// typeIsError reports whether t is the error interface.
func typeIsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// markGuards links each check with the writes it guards: writes in blocks
// that run only after the check said the lease is held, and writes in
// closures made in such blocks.
func (b *builder) markGuards() {
	if len(b.model.Checks) == 0 {
		return
	}
	sites := b.closureSites()
	for _, w := range b.model.Writes {
		for _, c := range b.model.Checks {
			if c.guardsWrite(w, sites) {
				c.Guarded = append(c.Guarded, w)
				w.Guards = append(w.Guards, c)
			}
		}
	}
}

// guardsWrite reports whether w runs only after c said the lease is held:
// in a guarded block of c's function, or in a closure made in one. A
// deadline comparison whose deadline the write itself stores (if newLockedTill
// < now+5m { return err } ... SET locked_till = $1) validates the deadline a
// claim or an extension asks for, not a lease held: it guards nothing.
func (c *Check) guardsWrite(w *Write, sites map[*ssa.Function]*ssa.BasicBlock) bool {
	if len(c.held) == 0 || w.Call == nil || c.deadline != nil && passes(w.Call.Common(), c.deadline) {
		return false
	}
	for blk := w.Call.Block(); blk != nil; blk = sites[blk.Parent()] {
		if blk.Parent() == c.Fn {
			return c.guardsBlock(blk)
		}
	}
	return false
}

// passes reports whether call hands v over as an argument, also as an
// element of a variadic argument (ExecContext(ctx, query, v, id)).
func passes(call *ssa.CallCommon, v ssa.Value) bool {
	v = unwrap(v)
	for _, a := range call.Args {
		if unwrap(a) == v {
			return true
		}
		if elems, ok := variadic(a); ok && slices.ContainsFunc(elems, func(e ssa.Value) bool { return unwrap(e) == v }) {
			return true
		}
	}
	return false
}

// closureSites maps each function literal of the package to the block that
// makes it.
func (b *builder) closureSites() map[*ssa.Function]*ssa.BasicBlock {
	sites := make(map[*ssa.Function]*ssa.BasicBlock)
	var ops []*ssa.Value
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if lit, ok := (*op).(*ssa.Function); ok && lit.Parent() == fn && sites[lit] == nil {
						sites[lit] = blk
					}
				}
			}
		}
	}
	return sites
}

// checkedRegions returns a lease of Kind Checked for each check that guards
// some code, with the blocks it guards: there the code acts as the holder.
func (b *builder) checkedRegions() []checkedRegion {
	var regions []checkedRegion
	for _, c := range b.model.Checks {
		if len(c.held) == 0 {
			continue
		}
		var blocks []*ssa.BasicBlock
		for _, blk := range c.Fn.Blocks {
			if c.guardsBlock(blk) {
				blocks = append(blocks, blk)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		l := &Lease{Kind: Checked, System: c.System, What: checkedLeaseName(c), Pos: c.Pos, Fn: c.Fn}
		if c.Call != nil {
			l.Holder = callRecv(c.Call.Common())
		}
		regions = append(regions, checkedRegion{lease: l, blocks: blocks})
	}
	return regions
}

// checkedLeaseName names the lease a check vouches for, for diagnostics.
func checkedLeaseName(c *Check) string {
	if c.System == "" {
		return fmt.Sprintf("the lease that %s says is held", c.What)
	}
	return fmt.Sprintf("the %s lease that %s says is held", c.System, c.What)
}

// callExtent returns the source range of the call expression of call
// (ssa positions a call at its parenthesis).
func (b *builder) callExtent(call ssa.CallInstruction) (token.Pos, token.Pos) {
	if ce := b.callExpr(call.Pos()); ce != nil {
		return ce.Pos(), ce.End()
	}
	return call.Pos(), token.NoPos
}

// callExpr returns the call expression whose opening parenthesis is at lparen.
func (b *builder) callExpr(lparen token.Pos) *ast.CallExpr {
	for _, n := range b.pathAt(lparen) {
		if ce, ok := n.(*ast.CallExpr); ok && ce.Lparen == lparen {
			return ce
		}
	}
	return nil
}

// pathAt returns the syntax nodes of the package enclosing pos, innermost
// first, up to its file; nil for a position outside the package's files.
func (b *builder) pathAt(pos token.Pos) []ast.Node {
	f := b.fileOf(pos)
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, pos+1)
	return path
}

// fileOf returns the file of the package that holds pos, or nil.
func (b *builder) fileOf(pos token.Pos) *ast.File {
	if !pos.IsValid() {
		return nil
	}
	for _, f := range b.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// exprString renders the call expression of call as source.
func (b *builder) exprString(call ssa.CallInstruction) string {
	if ce := b.callExpr(call.Pos()); ce != nil {
		return types.ExprString(ce)
	}
	return shortName(calleeFunc(call.Common()))
}

// abbreviate shortens s for a diagnostic.
func abbreviate(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max-3] + "..."
}

// A checkFlow follows a check's result through the values derived from it
// to the If instructions it decides. A polarity says what a value means: +1
// when true, nil (for an error), non-nil (for a pointer), larger (for a
// number), later (for a time) or equal to the holder's own (for an ID or a
// state) means the lease is held; -1 when it means the lease is lost.
type checkFlow struct {
	skipErr  bool // an error result says nothing about the lease (only the value does)
	skipNil  bool // a nil result says nothing about the lease
	seen     map[ssa.Value]bool
	branches []branch
	used     map[ssa.CallInstruction]bool // time calls the flow went through
	returned bool                         // the answer reaches a return: the function passes it on
}

func newCheckFlow() *checkFlow {
	return &checkFlow{seen: make(map[ssa.Value]bool), used: make(map[ssa.CallInstruction]bool)}
}

// follow visits every use of v, a value derived from the check with
// polarity p.
func (f *checkFlow) follow(v ssa.Value, p int) {
	if f.seen[v] {
		return
	}
	f.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		f.use(v, ref, p)
	}
}

// use follows v, with polarity p, into one instruction that uses it.
func (f *checkFlow) use(v ssa.Value, ref ssa.Instruction, p int) {
	switch x := ref.(type) {
	case *ssa.If:
		f.decide(x.Block(), p)
	case *ssa.Return:
		f.returned = true
	case *ssa.Extract:
		if f.skipErr && isErrorType(x.Type()) {
			return // an error that says nothing about the lease: not an answer passed on either
		}
		f.follow(x, p)
	case *ssa.UnOp:
		switch x.Op {
		case token.NOT, token.SUB:
			f.follow(x, -p)
		case token.MUL: // a load through a field or element address
			f.follow(x, p)
		}
	case *ssa.Convert:
		f.follow(x, p)
	case *ssa.ChangeType:
		f.follow(x, p)
	case *ssa.Field:
		if followedField(fieldName(x.X.Type(), x.Field)) {
			f.follow(x, p)
		}
	case *ssa.FieldAddr:
		if followedField(fieldName(x.X.Type(), x.Field)) {
			f.follow(x, p)
		}
	case *ssa.IndexAddr:
		if x.X == v {
			f.follow(x, p)
		}
	case *ssa.Index:
		if x.X == v {
			f.follow(x, p)
		}
	case *ssa.Phi:
		if shortCircuit(x, v, p) {
			f.follow(x, p)
		}
	case *ssa.BinOp:
		f.binOp(v, x, p)
	case *ssa.Call:
		f.call(v, x, p)
	}
}

// followedField reports whether a response field can carry a check's
// answer: a TTL, or the key, value, session or ID to compare with the
// holder's own (etcd's Kvs[0].Value, Consul's SessionEntry.ID).
func followedField(name string) bool {
	switch name {
	case "TTL", "Kvs", "Value", "Key", "Session", "ID":
		return true
	}
	return false
}

// decide records the branch of blk's If taken when the lease is held, and
// follows a short-circuit && or || whose result only the held branch can
// make true (ok := le.IsLeader() && ready).
func (f *checkFlow) decide(blk *ssa.BasicBlock, p int) {
	held, lost := 0, 1
	if p < 0 {
		held, lost = 1, 0
	}
	br := branch{from: blk, succ: held}
	f.branches = append(f.branches, br)
	merge := blk.Succs[lost]
	for _, instr := range merge.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if q, ok := mergedPolarity(phi, blk, br); ok {
			f.follow(phi, q)
		}
	}
}

// mergedPolarity reports what phi says about the lease when the edge from
// blk (the check's lost branch) brings a boolean constant and every other
// edge comes from code the held branch dominates: then phi differs from
// that constant only if the lease was held.
func mergedPolarity(phi *ssa.Phi, blk *ssa.BasicBlock, held branch) (int, bool) {
	q, found := 0, false
	for i, pred := range phi.Block().Preds {
		if pred == blk {
			c, ok := phi.Edges[i].(*ssa.Const)
			if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
				return 0, false
			}
			q, found = +1, true
			if constant.BoolVal(c.Value) {
				q = -1
			}
		} else if !held.dominates(pred) {
			return 0, false
		}
	}
	return q, found
}

// shortCircuit reports whether phi, which merges v with other values, is
// true (for p > 0) only when v is: every other edge brings the constant
// that means lost (x && le.IsLeader()).
func shortCircuit(phi *ssa.Phi, v ssa.Value, p int) bool {
	for _, e := range phi.Edges {
		if e == v {
			continue
		}
		c, ok := e.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Bool || constant.BoolVal(c.Value) != (p < 0) {
			return false
		}
	}
	return true
}

// binOp follows v into a comparison or arithmetic.
func (f *checkFlow) binOp(v ssa.Value, x *ssa.BinOp, p int) {
	other, mirrored := x.Y, false
	if x.Y == v {
		other, mirrored = x.X, true
	}
	t := v.Type()
	switch x.Op {
	case token.EQL, token.NEQ:
		q := p
		if x.Op == token.NEQ {
			q = -p
		}
		f.equality(x, t, other, q)
	case token.GTR, token.GEQ, token.LSS, token.LEQ:
		if !typeIsNumber(t) {
			return
		}
		larger := x.Op == token.GTR || x.Op == token.GEQ
		if larger == mirrored {
			p = -p
		}
		f.follow(x, p)
	case token.ADD:
		if typeIsNumber(t) {
			f.follow(x, p)
		}
	case token.SUB:
		if typeIsNumber(t) {
			if mirrored {
				p = -p
			}
			f.follow(x, p)
		}
	case token.MUL, token.QUO:
		if typeIsNumber(t) && !mirrored {
			f.follow(x, p)
		}
	}
}

// equality follows v == other (q = p) or v != other (q = -p).
func (f *checkFlow) equality(x *ssa.BinOp, t types.Type, other ssa.Value, q int) {
	c, isConst := other.(*ssa.Const)
	switch {
	case typeIsBool(t):
		if isConst && c.Value != nil && c.Value.Kind() == constant.Bool {
			if !constant.BoolVal(c.Value) {
				q = -q
			}
			f.follow(x, q)
		}
	case isConst && c.IsNil():
		switch {
		case types.IsInterface(t) && !f.skipErr: // err == nil: held
			f.follow(x, q)
		case !types.IsInterface(t) && !f.skipNil: // entry == nil: lost
			f.follow(x, -q)
		}
	case typeIsState(t):
		if isConst {
			if heldState(t, c) {
				f.follow(x, q)
			} else if x.Op == token.EQL { // State() == raft.Follower
				f.follow(x, -q)
			}
		}
	case typeIsNumber(t):
		if isConst && c.Value != nil && constant.Sign(c.Value) == 0 { // ttl == 0: lost
			f.follow(x, -q)
		}
	case typeIsString(t):
		if !isConst { // leader == myID
			f.follow(x, q)
		}
	}
}

// call follows v into a call that takes it as receiver or argument.
func (f *checkFlow) call(v ssa.Value, call *ssa.Call, p int) {
	c := call.Common()
	fn := calleeFunc(c)
	if fn == nil {
		return
	}
	recv := callRecv(c)
	if recv == v {
		f.method(v, call, fn, p)
		return
	}
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Path()
	}
	switch {
	case pkg == "time" && receiverName(fn) == "Time":
		switch fn.Name() {
		case "Before": // now.Before(deadline)
			f.used[call] = true
			f.follow(call, p)
		case "After", "Compare", "Sub": // now.After(deadline): lost
			f.used[call] = true
			f.follow(call, -p)
		}
	case pkg == "time" && fn.Name() == "Until":
		f.used[call] = true
		f.follow(call, p)
	case pkg == "time" && fn.Name() == "Since":
		f.used[call] = true
		f.follow(call, -p)
	case (pkg == "bytes" && fn.Name() == "Equal") || (pkg == "strings" && fn.Name() == "EqualFold"):
		f.follow(call, p)
	}
}

// method follows v into a method called on it.
func (f *checkFlow) method(v ssa.Value, call *ssa.Call, fn *types.Func, p int) {
	name := fn.Name()
	switch {
	case typeIsTime(v.Type()):
		switch name {
		case "After", "Compare", "Sub": // deadline.After(now): held
			f.used[call] = true
			f.follow(call, p)
		case "Before":
			f.used[call] = true
			f.follow(call, -p)
		case "Add", "UTC", "Local", "In", "Round", "Truncate", "Unix", "UnixMilli", "UnixMicro", "UnixNano":
			f.follow(call, p)
		}
	case typeIsNumber(v.Type()):
		switch name {
		case "Seconds", "Milliseconds", "Microseconds", "Nanoseconds", "Minutes", "Hours", "Round", "Truncate", "Abs":
			f.follow(call, p)
		}
	case name == "Error" && !typeIsError(v.Type()) && typeIsError(call.Type()): // raft's Future.Error()
		f.follow(call, p)
	case name == "Val" || name == "Result": // go-redis commands
		f.follow(call, p)
	}
}

// typeIsBool reports whether t is a boolean type.
func typeIsBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// typeIsNumber reports whether t is a numeric type (a TTL, a count) other
// than a state enumeration.
func typeIsNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0 && !typeIsState(t)
}

// typeIsString reports whether t is a string or a byte slice.
func typeIsString(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// typeIsTime reports whether t is time.Time.
func typeIsTime(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

// heldStates are the constants a state compares equal to when the lease is
// held: raft.Leader, zk.StateHasSession.
func heldStates() []string { return []string{"Leader", "StateHasSession", "StateConnected"} }

// typeIsState reports whether t is an enumeration whose package declares one
// of the heldStates (raft.RaftState, zk.State).
func typeIsState(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	scope := n.Obj().Pkg().Scope()
	for _, name := range heldStates() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), t) {
			return true
		}
	}
	return false
}

// heldState reports whether c is one of the heldStates of its type.
func heldState(t types.Type, c *ssa.Const) bool {
	n := types.Unalias(t).(*types.Named)
	scope := n.Obj().Pkg().Scope()
	for _, name := range heldStates() {
		if k, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(k.Type(), t) && c.Value != nil && constant.Compare(k.Val(), token.EQL, c.Value) {
			return true
		}
	}
	return false
}

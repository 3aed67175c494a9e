package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Work handed to a goroutine inside a lease region runs under that lease,
// just as the body of a closure made there does: go s.rebalance(ctx),
// go worker.Run(ctx), g.Go(s.flush) (errgroup, sync.WaitGroup.Go) and
// wait.Until(c.worker, time.Second, stopCh) write through the function
// they run. A go statement is a call like any other for findWrites (the
// function's facts make it a write); spawnedWrite covers the function
// values handed to a catalogued Spawner, which SSA runs through a bound
// method wrapper the package's functions do not include (an interface's
// method value too: wait.Group.StartWithChannel(stop, synchro.Run) writes
// through Run's implementations). Closures need neither: they start with
// the lease their creator held (regions.go).

// spawnedWrite returns the write made by a declared function or method
// value that call hands to a Spawner, or nil.
func (b *builder) spawnedWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	c := call.Common()
	spawner := calleeFunc(c)
	sp := b.ix.lookupSpawner(spawner)
	if sp == nil {
		return nil
	}
	var targets []*types.Func
	if sp.Handler != nil {
		targets = handlerFuncs(arg(c, sp.Arg), sp.Handler)
	} else if obj := declaredValue(spawnedArg(c, sp)); obj != nil {
		targets = append(targets, obj)
	}
	for _, obj := range targets {
		if w := b.handedWrite(fn, call, spawner, obj, sp.Goroutine); w != nil {
			return w
		}
	}
	return nil
}

// spawnedArg returns the function that c, a call of the Spawner sp,
// runs: its argument Arg, or for a retry library its first func argument.
func spawnedArg(c *ssa.CallCommon, sp *Spawner) ssa.Value {
	if !sp.Retry {
		return arg(c, sp.Arg)
	}
	for _, a := range callArgs(c) {
		if _, ok := a.Type().Underlying().(*types.Signature); ok {
			return a
		}
	}
	return nil
}

// handedWrite returns the write made by obj, a declared function handed to
// the function to (a spawner, a helper that runs it) at call, or nil if
// obj writes nothing; spawned says whether to runs it in a goroutine.
func (b *builder) handedWrite(fn *ssa.Function, call ssa.CallInstruction, to, obj *types.Func, spawned bool) *Write {
	var wf WritesFact
	if !b.fact(obj, &wf) {
		return nil
	}
	w := newWrite(fn, call, wf.System, shortName(to)+"("+shortName(obj)+")")
	w.Via, w.Dispatch, w.outsideOf, w.Append = wf.What, wf.Dispatch, wf.OutsideOf, wf.Append
	w.reachSites(&wf, nil)
	w.sitesOf = obj
	w.spawned = spawned || wf.Spawned
	return w
}

// ranWrite returns the write made by a declared function or method value
// that call hands to a function of the application's that runs it before
// it returns or in a goroutine (RunParamFact, GoParamFact): a worker's
// processNextItem(c.queue, c.syncHandler) writes what the handler writes.
// It is what the handler's writes amount to for the callers of a function
// that holds no lease itself (a worker started with wait.Until). A closure
// handed over needs none of this (regions.go), nor a catalogued Spawner
// (spawnedWrite).
func (b *builder) ranWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	c := call.Common()
	helper := calleeFunc(c)
	if helper == nil || b.ix.lookupSpawner(helper) != nil {
		return nil
	}
	if b.regions.byCall[call] != nil || len(b.heldBefore(call)) > 0 {
		// A lock helper's callback, and a func handed over under a
		// lease, run under it and report there (handOnRuns).
		return nil
	}
	for _, i := range b.runParamsOf(c) {
		if obj := declaredValue(arg(c, i)); obj != nil {
			if w := b.handedWrite(fn, call, helper, obj, b.goParam(helper, i)); w != nil {
				return w
			}
		}
	}
	return nil
}

// goParam reports whether helper runs its func parameter i in a goroutine.
func (b *builder) goParam(helper *types.Func, i int) bool {
	var g GoParamFact
	return b.pass.ImportObjectFact(helper.Origin(), &g) && (slices.Contains(g.Params, i) || slices.Contains(g.Returning, i))
}

// declaredValue returns the declared function or method v is a value of
// (s.flush, a bound method; iface.Run, an interface's), or nil for a
// closure, whose own body's writes are under the lease already.
func declaredValue(v ssa.Value) *types.Func {
	target := funcValue(v)
	if target == nil || target.Parent() != nil {
		return nil
	}
	obj, _ := target.Object().(*types.Func)
	return obj
}

// handlerFuncs returns the declared functions an event handler h runs: the
// func values stored in the fields of the struct literal h is
// (cache.ResourceEventHandlerFuncs{AddFunc: c.add}, a handler nested in an
// interface field such as FilteringResourceEventHandler's Handler too), or
// else the methods of h's type named in methods (a type of the
// application's with OnAdd, OnUpdate and OnDelete).
func handlerFuncs(h ssa.Value, methods []string) []*types.Func {
	h = unwrap(h)
	if alloc := literalAlloc(h); alloc != nil {
		// A handler type of the application's built as a literal
		// (tombstones{db}) stores no funcs: its methods are the handlers.
		if out := literalFuncs(alloc, methods); len(out) > 0 {
			return out
		}
	}
	var out []*types.Func
	for _, name := range methods {
		if m, ok := methodOf(h.Type(), name); ok {
			out = append(out, m)
		}
	}
	return out
}

// literalFuncs returns the declared functions stored in the fields of the
// struct literal built in alloc, following handlers nested in interface
// fields.
func literalFuncs(alloc *ssa.Alloc, methods []string) []*types.Func {
	var out []*types.Func
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, st := range *fa.Referrers() {
			st, ok := st.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if types.IsInterface(st.Val.Type()) {
				out = append(out, handlerFuncs(st.Val, methods)...)
			} else if obj := declaredValue(st.Val); obj != nil {
				out = append(out, obj)
			}
		}
	}
	return out
}

// literalAlloc returns the local a struct literal handed on by value or by
// pointer was built in, or nil.
func literalAlloc(v ssa.Value) *ssa.Alloc {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, _ := v.(*ssa.Alloc)
	if alloc == nil {
		return nil
	}
	if _, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct); !ok {
		return nil
	}
	return alloc
}

// methodOf returns the method name of t (or of *t), if it has one.
func methodOf(t types.Type, name string) (*types.Func, bool) {
	if types.IsInterface(t) {
		return nil, false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	m, ok := obj.(*types.Func)
	return m, ok
}

// A goroutine that takes a lock itself was written to run outside its
// creator's region when the lock is the one its creator holds: Harness's
// runJob starts each job in a goroutine the scheduler's loop does not wait
// for, and the goroutine takes the global lock again for the write that
// needs it. What such a goroutine writes before or after its own lock is
// not done under its creator's (or its creator's caller's) hold of that
// lock: the closure does not inherit it, and its writes make a WritesFact
// whose OutsideOf names the lock, which callers holding it disregard. A
// goroutine that takes no lock of its own, or another lock, keeps running
// under the creator's lease (consul-esm's go a.computeWatchedNodes). Locks
// are told apart by name (leaseName), so two locks taken by the same
// wrapper or catalogued call count as one; only closures started by go are
// read so (a go statement's, or a Spawner's that starts a goroutine).

// goroutineLock returns the name of the lease taken by the closure fn, or
// by a closure fn is nested in, that is started by a go statement; "" if
// there is none.
func (b *builder) goroutineLock(fn *ssa.Function) string {
	for ; fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if !b.startedByGo(fn) {
			continue
		}
		if name := b.acquiredItself(fn); name != "" {
			return name
		}
	}
	return ""
}

// startedByGo reports whether the closure fn is started in a goroutine of
// its own by its parent: go func() {...}(), g.Go(func() error {...}).
func (b *builder) startedByGo(fn *ssa.Function) bool {
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			switch instr := instr.(type) {
			case *ssa.Go:
				if funcValue(instr.Call.Value) == fn {
					return true
				}
			case *ssa.Call:
				c := instr.Common()
				if sp := b.ix.lookupSpawner(calleeFunc(c)); sp != nil && sp.Goroutine && funcValue(spawnedArg(c, sp)) == fn {
					return true
				}
			}
		}
	}
	return false
}

// acquiredItself returns the name of the first lease fn acquires itself,
// or "".
func (b *builder) acquiredItself(fn *ssa.Function) string {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if c, ok := b.resolve(call.Common()); ok && c.role&(RoleAcquire|RoleTryAcquire) != 0 {
				return leaseName(c)
			}
		}
	}
	return ""
}

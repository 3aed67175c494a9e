package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Callback parameters carry a lease into a function value handed to a
// helper: a WithLock(ctx, name, fn) that locks and then calls fn, a config
// builder that stores its argument in OnStartedLeading, or a leader helper
// whose OnStartedLeading closure calls it (func(ctx) { start(ctx) }). The function
// passed there runs while the lease is held, in this package or, through
// CallbackParamFact, in another.

// callbackParam is a parameter of a function whose argument runs under a
// lease, and what that lease is.
type callbackParam struct {
	system System
	what   string // "the redsync lock Locker.WithLock holds"
}

// propagateCallbacks finds the callback parameters of the package's
// functions, gives the functions passed there their lease on entry, and
// reruns the region analysis until nothing changes.
func (b *builder) propagateCallbacks() {
	for range 4 {
		called := b.findCalledFields()
		ran := b.handOnRuns()
		if !b.applyCallbackParams() && !called && !ran {
			return
		}
		for _, fn := range b.funcs {
			b.flow(fn)
		}
	}
}

// applyCallbackParams gives every function passed as a callback argument
// the lease it runs under, and reports whether any entry state grew.
func (b *builder) applyCallbackParams() bool {
	local := b.localCallbacks()
	grew := false
	b.calls(func(caller *ssa.Function, call ssa.CallInstruction) bool {
		for i, cp := range b.callbackParamsOf(call.Common(), local) {
			// Also a func captured by the closure that calls the helper,
			// and the method behind a method value (s.run).
			target := callbackFunc(arg(call.Common(), i))
			if target == nil {
				continue
			}
			l := b.callbackLease(call, cp)
			if !slices.Contains(b.regions.entry[target], l) {
				grew = true
			}
			b.regions.hand(call, target, l)
		}
		return true
	})
	return grew
}

// callbackLease returns the lease a callback argument of call runs under,
// made once per call.
func (b *builder) callbackLease(call ssa.CallInstruction, cp callbackParam) *Lease {
	if l := b.regions.byCall[call]; l != nil {
		return l
	}
	l := b.addLease(&Lease{Kind: InCallback, System: cp.system, Pos: call.Pos(), Fn: call.Parent(), Call: call, What: cp.what})
	b.regions.byCall[call] = l
	return l
}

// localCallbackSet holds the callback parameters (receiver excluded) of the
// package's functions, as the region analysis stood when it was found.
type localCallbackSet map[*ssa.Function]map[int]callbackParam

// callbackParamsOf returns the callback parameters (receiver excluded) of
// the function call invokes: from local, this package's, or imported.
func (b *builder) callbackParamsOf(c *ssa.CallCommon, local localCallbackSet) map[int]callbackParam {
	if f := c.StaticCallee(); f != nil {
		if o := f.Origin(); o != nil {
			f = o // an instance of a generic function has no package of its own; its body is the origin's
		}
		if f.Pkg != nil && f.Pkg.Pkg == b.pass.Pkg {
			return local[f]
		}
	}
	obj := calleeFunc(c)
	if obj == nil {
		return nil
	}
	var fact CallbackParamFact
	if !b.fact(obj, &fact) {
		return nil
	}
	params := make(map[int]callbackParam)
	for _, i := range fact.Params {
		params[i] = callbackParam{system: fact.System, what: fact.What}
	}
	return params
}

// localCallbacks finds the callback parameters of the package's functions:
// those each function uses under a lease itself (ownCallbackParams), then,
// until nothing changes, those it hands on to another helper's callback
// parameter (handOnCallbacks), through chains of any length and cycles.
// The set depends on the leases held (heldBefore): find it again once the
// regions change.
func (b *builder) localCallbacks() localCallbackSet {
	local := make(localCallbackSet)
	for _, fn := range b.funcs {
		if params := b.ownCallbackParams(fn); len(params) > 0 {
			local[fn] = params
		}
	}
	for grew := true; grew; {
		grew = false
		for _, fn := range b.funcs {
			if b.handOnCallbacks(fn, local) {
				grew = true
			}
		}
	}
	return local
}

// ownCallbackParams finds the parameters of fn, a function of this
// package, whose argument fn stores in a library callback field
// (OnStartedLeading) or calls while it holds a lease.
func (b *builder) ownCallbackParams(fn *ssa.Function) map[int]callbackParam {
	var params map[int]callbackParam
	add := func(p *ssa.Parameter, cp callbackParam) {
		i := paramIndex(fn, p)
		if i < 0 {
			return
		}
		if params == nil {
			params = make(map[int]callbackParam)
		}
		params[i] = cp
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case *ssa.Store, *ssa.MapUpdate:
				vals, cp, ok := b.storedCallback(x)
				if !ok {
					continue
				}
				for _, v := range vals {
					if p, ok := unwrap(v).(*ssa.Parameter); ok {
						add(p, cp)
					}
				}
			case *ssa.Call:
				p, ok := x.Call.Value.(*ssa.Parameter)
				if !ok || x.Call.IsInvoke() {
					continue
				}
				if held := b.heldBefore(x); len(held) > 0 {
					add(p, callbackParam{system: held[0].System, what: heldBy(held[0].What, fn.Name())})
				}
			case *ssa.MakeClosure:
				b.closureCalledParams(fn, x, add)
				b.closureStoredParams(fn, x, add)
			}
		}
	}
	return params
}

// handOnCallbacks adds to local the parameters of fn that fn, or a closure
// it makes, hands on as they are as another helper's callback argument
// (func lockFolder(key string, f func() error) error { return
// lockkit.ExecLocked("folder:"+key, f) }): fn's argument runs under that
// helper's lease. A parameter that already has a lease keeps it. It
// reports whether local grew.
func (b *builder) handOnCallbacks(fn *ssa.Function, local localCallbackSet) bool {
	grew := false
	add := func(p *ssa.Parameter, cp callbackParam) {
		i := paramIndex(fn, p)
		if i < 0 {
			return
		}
		if _, ok := local[fn][i]; ok {
			return
		}
		if local[fn] == nil {
			local[fn] = make(map[int]callbackParam)
		}
		local[fn][i] = cp
		grew = true
	}
	handedOn := func(call ssa.CallInstruction, param func(ssa.Value) *ssa.Parameter) {
		params := b.callbackParamsOf(call.Common(), local)
		for _, i := range slices.Sorted(maps.Keys(params)) {
			if p := param(unwrap(arg(call.Common(), i))); p != nil && p.Parent() == fn {
				add(p, params[i])
			}
		}
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				handedOn(x, func(v ssa.Value) *ssa.Parameter {
					p, _ := v.(*ssa.Parameter)
					return p
				})
			case *ssa.MakeClosure:
				closure, ok := x.Fn.(*ssa.Function)
				if !ok {
					continue
				}
				captured := func(v ssa.Value) *ssa.Parameter {
					i := slices.Index(closure.FreeVars, capturedVar(v))
					if i < 0 || i >= len(x.Bindings) {
						return nil
					}
					return capturedParam(x.Bindings[i])
				}
				for _, cblk := range closure.Blocks {
					for _, cinstr := range cblk.Instrs {
						if call, ok := cinstr.(ssa.CallInstruction); ok {
							handedOn(call, captured)
						}
					}
				}
			}
		}
	}
	return grew
}

// closureCalledParams adds the parameters of fn that the closure mc calls
// while it holds a lease: a helper that wraps its argument in a callback of
// the library, OnStartedLeading: func(ctx context.Context) { start(ctx) }.
func (b *builder) closureCalledParams(fn *ssa.Function, mc *ssa.MakeClosure, add func(*ssa.Parameter, callbackParam)) {
	closure, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for _, blk := range closure.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			i := slices.Index(closure.FreeVars, capturedVar(call.Call.Value))
			if i < 0 || i >= len(mc.Bindings) {
				continue
			}
			p := capturedParam(mc.Bindings[i])
			if p == nil || p.Parent() != fn {
				continue
			}
			if held := b.heldBefore(call); len(held) > 0 {
				add(p, callbackParam{system: held[0].System, what: heldBy(held[0].What, fn.Name())})
			}
		}
	}
}

// closureStoredParams adds the parameters of fn that the closure mc stores
// in a callback field: once.Do(func() { t.scheduler = scheduler }).
func (b *builder) closureStoredParams(fn *ssa.Function, mc *ssa.MakeClosure, add func(*ssa.Parameter, callbackParam)) {
	closure, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for _, blk := range closure.Blocks {
		for _, instr := range blk.Instrs {
			vals, cp, ok := b.storedCallback(instr)
			if !ok {
				continue
			}
			for _, v := range vals {
				i := slices.Index(closure.FreeVars, capturedVar(unwrap(v)))
				if i < 0 || i >= len(mc.Bindings) {
					continue
				}
				if p := capturedParam(mc.Bindings[i]); p != nil && p.Parent() == fn {
					add(p, cp)
				}
			}
		}
	}
}

// capturedVar returns the free variable v reads: the variable itself, or
// the one it loads (a closure captures a variable by its address).
func capturedVar(v ssa.Value) *ssa.FreeVar {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	fv, _ := v.(*ssa.FreeVar)
	return fv
}

// capturedParam returns the parameter a closure binding holds: the
// parameter, or the cell it was spilled to on entry when nothing else is
// stored there.
func capturedParam(v ssa.Value) *ssa.Parameter {
	if p, ok := v.(*ssa.Parameter); ok {
		return p
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil
	}
	var param *ssa.Parameter
	for _, ref := range *alloc.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		p, ok := st.Val.(*ssa.Parameter)
		if !ok || param != nil {
			return nil // reassigned: not the argument any more
		}
		param = p
	}
	return param
}

// callbackFieldAPI returns the catalog row of the callback field st stores
// into (LeaderCallbacks.OnStartedLeading), or nil.
func (b *builder) callbackFieldAPI(st *ssa.Store) *API {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	api := b.ix.lookupField(fa.X.Type(), fieldVar(fa.X.Type(), fa.Field))
	if api == nil || !api.Role.Has(RoleCallback) {
		return nil
	}
	return api
}

// exportCallbackFacts records the callback parameters of the package's
// declared functions for importers.
func (b *builder) exportCallbackFacts() {
	local := b.localCallbacks()
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil {
			continue
		}
		params := local[fn]
		if len(params) == 0 {
			continue
		}
		fact := &CallbackParamFact{Params: slices.Sorted(maps.Keys(params))}
		first := params[fact.Params[0]] // one lease for all: the first parameter's, whatever the map's order
		fact.System, fact.What = first.system, first.what
		b.setLocal(obj, fact)
	}
}

// heldBy names a lease a helper holds while it calls its callback: "the
// redsync lock Locker.WithLock holds". A lease its own helper already holds
// for it (a wrapper of a wrapper) is named by the outermost helper only, not
// "the MySQL lock ... that withNamedLock holds that WithNamedLock holds".
func heldBy(lease, helper string) string {
	if i := strings.Index(lease, " that "); i >= 0 && strings.HasSuffix(lease, " holds") {
		lease = lease[:i]
	}
	return fmt.Sprintf("%s that %s holds", lease, helper)
}

// handedMethodWrites records the writes of methods of other packages that
// are handed over as values to run under a lease (lockFolder(key,
// svc.Archive), OnStartedLeading: ctrl.Run): their bodies are not in this
// package, so each write their WritesFact stands for is recorded where the
// method value is handed over, unless a standalone run reports it in the
// method's own package (entries.go).
func (b *builder) handedMethodWrites() {
	for _, key := range b.handOffKeys() {
		leases := b.regions.handed[key]
		if len(key.fn.Blocks) > 0 || len(leases) == 0 {
			continue
		}
		obj, _ := key.fn.Object().(*types.Func)
		call := handOffCall(key.at)
		var wf WritesFact
		if obj == nil || call == nil || !b.fact(obj, &wf) {
			continue
		}
		if _, entered := b.prog.entryOf(obj); entered {
			continue // reported in its own package, where it writes (entries.go)
		}
		l := leases[0]
		w := newWrite(call.Parent(), call, wf.System, shortName(obj))
		w.Pos = l.Pos
		w.Via, w.Dispatch, w.Append, w.accumulates = wf.What, wf.Dispatch, wf.Append, wf.Append || wf.Accumulates
		w.spawned = wf.Spawned
		w.reachSites(&wf, nil)
		w.sitesOf = obj
		w.handedUnder = l
		b.model.Writes = append(b.model.Writes, w)
	}
}

// handOffCall returns the call a hand-over is made at: the helper's call
// itself, or for a method value stored in a callback field, the next call
// of its block (leaderelection.RunOrDie(ctx, config)); nil if none.
func handOffCall(at ssa.Instruction) ssa.CallInstruction {
	if call, ok := at.(ssa.CallInstruction); ok {
		return call
	}
	blk := at.Block()
	after := false
	for _, instr := range blk.Instrs {
		if instr == at {
			after = true
			continue
		}
		if call, ok := instr.(ssa.CallInstruction); ok && after {
			return call
		}
	}
	return nil
}

// handOnRuns gives a function value that a call made under a lease hands
// to a function that runs it (in a goroutine it starts, GoParamFact, or
// before it returns, RunParamFact) the leases held at the call, and
// reports whether any entry state grew. A dispatcher whose Run keeps the
// func it is given in a field and calls it from its polling goroutine
// (keptn's sequence dispatcher, through an interface) runs it under the
// caller's lease. A func literal needs none of this: it starts with what
// its creator held where it made it; nor does a method value handed to a
// catalogued Spawner (g.Go(c.vacuum)), whose writes are the spawning
// call's (spawnedWrite).
func (b *builder) handOnRuns() bool {
	grew := false
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		if b.ix.lookupSpawner(calleeFunc(call.Common())) != nil {
			return true
		}
		params := b.runParamsOf(call.Common())
		if len(params) == 0 {
			return true
		}
		held := b.heldBefore(call)
		for _, i := range params {
			target := callbackFunc(arg(call.Common(), i))
			if target == nil || target.Parent() != nil {
				continue
			}
			for _, l := range held {
				if !slices.Contains(b.regions.entry[target], l) {
					grew = true
				}
				b.regions.hand(call, target, l)
			}
		}
		return true
	})
	return grew
}

// runParamsOf returns the func parameters (receiver excluded) that the
// function c calls runs, or through an interface, that one of its
// implementations runs.
func (b *builder) runParamsOf(c *ssa.CallCommon) []int {
	fn := calleeFunc(c)
	if fn == nil {
		return nil
	}
	if !isAbstract(fn) {
		return runParams(b.pass.ImportObjectFact, fn)
	}
	var out []int
	for _, t := range b.dispatchTargets(fn) {
		if t.remote != nil {
			out = append(out, t.remote.runs...)
		} else {
			out = append(out, runParams(b.pass.ImportObjectFact, t.fn)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// runParams returns the func parameters (receiver excluded) fn runs, by
// its GoParamFact and RunParamFact as fact reads them.
func runParams(fact func(types.Object, analysis.Fact) bool, fn *types.Func) []int {
	var out []int
	var g GoParamFact
	if fact(fn.Origin(), &g) {
		out = append(out, g.Params...)
		out = append(out, g.Returning...)
	}
	var r RunParamFact
	if fact(fn.Origin(), &r) {
		out = append(out, r.Params...)
		out = append(out, r.Calls...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

package lease

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Callback parameters carry a lease into a function value handed to a
// helper: a WithLock(ctx, name, fn) that locks and then calls fn, or a
// config builder that stores its argument in OnStartedLeading. The function
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
		if !b.applyCallbackParams() {
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
	grew := false
	b.calls(func(caller *ssa.Function, call ssa.CallInstruction) bool {
		for i, cp := range b.callbackParamsOf(call.Common()) {
			target := funcValue(arg(call.Common(), i))
			if target == nil {
				continue
			}
			l := b.callbackLease(call, cp)
			if !slices.Contains(b.regions.entry[target], l) {
				b.regions.entry[target] = b.regions.entry[target].with(l)
				grew = true
			}
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

// callbackParamsOf returns the callback parameters (receiver excluded) of
// the function call invokes: from this package's analysis, or imported.
func (b *builder) callbackParamsOf(c *ssa.CallCommon) map[int]callbackParam {
	if f := c.StaticCallee(); f != nil && f.Pkg != nil && f.Pkg.Pkg == b.pass.Pkg {
		return b.localCallbackParams(f)
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

// localCallbackParams finds the parameters of fn, a function of this
// package, whose argument fn stores in a library callback field
// (OnStartedLeading) or calls while it holds a lease.
func (b *builder) localCallbackParams(fn *ssa.Function) map[int]callbackParam {
	var params map[int]callbackParam
	add := func(p *ssa.Parameter, cp callbackParam) {
		i := slices.Index(fn.Params, p)
		if fn.Signature.Recv() != nil {
			i--
		}
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
			case *ssa.Store:
				p, ok := unwrap(x.Val).(*ssa.Parameter)
				if !ok {
					continue
				}
				if cp, ok := b.storedCallback(x); ok {
					add(p, cp)
				}
			case *ssa.Call:
				p, ok := x.Call.Value.(*ssa.Parameter)
				if !ok || x.Call.IsInvoke() {
					continue
				}
				if held := b.heldBefore(x); len(held) > 0 {
					add(p, callbackParam{system: held[0].System, what: fmt.Sprintf("%s that %s holds", held[0].What, fn.Name())})
				}
			}
		}
	}
	return params
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
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil {
			continue
		}
		params := b.localCallbackParams(fn)
		if len(params) == 0 {
			continue
		}
		fact := &CallbackParamFact{}
		for i, cp := range params {
			fact.Params = append(fact.Params, i)
			fact.System, fact.What = cp.system, cp.what
		}
		slices.Sort(fact.Params)
		b.setLocal(obj, fact)
	}
}

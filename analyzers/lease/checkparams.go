package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A validity check handed to another function as a func value
// (backups.Run(ctx, node.IsPrimary)) and called there through the
// parameter (if isPrimary() { upload(...) }) is a check like any other: its
// answer is stale by the write it guards. The function that calls the
// parameter cannot know what it is given, and its callers cannot see its
// body, so the two halves meet through a fact: the callee's package
// exports CheckParamFact (calling parameter i and getting "held" guards
// this unfenced write), and each call that passes a validity check there
// becomes a Check at the call, guarding that write.

// CheckParamFact: the function calls the func values passed as these
// parameters, and their answer guards an unfenced write.
type CheckParamFact struct {
	Params []GuardedParam
}

// A GuardedParam is a func parameter whose "held" answer guards a write.
type GuardedParam struct {
	Param  int    // receiver excluded
	Call   string // where it is called: "isPrimary() at backups.go:12"
	Write  string // the write it guards: "DB.ExecContext (INSERT backups) at backups.go:14"
	System System // the write's store
}

func (*CheckParamFact) AFact() {}
func (f *CheckParamFact) String() string {
	s := "check params"
	for _, p := range f.Params {
		s += fmt.Sprintf(" %d (%s guards %s)", p.Param, p.Call, p.Write)
	}
	return s
}

// deriveCheckParams records a CheckParamFact for each declared function of
// the package that calls a func parameter returning a bool or an error and
// writes, unfenced, only when that call answered "held" (true, nil).
func (b *builder) deriveCheckParams() {
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil {
			continue
		}
		var params []GuardedParam
		for i, p := range fn.Params {
			if fn.Signature.Recv() != nil {
				i--
			}
			if i < 0 || !answersAsCheck(p.Type()) {
				continue
			}
			if gp, ok := b.guardedParam(fn, p, i); ok {
				params = append(params, gp)
			}
		}
		if len(params) > 0 {
			b.setLocal(obj, &CheckParamFact{Params: params})
		}
	}
}

// answersAsCheck reports whether t is a func type whose results can say
// "held": a bool, or only an error.
func answersAsCheck(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() > 0 && returnsResultSig(sig)
}

// returnsResultSig reports whether sig returns a bool or an error.
func returnsResultSig(sig *types.Signature) bool {
	for v := range sig.Results().Variables() {
		if types.Identical(v.Type(), types.Typ[types.Bool]) || typeIsError(v.Type()) {
			return true
		}
	}
	return false
}

// guardedParam returns the first unfenced write of fn that a call of p
// guards, described for the fact.
func (b *builder) guardedParam(fn *ssa.Function, p *ssa.Parameter, i int) (GuardedParam, bool) {
	for _, ref := range *p.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok || call.Call.Value != p {
			continue
		}
		flow := newCheckFlow()
		flow.skipErr, flow.skipNil = hasNonError(call.Type()), true
		flow.follow(call, +1)
		c := &Check{Fn: fn, held: flow.branches}
		for _, w := range b.model.Writes {
			if w.Fn == fn && !w.Fenced && !w.LockImpl && w.Unseen == "" && c.guardsBlock(w.Call.Block()) {
				return GuardedParam{
					Param:  i,
					Call:   fmt.Sprintf("%s() at %s", p.Name(), b.shortPos(call.Pos())),
					Write:  b.describeWrite(w),
					System: w.System,
				}, true
			}
		}
	}
	return GuardedParam{}, false
}

// checkParamChecks adds a Check for each call that passes a validity
// check where the callee's CheckParamFact says the answer guards a write.
func (b *builder) checkParamChecks() {
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		obj := calleeFunc(call.Common())
		var f CheckParamFact
		if obj == nil || !b.ownFact(obj, &f) {
			return true
		}
		for _, gp := range f.Params {
			check, ok := b.funcCheck(arg(call.Common(), gp.Param))
			if !ok {
				continue
			}
			pos, end := b.callExtent(call)
			what := fmt.Sprintf("%s, which %s calls as %s,", check.what, shortName(obj), gp.Call)
			w := newWrite(fn, call, gp.System, shortName(obj))
			w.Via = gp.Write
			b.model.Checks = append(b.model.Checks, &Check{
				Call: call, Pos: pos, End: end, Fn: fn, System: check.system, What: what, Guarded: []*Write{w},
			})
		}
		return true
	})
	slices.SortStableFunc(b.model.Checks, func(x, y *Check) int { return int(x.Pos - y.Pos) })
}

// funcCheck reports whether the func value v is a validity check whose
// every answer says whether the lease is held (a catalog row read with
// AnyResult, a wrapper, a //fencelint:check function, or an interface
// method whose implementations are checks), and what it is.
func (b *builder) funcCheck(v ssa.Value) (callee, bool) {
	fn := funcValue(v)
	if fn == nil {
		return callee{}, false
	}
	obj, _ := fn.Object().(*types.Func) // a method value's wrapper stands for the method
	if obj == nil {
		return callee{}, false
	}
	if api := b.ix.lookupFunc(obj); api != nil {
		if !api.Role.Has(RoleCheck) || api.Held != AnyResult {
			return callee{}, false
		}
		return callee{fn: obj, api: api, role: api.Role, system: api.System, what: apiName(obj, api)}, true
	}
	if f := b.roleFact(obj); f != nil && f.Role.Has(RoleCheck) && f.Held == AnyResult {
		return callee{fn: obj, role: f.Role, system: f.System, what: shortName(obj)}, true
	}
	if isAbstract(obj) {
		if f, via := b.dispatchRole(obj); f != nil && f.Role.Has(RoleCheck) && f.Held == AnyResult {
			return callee{fn: obj, role: f.Role, system: f.System, what: shortName(obj) + " (via " + via + ")"}, true
		}
	}
	return callee{}, false
}

package lease

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Controller libraries run the application's handler under a lease they
// take themselves. kooper's
//
//	controller.New(&controller.Config{Handler: h, LeaderElector: le, ...})
//
// calls h.Handle for each event only while le leads (client-go leader
// election), and with no LeaderElector calls it under no lease at all. A
// value stored in such a handler field (RoleHandler) of a config whose
// field API.With is set, to something other than nil, in the same function
// gives the methods of its type that the field's interface names the
// lease on entry: the handler's body is a region of the application's own
// package, where its writes are reported. A func adapted to the interface
// (controller.HandlerFunc(func(ctx, obj) error {...})) is the func itself.
// Only a value whose dynamic type is known where it is stored counts (a
// constructor's concrete result, a literal).

// controller-runtime registers the handler with a call:
//
//	ctrl.NewControllerManagedBy(mgr).For(&v1.MariaDB{}).Complete(r)
//
// and its manager calls r.Reconcile only while it leads (when its
// Options.LeaderElection is on, as in any deployment of more than one
// replica; the manager is made in main, out of the reconciler package's
// sight). A RoleHandler row that is a function gives the methods of its
// Arg's type that the parameter's interface names the lease on entry, in
// the same way.

// handlerCall gives the handler call registers, when it is a handler
// registrar, the lease its library takes.
func (b *builder) handlerCall(call *ssa.Call) {
	fn := calleeFunc(call.Common())
	if fn == nil {
		return
	}
	api := b.ix.lookupFunc(fn)
	if api == nil || !api.Role.Has(RoleHandler) || api.Field {
		return
	}
	v := arg(call.Common(), api.Arg)
	if v == nil {
		return
	}
	iface, ok := v.Type().Underlying().(*types.Interface)
	if !ok {
		return
	}
	prog := call.Parent().Prog
	if api.Unless != "" && declinesLease(prog, v, api.Unless) {
		return
	}
	for _, target := range handlerMethods(prog, v, iface) {
		if target.Pkg == nil || target.Pkg.Pkg != b.pass.Pkg {
			continue // another package's handler: its own analysis does not see this call
		}
		l := b.addLease(&Lease{Kind: InCallback, System: api.System, Pos: call.Pos(), Fn: target,
			What: handlerLeaseWhat(api, "registered by "+shortName(fn))})
		b.regions.hand(call, target, l)
	}
}

// handlerLeaseWhat describes the lease a handler row's library takes, by
// what takes it when the row says (its Note), else by how the handler was
// registered.
func handlerLeaseWhat(api *API, registered string) string {
	if api.Note != "" {
		return "the " + string(api.System) + " lease of " + api.Note + ", " + registered
	}
	return "the " + string(api.System) + " lease taken for the handler " + registered
}

// declinesLease reports whether the handler v, whose dynamic type is
// known, has the method named unless and that method may say false: a
// controller-runtime Runnable whose NeedLeaderElection returns false runs on
// every replica. A body that is not seen declines, so as not to claim a
// lease the handler may not run under.
func declinesLease(prog *ssa.Program, v ssa.Value, unless string) bool {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return false
	}
	sel := prog.MethodSets.MethodSet(mi.X.Type()).Lookup(nil, unless)
	if sel == nil {
		return false
	}
	fn := prog.MethodValue(sel)
	return fn == nil || !alwaysReturnsTrue(fn)
}

// alwaysReturnsTrue reports whether every return of fn returns the
// constant true.
func alwaysReturnsTrue(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return false
		}
		c, isConst := ret.Results[0].(*ssa.Const)
		if !isConst || c.Value == nil || c.Value.Kind() != constant.Bool || !constant.BoolVal(c.Value) {
			return false
		}
	}
	return true
}

// handlerField gives the handler stored by st, when it is one, the lease
// its library takes.
func (b *builder) handlerField(st *ssa.Store) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	fv := fieldVar(fa.X.Type(), fa.Field)
	api := b.ix.lookupField(fa.X.Type(), fv)
	if api == nil || !api.Role.Has(RoleHandler) {
		return
	}
	if (api.With != "" && !setsField(fa.X, api.With)) || (api.Unless != "" && setsField(fa.X, api.Unless)) {
		return
	}
	iface, ok := fv.Type().Underlying().(*types.Interface)
	if !ok {
		return
	}
	for _, target := range handlerMethods(st.Parent().Prog, st.Val, iface) {
		if target.Pkg == nil || target.Pkg.Pkg != b.pass.Pkg {
			continue // another package's handler: its own analysis does not see this store
		}
		pos := st.Pos()
		if !pos.IsValid() {
			pos = st.Val.Pos()
		}
		what := "the " + string(api.System) + " lease that " + fv.Pkg().Name() + "." + typeName(fa.X.Type()) + "." + api.With + " takes"
		if api.With == "" {
			what = handlerLeaseWhat(api, "registered in "+fv.Pkg().Name()+"."+typeName(fa.X.Type())+"."+api.Name)
		}
		l := b.addLease(&Lease{Kind: InCallback, System: api.System, Pos: pos, Fn: target, What: what})
		b.regions.hand(st, target, l)
	}
}

// setsField reports whether the struct at base gets its field name set to
// a value that is not the constant nil.
func setsField(base ssa.Value, name string) bool {
	refs := base.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != base || fieldName(base.Type(), fa.Field) != name {
			continue
		}
		for _, use := range *fa.Referrers() {
			st, ok := use.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if c, isConst := st.Val.(*ssa.Const); !isConst || !c.IsNil() {
				return true
			}
		}
	}
	return false
}

// handlerMethods returns the functions that run when the methods of iface
// are called on v: the methods of v's dynamic type, or the func a func
// type adapts to the interface.
func handlerMethods(prog *ssa.Program, v ssa.Value, iface *types.Interface) []*ssa.Function {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return nil
	}
	if _, isFunc := mi.X.Type().Underlying().(*types.Signature); isFunc {
		if fn := callbackFunc(mi.X); fn != nil {
			return []*ssa.Function{fn}
		}
		return nil
	}
	var out []*ssa.Function
	mset := prog.MethodSets.MethodSet(mi.X.Type())
	for m := range iface.Methods() {
		if sel := mset.Lookup(m.Pkg(), m.Name()); sel != nil {
			if fn := prog.MethodValue(sel); fn != nil {
				out = append(out, fn)
			}
		}
	}
	return out
}

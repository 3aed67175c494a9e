package lease

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Small helpers over SSA values, shared by the model's passes.

// callArgs returns the arguments of call without the receiver.
func callArgs(call *ssa.CallCommon) []ssa.Value {
	if call.IsInvoke() {
		return call.Args
	}
	if sig, ok := call.Value.Type().Underlying().(*types.Signature); ok && sig.Recv() != nil && len(call.Args) > 0 {
		return call.Args[1:]
	}
	if f := call.StaticCallee(); f != nil && f.Signature.Recv() != nil && len(call.Args) > 0 {
		return call.Args[1:]
	}
	return call.Args
}

// callRecv returns the receiver of a method call, or nil.
func callRecv(call *ssa.CallCommon) ssa.Value {
	if call.IsInvoke() {
		return call.Value
	}
	if f := call.StaticCallee(); f != nil && f.Signature.Recv() != nil && len(call.Args) > 0 {
		return call.Args[0]
	}
	return nil
}

// arg returns argument i of call (receiver excluded), or nil.
func arg(call *ssa.CallCommon, i int) ssa.Value {
	args := callArgs(call)
	if i < 0 || i >= len(args) {
		return nil
	}
	return args[i]
}

// apiArg returns the argument a catalog row's rule reads (api.Arg).
func apiArg(call *ssa.CallCommon, api *API) ssa.Value {
	if api.System == Redis {
		return redisArg(call, api.Arg)
	}
	return arg(call, api.Arg)
}

// redisArg returns argument i of a go-redis call, counting the
// context.Context that go-redis v8 and later take first. Older releases
// (v7, v6, gopkg.in/redis.v5) take none, so their arguments sit one place
// to the left.
func redisArg(call *ssa.CallCommon, i int) ssa.Value {
	if !takesContext(call) {
		i--
	}
	if i < 0 {
		return nil
	}
	return arg(call, i)
}

// takesContext reports whether the called function's first parameter
// (receiver excluded) is a context.Context.
func takesContext(call *ssa.CallCommon) bool {
	params := call.Signature().Params()
	if params.Len() == 0 {
		return false
	}
	n, ok := types.Unalias(params.At(0).Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// unwrap strips the conversions that only change a value's static type.
func unwrap(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// alwaysReturned returns what of makes of the one result fn returns, when
// every return of fn gives the same (the map literal a key helper makes,
// the handler a middleware factory makes); the zero value otherwise.
func alwaysReturned[T comparable](fn *ssa.Function, of func(ssa.Value) T) T {
	var none, got T
	if fn == nil || fn.Signature.Results().Len() != 1 {
		return none
	}
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		x := of(ret.Results[0])
		if x == none || got != none && x != got {
			return none
		}
		got = x
	}
	return got
}

// throughConstStep returns what v converts, or steps from by a constant
// (x + 1, 2 * x); nil for any other value, and for a step between two
// variables.
func throughConstStep(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.Convert:
		return x.X
	case *ssa.BinOp:
		switch {
		case isConst(x.Y):
			return x.X
		case isConst(x.X):
			return x.Y
		}
	}
	return nil
}

// constString returns the value of a string constant.
func constString(v ssa.Value) (string, bool) {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// constInt returns the value of an integer constant.
func constInt(v ssa.Value) (int64, bool) {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// isConst reports whether v is a constant (including nil).
func isConst(v ssa.Value) bool {
	_, ok := unwrap(v).(*ssa.Const)
	return ok
}

// variadic returns the elements of a ...T argument built at the call site
// (f(a, b) or f()), or false when the slice comes from elsewhere (f(xs...)).
func variadic(v ssa.Value) ([]ssa.Value, bool) {
	switch s := v.(type) {
	case *ssa.Const:
		return nil, s.IsNil()
	case *ssa.Slice:
		alloc, ok := s.X.(*ssa.Alloc)
		if !ok {
			return nil, false
		}
		return arrayElems(alloc), true
	}
	return nil, false
}

// appendedElems returns the elements of a slice that the function builds
// from a literal (or nil) by appending, in a loop or on branches
// (ops = append(ops, clientv3.OpGet(k)); txn.Then(ops...)), in no
// particular order; false when any part of it comes from elsewhere.
func appendedElems(v ssa.Value) ([]ssa.Value, bool) {
	var elems []ssa.Value
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		return mergedValues(unwrap(v), seen, func(v ssa.Value) bool {
			if lit, ok := variadic(v); ok {
				elems = append(elems, lit...)
				return true
			}
			call, ok := v.(*ssa.Call)
			if !ok || !isBuiltin(call, "append") || len(call.Call.Args) != 2 {
				return false
			}
			return walk(call.Call.Args[0]) && walk(call.Call.Args[1])
		})
	}
	if !walk(v) {
		return nil, false
	}
	return elems, true
}

// mergedValues calls leaf on each value v stands for through phis (the
// merges of a loop or of branches), once each, and reports whether leaf
// accepted them all. seen is shared by walks that go on through leaf.
func mergedValues(v ssa.Value, seen map[ssa.Value]bool, leaf func(ssa.Value) bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if phi, ok := v.(*ssa.Phi); ok {
		for _, e := range phi.Edges {
			if !mergedValues(e, seen, leaf) {
				return false
			}
		}
		return true
	}
	return leaf(v)
}

// arrayElems returns the values stored into the elements of an array
// allocation, in index order (missing ones are nil).
func arrayElems(alloc *ssa.Alloc) []ssa.Value {
	var elems []ssa.Value
	for _, ref := range *alloc.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		i, ok := constInt(ia.Index)
		if !ok || i < 0 || i > 1<<16 {
			continue
		}
		for _, r := range *ia.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				for int64(len(elems)) <= i {
					elems = append(elems, nil)
				}
				elems[i] = unwrap(st.Val)
			}
		}
	}
	return elems
}

// storedFields returns the names of the fields of the struct that ptr
// points to which are assigned anywhere (p := &T{F: x} or p.F = x), with
// the value last seen stored.
func storedFields(ptr ssa.Value) map[string]ssa.Value {
	fields := make(map[string]ssa.Value)
	refs := ptr.Referrers()
	if refs == nil {
		return fields
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != ptr {
			continue
		}
		name := fieldName(fa.X.Type(), fa.Field)
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				fields[name] = unwrap(st.Val)
			}
		}
	}
	return fields
}

// fieldName returns the name of field i of the struct that t points to.
func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return ""
}

// fieldVar returns field i of the struct that t (or *t) is.
func fieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i)
	}
	return nil
}

// producer returns the call that produced v (directly, or as one of its
// results), or nil.
func producer(v ssa.Value) *ssa.Call {
	switch x := unwrap(v).(type) {
	case *ssa.Call:
		return x
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok {
			return c
		}
	}
	return nil
}

package lease

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An etcd transaction often names its key twice, once in a compare and
// once in an op, each time through the application's key builder:
//
//	Txn(ctx).If(clientv3util.KeyMissing(lockPath(id))).
//		Then(clientv3.OpPut(lockPath(id), "lock", clientv3.WithLease(lease)))
//
// The two calls make two values; they are one key when the builder only
// spells a key out of its arguments: it returns a string, and does nothing
// but string operations, conversions and calls of such builders or of
// fmt's, strings', strconv's, path's and path/filepath's functions (no
// clock, no random source, no store). sameBuiltKey takes them for one key.

// maxBuilderDepth bounds how many builders deep a builder is followed.
const maxBuilderDepth = 3

// sameBuiltKey reports whether a and b are the same key: the same value
// (sameValue), or two calls of one key builder on the same arguments.
// The arguments may themselves be built keys (LockPath(rangePath(id))).
func sameBuiltKey(a, b ssa.Value) bool {
	return sameBuiltKeyWithin(a, b, 0)
}

func sameBuiltKeyWithin(a, b ssa.Value, depth int) bool {
	if sameValue(a, b, 0) {
		return true
	}
	if depth > maxBuilderDepth {
		return false
	}
	x, okx := unwrap(a).(*ssa.Call)
	y, oky := unwrap(b).(*ssa.Call)
	return okx && oky && keyBuilder(x.Common().StaticCallee(), 0) &&
		sameCall(x.Common(), y.Common(), func(p, q ssa.Value) bool { return sameBuiltKeyWithin(p, q, depth+1) })
}

// keyBuilder reports whether fn only spells a string out of its arguments.
func keyBuilder(fn *ssa.Function, depth int) bool {
	if fn == nil || fn.Blocks == nil || depth > maxBuilderDepth {
		return false
	}
	res := fn.Signature.Results()
	if res.Len() != 1 || !isString(res.At(0).Type()) {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if !builderStep(instr, depth) {
				return false
			}
		}
	}
	return true
}

// builderStep reports whether instr is a step a key builder may take.
func builderStep(instr ssa.Instruction, depth int) bool {
	switch x := instr.(type) {
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil {
			return false
		}
		if callee.Pkg != nil && stringLibrary(callee.Pkg.Pkg.Path()) {
			return true
		}
		return keyBuilder(callee, depth+1)
	case *ssa.Store:
		slot, ok := x.Addr.(*ssa.IndexAddr) // a variadic argument's slot
		if !ok {
			return false
		}
		_, local := slot.X.(*ssa.Alloc)
		return local
	case *ssa.UnOp:
		return x.Op != token.ARROW // a receive: another value each time
	case *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.MapUpdate, *ssa.Panic, *ssa.Select:
		return false
	}
	return true
}

// stringLibrary reports whether path is a standard package whose functions
// a key builder may call: they compute a string from their arguments.
func stringLibrary(path string) bool {
	switch path {
	case "fmt", "strings", "strconv", "path", "path/filepath":
		return true
	}
	return false
}

// namespacedBuilder reports whether fn is a key builder whose every key
// starts with a constant or a package variable it names itself
// (path.Join(taskLocks, id), taskLocks + id): the keys it spells are one
// family, apart from other builders'. A builder that starts its key with
// a parameter (key(parts ...string)) spells any key at all.
func namespacedBuilder(fn *ssa.Function) bool {
	if !keyBuilder(fn, 0) {
		return false
	}
	returns := 0
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if !leadsWithName(ret.Results[0]) {
			return false
		}
		returns++
	}
	return returns > 0
}

// leadsWithName reports whether the string v, a builder's result, starts
// with a name: a constant (other than "/") or a package variable; not a
// field, which each receiver may set apart.
func leadsWithName(v ssa.Value) bool {
	switch lead := keyLead(v, false).(type) {
	case string:
		return lead != "/"
	case *types.Var:
		return !lead.IsField()
	}
	return false
}

// joinedFirst returns the first element of a path.Join or filepath.Join
// call, or nil.
func joinedFirst(call *ssa.CallCommon) ssa.Value {
	f := calleeFunc(call)
	if f == nil || f.Name() != "Join" || f.Pkg() == nil || f.Pkg().Path() != "path" && f.Pkg().Path() != "path/filepath" {
		return nil
	}
	if elems, ok := appendedElems(arg(call, 0)); ok && len(elems) > 0 {
		return elems[0]
	}
	return nil
}

package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// consulTxnConditional reports whether a Consul Txn applies its ops only
// when a check passes, so that a stale holder's Txn fails instead of
// overwriting: the ops hold a check-session or check-index op (the lock's
// own fence), a cas or delete-cas op (check-and-set on an index read
// before), or a check-not-exists op (create-if-absent) in a Txn that
// deletes nothing: a delete earlier in the same Txn empties the key, and
// the check then always passes (a host pool's "re-create every changed
// host" Txn).
//
// The verbs are read in fn, the function that runs the Txn, and in the
// functions that build the ops it passes (a getAddOperations helper
// returning api.KVTxnOps, appended to other ops).
func consulTxnConditional(fn *ssa.Function, ops ssa.Value) bool {
	verbs := consulVerbs(fn, nil)
	for _, builder := range consulOpsBuilders(ops) {
		verbs = consulVerbs(builder, verbs)
	}
	switch {
	case verbs["check-session"], verbs["check-index"], verbs["cas"], verbs["delete-cas"]:
		return true
	case verbs["check-not-exists"]:
		return !verbs["delete"] && !verbs["delete-tree"]
	}
	return false
}

// consulVerbs adds to verbs the Consul KV op verbs fn names: constants of
// the api's KVOp type, and the check-session and check-index strings in
// any string type (an op verb spelled as a literal).
func consulVerbs(fn *ssa.Function, verbs map[string]bool) map[string]bool {
	if verbs == nil {
		verbs = make(map[string]bool)
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			for _, op := range instr.Operands(nil) {
				s, ok := constString(*op)
				if !ok {
					continue
				}
				if isKVOp((*op).Type()) || s == "check-session" || s == "check-index" {
					verbs[s] = true
				}
			}
		}
	}
	return verbs
}

// isKVOp reports whether t is Consul's KVOp, the type of a txn op's verb.
func isKVOp(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "KVOp" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkgConsul
}

// consulOpsBuilders returns the functions with a body whose results the
// ops value is made of: through appends, reslicing and the phis of a loop
// or a branch, to the calls that returned them, and on through what those
// functions return (a builder that appends another builder's ops).
func consulOpsBuilders(ops ssa.Value) []*ssa.Function {
	var builders []*ssa.Function
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		v = unwrap(v)
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
			return
		case *ssa.Slice:
			walk(x.X)
			return
		}
		call := producer(v)
		if call == nil {
			return
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); ok {
			if b.Name() == "append" {
				for _, a := range call.Call.Args {
					walk(a)
				}
			}
			return
		}
		f := call.Call.StaticCallee()
		if f == nil || len(f.Blocks) == 0 {
			return
		}
		builders = append(builders, f)
		index := 0
		if e, ok := v.(*ssa.Extract); ok {
			index = e.Index
		}
		for _, blk := range f.Blocks {
			if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok && index < len(ret.Results) {
				walk(ret.Results[index])
			}
		}
	}
	walk(ops)
	return builders
}

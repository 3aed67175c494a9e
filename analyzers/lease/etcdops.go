package lease

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An etcd KV.Do runs the Op it is handed, and the Op decides what it does:
// Do(ctx, clientv3.OpGet(key)) reads, as Get does, and writes nothing a
// fence could protect. etcdDoRole traces the Op to the catalogued
// constructor that made it (etcdOpRole), also through a helper of the
// package that returns one, such as the prefixing helper of etcd's own
// namespace KV:
//
//	func (kv *kvPrefix) prefixOp(op clientv3.Op) clientv3.Op {
//		if !op.IsTxn() {
//			op.WithKeyBytes(...) // an Op's methods change its keys, never its kind
//			return op
//		}
//		cmps, thenOps, elseOps := op.Txn()
//		return clientv3.OpTxn(...)
//	}
//
// An Op traced to nothing catalogued stays a write.

// maxOpDepth bounds how many helpers deep an Op is traced.
const maxOpDepth = 4

// opEnv binds the parameters of a helper being traced to the arguments of
// the call that reached it; outer is the caller's own binding.
type opEnv struct {
	args  map[*ssa.Parameter]ssa.Value
	outer *opEnv
}

// etcdDoRole returns the role of a KV.Do that runs op: none when op is a
// read, a write otherwise.
func etcdDoRole(op ssa.Value) Role {
	if etcdOpReads(op, nil, 0) {
		return 0
	}
	return RoleWrite
}

// etcdOpReads reports whether every Op that op can be is a read: made by a
// catalogued read constructor, directly, through a variable, or returned
// by a helper of the package.
func etcdOpReads(op ssa.Value, env *opEnv, depth int) bool {
	if depth > maxOpDepth || op == nil {
		return false
	}
	switch v := unwrap(op).(type) {
	case *ssa.Parameter:
		if env == nil || env.args[v] == nil {
			return false
		}
		return etcdOpReads(env.args[v], env.outer, depth+1)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !etcdOpReads(e, env, depth+1) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		stored := storedOps(v.X)
		for _, st := range stored {
			if !etcdOpReads(st, env, depth+1) {
				return false
			}
		}
		return len(stored) > 0
	case *ssa.Call:
		return callReturnsReadOp(v.Common(), env, depth)
	}
	return false
}

// storedOps returns the Ops stored in addr, a local variable (an Op whose
// pointer methods were called: op.WithKeyBytes(k)); nil if addr is not
// such a local, or is used any other way (captured by a closure, handed to
// a function that could store another Op through it). An Op's fields are
// unexported and none of its methods changes its kind, so calls through
// the pointer leave the kind as stored.
func storedOps(addr ssa.Value) []ssa.Value {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var stored []ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc {
				return nil
			}
			stored = append(stored, r.Val)
		case *ssa.UnOp:
		case *ssa.Call:
			if !isEtcdOpMethod(r.Common(), alloc) {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return stored
}

// isEtcdOpMethod reports whether call is a method of the etcd Op called
// on recv.
func isEtcdOpMethod(call *ssa.CallCommon, recv ssa.Value) bool {
	f := calleeFunc(call)
	return f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgEtcd &&
		receiverName(f) == "Op" && callRecv(call) == recv && !slices.Contains(call.Args[1:], recv)
}

// callReturnsReadOp reports whether call returns a read Op: it is a
// catalogued read constructor (etcdOpRole), or a helper of the package
// whose every return that can be reached gives one.
func callReturnsReadOp(call *ssa.CallCommon, env *opEnv, depth int) bool {
	if f := calleeFunc(call); f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgEtcd && f.Signature().Recv() == nil {
		role, known := etcdOpRole(f.Name())
		return known && role == 0
	}
	fn := call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || call.IsInvoke() {
		return false
	}
	inner := &opEnv{args: make(map[*ssa.Parameter]ssa.Value), outer: env}
	args := call.Args
	for i, p := range fn.Params {
		if i < len(args) {
			inner.args[p] = args[i]
		}
	}
	returns := 0
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if onlyForTxn(blk, inner, depth) {
			continue // the Op handed in reads, so it is no Txn
		}
		if !etcdOpReads(ret.Results[0], inner, depth+1) {
			return false
		}
		returns++
	}
	return returns > 0
}

// onlyForTxn reports whether blk is reached only where an Op parameter's
// IsTxn() is true (a helper's Txn branch) and the Op bound to that
// parameter reads: then blk is never reached.
func onlyForTxn(blk *ssa.BasicBlock, env *opEnv, depth int) bool {
	for _, b := range blk.Parent().Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		txnBranch := b.Succs[0]
		if len(txnBranch.Preds) != 1 || !txnBranch.Dominates(blk) {
			continue
		}
		if p := isTxnOf(iff.Cond); p != nil && env.args[p] != nil && etcdOpReads(env.args[p], env.outer, depth+1) {
			return true
		}
	}
	return false
}

// isTxnOf returns the parameter p when cond is p.IsTxn() on an etcd Op
// (directly, or on the local variable p was stored in).
func isTxnOf(cond ssa.Value) *ssa.Parameter {
	call, ok := cond.(*ssa.Call)
	if !ok {
		return nil
	}
	f := calleeFunc(call.Common())
	if f == nil || f.Name() != "IsTxn" || f.Pkg() == nil || CanonicalPath(f.Pkg().Path()) != pkgEtcd {
		return nil
	}
	recv := callRecv(call.Common())
	if load, ok := recv.(*ssa.UnOp); ok && load.Op == token.MUL {
		recv = load.X
	}
	if stored := storedOps(recv); len(stored) == 1 {
		recv = stored[0]
	}
	p, _ := recv.(*ssa.Parameter)
	return p
}

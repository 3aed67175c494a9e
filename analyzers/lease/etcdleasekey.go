package lease

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// An etcd election's or mutex's key is named after its session's lease and
// is deleted with it: while it exists, its holder still holds. A Txn that
// requires it to exist commits only for the current holder:
//
//	leaderKey := election.Key()
//	...
//	cli.Txn(ctx).If(clientv3util.KeyExists(leaderKey)).Then(clientv3.OpPut(k, v)).Commit()
//
// as IsOwner() would, only spelled as existence. A condition that a key
// exists fences nothing in general (a flag's key, or the key the Txn itself
// writes, exists for the next holder too), so it counts only when the key
// is the holder's own: Election.Key or Mutex.Key, or a parameter the caller
// fills with one (FencedByParamFact.LeaseKey, judged at each call).

// etcdTxnExists returns the key whose existence the If of the Txn that txn
// is a step of requires, when it is a key the Txn does not write:
// clientv3util.KeyExists(k), or a compare of k's version or revisions
// with "> 0" or "!= 0"; nil otherwise.
func etcdTxnExists(txn ssa.Value) ssa.Value {
	steps := etcdTxnSteps(txn)
	written := etcdOpKeys(append(steps.thens, steps.elses...))
	for _, cmp := range steps.ifs {
		p := producer(cmp)
		if p == nil {
			continue
		}
		f := calleeFunc(p.Common())
		var key ssa.Value
		switch {
		case f == nil:
		case f.Name() == "KeyExists":
			key = arg(p.Common(), 0)
		case f.Name() == "Compare" && existenceCheck(p.Common()):
			if target := producer(arg(p.Common(), 0)); target != nil {
				key = arg(target.Common(), 0)
			}
		}
		if key != nil && !writesKey(written, key) {
			return key
		}
	}
	return nil
}

// leaseKeyFence says whether a write whose Txn requires key to exist is
// fenced in fn: key is the holder's own election or mutex key, or a
// parameter of fn, which the callers must fill with one (the parameter is
// returned).
func (b *builder) leaseKeyFence(fn *ssa.Function, key ssa.Value) (bool, ssa.Value) {
	key = unboxed(key)
	switch {
	case key == nil:
		return false, nil
	case b.isLeaseKey(key):
		return true, nil
	}
	if p, ok := unwrap(key).(*ssa.Parameter); ok && p.Parent() == fn && paramIndex(fn, p) >= 0 {
		return true, p
	}
	// A closure of fn's (a goroutine the leader's loop starts) that
	// captured the parameter: its callers fill it all the same.
	if p, ok := unwrap(capturedValue(key)).(*ssa.Parameter); ok && fn.Parent() != nil && p.Parent() == outermost(fn) && paramIndex(p.Parent(), p) >= 0 {
		return true, p
	}
	return false, nil
}

// isLeaseKey reports whether v is the key of an etcd election or mutex:
// Election.Key(), Mutex.Key().
func (b *builder) isLeaseKey(v ssa.Value) bool {
	call, ok := unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	api := b.ix.lookupFunc(calleeFunc(call.Common()))
	return api != nil && api.System == Etcd && api.Name == "Key" && (api.Recv == "Election" || api.Recv == "Mutex")
}

// unboxed returns the value a load of a local reads when the local is
// stored once (a parameter a closure captures lives in one), else v.
func unboxed(v ssa.Value) ssa.Value {
	if load, ok := unwrap(v).(*ssa.UnOp); ok && load.Op == token.MUL {
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if stored := storedOnce(alloc); stored != nil {
				return stored
			}
		}
	}
	return v
}

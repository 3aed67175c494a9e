package lease

import (
	"golang.org/x/tools/go/ssa"
)

// A key put with the holder's own session lease dies with the lease, and
// etcd refuses the put once the lease is gone:
//
//	session, _ := concurrency.NewSession(cli, concurrency.WithTTL(10))
//	e := concurrency.NewElection(session, "/app/leader")
//	...
//	cli.Put(ctx, "/app/status", body, clientv3.WithLease(session.Lease()))
//
// The election's and mutex's keys are bound to that lease, so the holder
// holds exactly as long as it lives: a holder paused past it gets
// "requested lease not found" where it would have overwritten the next
// holder's status. The put is fenced when its lease is an etcd session's
// Lease(), or a parameter of its function that the callers fill with one
// (FencedByParamFact.SessionLease, judged at each call: cke's
// SetStatus(ctx, c.session.Lease(), st)). A lease granted for the key
// alone (Grant, then Put) fences nothing: it is not the lock's. fencelint
// does not check that the session is the one the held lock was made on;
// an application that runs its locks on one session and its status keys
// on another, with a longer TTL, would be taken as fenced.

// sessionLeaseFenced says "why" for a put bound to the session's lease.
const sessionLeaseFenced = "it is bound to the session's lease: etcd refuses it once the lease has expired"

// putLease returns the lease a KV.Put's options bind its key to (the
// argument of a clientv3.WithLease among them), or nil.
func (b *builder) putLease(put *ssa.CallCommon) ssa.Value {
	opts, _ := variadic(arg(put, 3))
	for _, o := range opts {
		if p := producer(o); p != nil {
			if f := calleeFunc(p.Common()); f != nil && b.isEtcdWithLease(f) {
				return arg(p.Common(), 0)
			}
		}
	}
	return nil
}

// sessionLeaseFence says whether a put bound to lease is fenced in fn:
// lease is an etcd session's Lease(), or a parameter of fn, which the
// callers must fill with one (the parameter is returned).
func (b *builder) sessionLeaseFence(fn *ssa.Function, lease ssa.Value) (bool, ssa.Value) {
	lease = unwrap(unboxed(lease))
	if lease == nil {
		return false, nil
	}
	if b.isSessionLease(lease) {
		return true, nil
	}
	if p, ok := lease.(*ssa.Parameter); ok && p.Parent() == fn && paramIndex(fn, p) >= 0 {
		return true, p
	}
	return false, nil
}

// isSessionLease reports whether v is concurrency.Session's Lease().
func (b *builder) isSessionLease(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	api := b.ix.lookupFunc(calleeFunc(call.Common()))
	return api != nil && api.System == Etcd && api.Recv == "Session" && api.Name == "Lease"
}

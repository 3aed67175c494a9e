package lease

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A store that takes a PostgreSQL or MySQL advisory lock often hands back a
// copy of itself bound to the connection or transaction that holds it, and
// the work is done through that copy, handed down into callbacks:
//
//	func withLock(ctx context.Context, ctrl Controller, fn func(Controller) error) error {
//		locked, release, err := ctrl.LockLedger(ctx) // pg_advisory_lock on a conn; locked uses that conn
//		...
//		return fn(locked)
//	}
//	withLock(ctx, ctrl, func(ctrl Controller) error { return ctrl.CreateTransaction(ctx, tx) })
//
// A write through such a locked copy goes through the lock's own session,
// so it is fenced as a write on the lock's connection is (markHeld): if the
// session ends, the lock and the write go together. A locked copy is the
// first result of an acquire whose type is its receiver's (LockLedger on a
// Controller returns a Controller), or a parameter of a function that is
// handed over to run under the lease, when every call the helper makes of
// it passes a locked copy there; helpers are followed within the package
// (formance's ledger controller: withLock, then handleState, then each
// operation's closure).

// maxCopyDepth bounds how many hand-overs a locked copy is followed through.
const maxCopyDepth = 4

// lockedCopy reports whether v is a locked copy of a store whose PostgreSQL
// or MySQL lock is held.
func (b *builder) lockedCopy(v ssa.Value, depth int) bool {
	if v == nil || depth > maxCopyDepth {
		return false
	}
	switch x := unwrap(v).(type) {
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		return ok && x.Index == 0 && b.copyingAcquire(call)
	case *ssa.Parameter:
		return b.lockedParam(x, depth)
	case *ssa.FreeVar:
		return b.lockedFreeVar(x, depth)
	}
	return false
}

// copyingAcquire reports whether call takes a PostgreSQL or MySQL lock and
// returns, first, a value of its receiver's type: the store bound to the
// lock's session.
func (b *builder) copyingAcquire(call *ssa.Call) bool {
	if !slices.ContainsFunc(b.model.Leases, func(l *Lease) bool {
		return l.Call == call && l.Kind != InCallback && sessionLockSystem(l.System)
	}) {
		return false
	}
	recv := callRecv(&call.Call)
	results := call.Call.Signature().Results()
	return recv != nil && results.Len() > 1 && types.Identical(results.At(0).Type(), recv.Type())
}

// sessionLockSystem reports whether a lock of system is held by a database
// session, which a write through that session shares.
func sessionLockSystem(s System) bool { return s == Postgres || s == MySQL }

// lockedParam reports whether every hand-over of p's function passes a
// locked copy as p.
func (b *builder) lockedParam(p *ssa.Parameter, depth int) bool {
	fn := p.Parent()
	at := slices.Index(fn.Params, p)
	if fn.Signature.Recv() != nil {
		at-- // a method value: its receiver is bound, not passed
	}
	if at < 0 {
		return false
	}
	found := false
	for h := range b.regions.handed {
		if h.fn != fn {
			continue
		}
		args, ok := b.handedArgs(h, at)
		if !ok || len(args) == 0 {
			return false
		}
		for _, a := range args {
			if !b.lockedCopy(a, depth+1) {
				return false
			}
		}
		found = true
	}
	return found
}

// handedArgs returns what the helper that h hands fn over to passes as
// fn's argument at: the argument at of each call the helper (or a closure
// it makes) makes of its callback parameter. It fails where the helper is
// not this package's or keeps the callback somewhere else.
func (b *builder) handedArgs(h handOff, at int) ([]ssa.Value, bool) {
	call, ok := h.at.(ssa.CallInstruction)
	if !ok {
		return nil, false
	}
	helper := call.Common().StaticCallee()
	if helper == nil || helper.Pkg == nil || helper.Pkg.Pkg != b.pass.Pkg {
		return nil, false
	}
	k := slices.IndexFunc(call.Common().Args, func(a ssa.Value) bool { return callbackFunc(a) == h.fn })
	if k < 0 || k >= len(helper.Params) {
		return nil, false
	}
	var args []ssa.Value
	for _, c := range callsOfParam(helper, helper.Params[k]) {
		if at >= len(c.Args) {
			return nil, false
		}
		args = append(args, c.Args[at])
	}
	return args, true
}

// callsOfParam returns the calls that fn, and the closures it makes, make
// of its parameter p.
func callsOfParam(fn *ssa.Function, p *ssa.Parameter) []*ssa.CallCommon {
	var calls []*ssa.CallCommon
	var visit func(f *ssa.Function, callee func(ssa.Value) bool)
	visit = func(f *ssa.Function, callee func(ssa.Value) bool) {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case ssa.CallInstruction:
					if c := x.Common(); !c.IsInvoke() && callee(c.Value) {
						calls = append(calls, c)
					}
				case *ssa.MakeClosure:
					closure, ok := x.Fn.(*ssa.Function)
					if !ok {
						continue
					}
					bound := make(map[*ssa.FreeVar]bool)
					for i, fv := range closure.FreeVars {
						if i >= len(x.Bindings) {
							break
						}
						if v := x.Bindings[i]; callee(v) || capturedParam(v) == p {
							bound[fv] = true // the closure captures the parameter, or what a closure around it did
						}
					}
					if len(bound) > 0 {
						visit(closure, func(v ssa.Value) bool { return bound[capturedVar(v)] })
					}
				}
			}
		}
	}
	visit(fn, func(v ssa.Value) bool { return v == p })
	return calls
}

// lockedFreeVar reports whether the closure's free variable fv is bound,
// where the closure is made, to a locked copy.
func (b *builder) lockedFreeVar(fv *ssa.FreeVar, depth int) bool {
	closure := fv.Parent()
	i := slices.Index(closure.FreeVars, fv)
	mc := makerOf(closure.Parent(), closure)
	if i < 0 || mc == nil || i >= len(mc.Bindings) {
		return false
	}
	if p := capturedParam(mc.Bindings[i]); p != nil {
		return b.lockedCopy(p, depth+1)
	}
	return b.lockedCopy(mc.Bindings[i], depth+1)
}

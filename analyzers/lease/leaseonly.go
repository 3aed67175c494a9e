package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A leader's work is rarely written inline where the lease is taken: the
// region calls a loop, the loop a step, the step the writes.
//
//	if err := e.Campaign(ctx, id); err != nil { return err }
//	return c.runLoop(ctx)              // runLoop -> runOnce -> runOp -> commander.Run
//
// Reported at the region's call, the one finding would name one write of
// the many that call reaches, at a line far from any of them. An
// unexported function of the package that is called only where a lease is
// held runs, all of it, under that lease: it starts with the lease, as a
// callback does, and its writes are reported where they are made, which is
// where they are fixed. Being its own, they are no longer its callers'
// (Write.heldOwn), so the region's call reports nothing itself.
//
// A write whose fence or key its callers supply (a token, a lease key or a
// session passed in, a key built from a parameter: judgedByCallers) stays
// theirs to judge, with what they pass, and is not made under the lease
// the function was entered with.
//
// Only plain calls count, each held under the same lease (a validity
// check's region is heldcheck's, reported at the check): a function also
// called where no lease is held, deferred, used as a value, or whose name an
// interface of the package may call it by, keeps its writes for its
// callers. Calls from _test.go files are fixtures and do not count.

// maxLeaseOnlyRounds bounds the chain of callees entered one level per
// round (runLoop, then runOnce, then runOp).
const maxLeaseOnlyRounds = 8

// enterLeaseOnlyCallees gives each function called only under a lease
// that lease on entry, and reruns the region analysis until no more are
// entered.
func (b *builder) enterLeaseOnlyCallees() {
	if len(b.model.Leases) == 0 {
		return
	}
	candidates := b.leaseOnlyCandidates()
	sites := b.staticCallSites(candidates)
	for range maxLeaseOnlyRounds {
		grew := false
		for _, fn := range candidates {
			held := b.heldAtEveryCall(sites[fn])
			if len(held) == 0 || held.equal(b.regions.entry[fn]) {
				continue
			}
			b.regions.entry[fn] = b.regions.entry[fn].union(held)
			b.regions.leaseOnly[fn] = b.regions.leaseOnly[fn].union(held)
			grew = true
		}
		if !grew {
			return
		}
		clear(b.regions.paths) // path states depend on the entries just grown
		for _, fn := range b.funcs {
			b.flow(fn)
		}
	}
}

// leaseOnlyCandidates returns the package's unexported declared functions
// that may run only where they are called: not used as values, not
// deferred, no lock operation themselves and entered by nothing else.
func (b *builder) leaseOnlyCandidates() []*ssa.Function {
	valued := b.funcsUsedAsValues()
	methodNames := b.interfaceMethodNames()
	var out []*ssa.Function
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		switch {
		case obj == nil || obj.Exported() || len(fn.Blocks) == 0 || fn.TypeParams().Len() > 0:
		case inTestFile(b.pass.Fset, fn.Pos()) || valued[fn] || len(b.regions.entry[fn]) > 0:
		case fn.Signature.Recv() != nil && methodNames[obj.Name()]:
		case b.lockRoleOf(fn) != 0:
		default:
			out = append(out, fn)
		}
	}
	return out
}

// staticCallSites returns, for each of fns, the calls of it the package
// makes outside it and outside tests.
func (b *builder) staticCallSites(fns []*ssa.Function) map[*ssa.Function][]ssa.CallInstruction {
	sites := make(map[*ssa.Function][]ssa.CallInstruction, len(fns))
	for _, fn := range fns {
		sites[fn] = nil
	}
	b.calls(func(caller *ssa.Function, call ssa.CallInstruction) bool {
		fn := call.Common().StaticCallee()
		if _, ok := sites[fn]; ok && outermost(caller) != fn && !inTestFile(b.pass.Fset, call.Pos()) {
			sites[fn] = append(sites[fn], call)
		}
		return true
	})
	return sites
}

// heldAtEveryCall returns the leases (no validity check's) held at every
// one of calls; nil if one holds none or is deferred, or there is none.
func (b *builder) heldAtEveryCall(calls []ssa.CallInstruction) leaseSet {
	var common leaseSet
	for i, call := range calls {
		if _, deferred := call.(*ssa.Defer); deferred {
			return nil
		}
		held := b.heldBefore(call).without(func(l *Lease) bool { return l.Kind == Checked })
		if i > 0 {
			held = held.without(func(l *Lease) bool { return !slices.Contains(common, l) })
		}
		if common = held; len(common) == 0 {
			return nil
		}
	}
	return common
}

// funcsUsedAsValues returns the package's functions that some instruction
// uses other than as the function a call invokes: stored, passed, bound as
// a method value (whose wrapper the value's caller runs anywhere).
func (b *builder) funcsUsedAsValues() map[*ssa.Function]bool {
	valued := make(map[*ssa.Function]bool)
	var ops []*ssa.Value
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
					callee = call.Common().Value
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if op == nil || *op == callee {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						valued[f] = true
						if wrapped := boundMethod(f); wrapped != nil {
							valued[wrapped] = true // a method expression's thunk
						}
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if bound := boundMethod(mc.Fn.(*ssa.Function)); bound != nil {
						valued[bound] = true
					}
				}
			}
		}
	}
	return valued
}

// boundMethod returns the method a method value's or method expression's
// wrapper (a $bound closure, a $thunk) calls, if fn is one.
func boundMethod(fn *ssa.Function) *ssa.Function {
	if fn.Synthetic == "" {
		return nil
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				return call.Common().StaticCallee()
			}
		}
	}
	return nil
}

// interfaceMethodNames returns the names of the methods of the interfaces
// the package declares or uses: a method of the same name may be called
// through one of them, out of sight of static calls.
func (b *builder) interfaceMethodNames() map[string]bool {
	names := make(map[string]bool)
	for _, tv := range b.pass.TypesInfo.Types {
		iface, ok := tv.Type.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.Methods() {
			names[m.Name()] = true
		}
	}
	return names
}

// enteredOnly returns the leases of held that w's function holds only
// because it was entered with them (enterLeaseOnlyCallees), when w is a
// write its callers judge: those are not held at w.
func (b *builder) enteredOnly(w *Write, held leaseSet) leaseSet {
	fn := outermost(w.Fn)
	entered := b.regions.leaseOnly[fn]
	if len(entered) == 0 || !b.judgedByCallers(fn, w) {
		return nil
	}
	return held.without(func(l *Lease) bool { return !slices.Contains(entered, l) })
}

// judgedByCallers reports whether what w, a write of fn, means depends on
// what fn's callers pass: a token, the key whose existence it requires or
// the object it sends, fn's parameters; the session it writes through; a
// key built from a parameter; a bound or converging values from one; a
// part of its SQL left for them to fill.
func (b *builder) judgedByCallers(fn *ssa.Function, w *Write) bool {
	if w.Fenced {
		return tokenParam(fn, w.Token) >= 0 || w.keyExists != nil && tokenParam(fn, w.keyExists) >= 0 ||
			w.sessionLease != nil && tokenParam(fn, w.sessionLease) >= 0 || w.kubeObject != nil
	}
	if s := b.sessionOf(w); s != nil && maySession(s.Type()) {
		if p, field := sessionSource(fn, s); p != 0 || field != "" {
			return true // the caller's connection may be the lock's
		}
	}
	return w.Unseen != "" || len(w.Converge) > 0 || w.freshParams != 0 || w.keyParams != 0 || w.bound != nil
}

// maySession reports whether a value of type t may be one database
// session, which a caller's lock may have been taken on: a connection or a
// transaction, a context carrying one, or an interface that sends SQL
// (sqlc's DBTX) that one may stand behind.
func maySession(t types.Type) bool {
	if isSessionType(t) || isContext(t) {
		return true
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for m := range iface.Methods() {
		switch m.Name() {
		case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext":
			return true
		}
	}
	return false
}

// EnteredNote names, for l, a lease w's function holds only because every
// call of it is made under l, the function that takes l: ", in
// Controller.run, under which every call of Controller.runOp is made".
// For a lease under which every send on the channel w's function received
// its work from is made, it names the channel: ", in dispatcher.Run, under
// which every send on jobs is made". It is empty for a lease taken where w is made.
func (w *Write) EnteredNote(l *Lease) string {
	if l.Sent != "" {
		if taker := declaredFunc(outermost(l.Fn)); l.Fn != nil && taker != nil {
			return fmt.Sprintf(", in %s, under which every send on %s is made", shortName(taker), l.Sent)
		}
		return fmt.Sprintf(", under which every send on %s is made", l.Sent)
	}
	if !slices.Contains(w.Entered, l) || l.Fn == nil {
		return ""
	}
	taker, callee := declaredFunc(outermost(l.Fn)), declaredFunc(outermost(w.Fn))
	if taker == nil || callee == nil {
		return ""
	}
	return fmt.Sprintf(", in %s, under which every call of %s is made", shortName(taker), shortName(callee))
}

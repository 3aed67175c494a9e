package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// This file finds how a package keeps its leases alive and how the work
// hears that one is gone: manual renewals and what runs when they fail, the
// lost-signals libraries hand out and whether anything waits on them, and
// the goroutines that renew.
//
// "Reaching the work" is judged on the code that runs when a renewal fails
// (or when a lost-signal fires): it reaches the work if it cancels a
// context, closes or sends on a channel, sets a shared flag (a field, a
// captured variable, an atomic), calls a callback the function was given,
// stops something (Shutdown, Stop, Kill), exits or panics, either directly,
// in a function of the package it calls, or in a deferred call that runs
// when it returns. A log line, a retry (continue) or a return from a
// goroutine that nobody waits on does not.

// findRenewals fills Model.Renewals: the calls that renew (catalogued,
// //fencelint:renew, wrappers), and the calls of the package's functions and
// closures that hand a renewal's failure back to their caller.
func (b *builder) findRenewals() {
	n := b.newNotifier()
	found := make(map[ssa.CallInstruction]bool)
	var handsBack []*Renewal
	for fn, call := range b.calls {
		c, ok := b.resolve(call.Common())
		if !ok || !c.role.Has(RoleRenew) {
			continue
		}
		r := n.renewal(fn, call, c.system, c.what, c.api != nil && c.api.Loop)
		b.model.Renewals = append(b.model.Renewals, r)
		found[call] = true
		if r.Returns {
			handsBack = append(handsBack, r)
		}
	}
	for _, r := range b.findReacquires(found) {
		b.model.Renewals = append(b.model.Renewals, r)
		if r.Returns {
			handsBack = append(handsBack, r)
		}
	}
	sites := b.callSitesByCallee()
	for len(handsBack) > 0 {
		inner := handsBack[len(handsBack)-1]
		handsBack = handsBack[:len(handsBack)-1]
		for _, site := range sites[inner.Fn] {
			if found[site.call] || !isPlainCall(site.call) {
				continue // go and defer drop what the function returns
			}
			r := n.renewal(site.fn, site.call, inner.System, inner.What, false)
			b.model.Renewals = append(b.model.Renewals, r)
			found[site.call] = true
			if r.Returns {
				handsBack = append(handsBack, r)
			}
		}
	}
	slices.SortStableFunc(b.model.Renewals, func(x, y *Renewal) int { return int(x.Pos - y.Pos) })
}

// renewal describes one renewing call.
func (n *notifier) renewal(fn *ssa.Function, call ssa.CallInstruction, system System, what string, periodic bool) *Renewal {
	r := &Renewal{Call: call, Pos: call.Pos(), Fn: fn, System: system, What: what,
		InLoop: inLoop(call.Block()), Periodic: periodic}
	if v, ok := call.(*ssa.Call); ok { // go and defer drop every result
		p := n.scan(fn, v.Block())
		for _, f := range failureResults(v) {
			p.failure(f.value, f.sense)
		}
		r.Notifies, r.Returns = p.notifies, p.returns
	}
	r.ErrorUsed = r.Notifies || r.Returns && !n.goOnly(fn)
	return r
}

func isPlainCall(call ssa.CallInstruction) bool {
	_, ok := call.(*ssa.Call)
	return ok
}

// A callSite is a call and the function it is made in.
type callSite struct {
	fn   *ssa.Function
	call ssa.CallInstruction
}

// callSitesByCallee maps each function of the package to its static calls.
func (b *builder) callSitesByCallee() map[*ssa.Function][]callSite {
	sites := make(map[*ssa.Function][]callSite)
	for fn, call := range b.calls {
		if callee := Callee(call.Common()); callee != nil && b.inPackage(callee) {
			sites[callee] = append(sites[callee], callSite{fn, call})
		}
	}
	return sites
}

// findSignals fills Model.Signals: the channels and sessions that
// auto-renewing acquisitions return (etcd NewSession and KeepAlive, Consul
// Lock and Semaphore), and the ctx of callbacks run while a lease is held
// (leaderelection's OnStartedLeading).
func (b *builder) findSignals() {
	n := b.newNotifier()
	var sites map[*ssa.Function][]callSite
	for fn, call := range b.calls {
		c, ok := b.resolve(call.Common())
		if !ok || c.api == nil || !c.role.Has(RoleAutoRenew) {
			continue
		}
		if s := b.signalsOf(n, fn, call, c); s != nil {
			if sites == nil {
				sites = b.callSitesByCallee()
			}
			s.Callers = callersOf(sites, fn)
		}
	}
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					b.callbackSignal(n, st)
				}
			}
		}
	}
	b.importedSignals()
}

// signalsOf records the lost-signal that an auto-renewing call returns: a
// channel (KeepAlive, Lock.Lock), a value with lost-signal methods (an
// etcd Session, whose Done and Ctx fire when its lease is gone), or a
// context the library cancels when the lock is lost (rueidislock's
// WithContext), which the work hears of when it runs on it.
func (b *builder) signalsOf(n *notifier, fn *ssa.Function, call ssa.CallInstruction, c callee) *Signal {
	results := call.Common().Signature().Results()
	for i := range results.Len() {
		t := results.At(i).Type()
		_, isChan := t.Underlying().(*types.Chan)
		ctx := !isChan && isContext(t)
		session := !isChan && !ctx && b.hasLostMethods(t)
		if !isChan && !ctx && !session {
			continue
		}
		s := &Signal{Call: call, Pos: call.Pos(), Fn: fn, System: c.system, What: c.what,
			OnGrantedLease: session && b.passesOption(call.Common(), RoleOnLease)}
		if isChan {
			s.KeepsLock = b.etcdClaimWrapper(fn)
		}
		if v, ok := call.(*ssa.Call); ok {
			s.Value = resultValue(v, i, results.Len())
			carrier := s.Value
			if isChan {
				carrier = companionResult(v, i)
			}
			if fv := storedField(carrier); fv != nil {
				s.Carrier = fv
			}
		}
		switch {
		case isChan && b.passesOption(call.Common(), RoleEventCallback):
			s.Observed = true // every event, the lost signal among them, goes to the callback
		case s.Value == nil: // discarded, or dropped by go/defer
		case isChan:
			s.Observed = n.chanObserved(s.Value)
		case ctx:
			s.Observed = true // used: the work runs on it
		default:
			s.Observed = n.sessionObserved(s.Value)
		}
		b.model.Signals = append(b.model.Signals, s)
		return s
	}
	return nil
}

// etcdClaimWrapper names fn if it is an acquire wrapper of a hand-rolled
// etcd lock (a claim Txn), "" otherwise.
func (b *builder) etcdClaimWrapper(fn *ssa.Function) string {
	obj := declaredFunc(fn)
	if obj == nil {
		return ""
	}
	if f := b.roleFact(obj); f != nil && f.Role&(RoleAcquire|RoleTryAcquire) != 0 && f.Claim == EtcdTxnClaim {
		return shortName(obj)
	}
	return ""
}

// companionResult returns the pointer result that call returns beside the
// channel at index i (zk.Connect's *Conn beside its events), or nil.
func companionResult(call *ssa.Call, i int) ssa.Value {
	results := call.Common().Signature().Results()
	for j := range results.Len() {
		if j != i && isPointer(results.At(j).Type()) {
			return resultValue(call, j, results.Len())
		}
	}
	return nil
}

// storedField returns the struct field v is stored into (w.session = s,
// &Rebalancer{conn: conn}), or nil.
func storedField(v ssa.Value) *types.Var {
	if v == nil || v.Referrers() == nil {
		return nil
	}
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == v {
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				if fv := fieldVar(fa.X.Type(), fa.Field); fv != nil {
					return fv.Origin()
				}
			}
		}
	}
	return nil
}

// carrierOf returns the struct field, or the method of another package
// whose fact says it returns one, that v is read from: the session or
// connection a lock object is made from.
func (b *builder) carrierOf(v ssa.Value) types.Object {
	switch x := unwrap(v).(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if fv := fieldVar(fa.X.Type(), fa.Field); fv != nil {
				return fv.Origin()
			}
		}
	case *ssa.Field:
		if fv := fieldVar(x.X.Type(), x.Field); fv != nil {
			return fv.Origin()
		}
	case *ssa.Call:
		if fn := calleeFunc(x.Common()); fn != nil && fn.Pkg() != b.pass.Pkg {
			var f LostSignalFact
			if b.pass.ImportObjectFact(fn.Origin(), &f) {
				return fn.Origin()
			}
		}
	}
	return nil
}

// leaseFrom returns the field (or accessor) whose value the lock object
// holder was made from: an argument of the call that made it.
func (b *builder) leaseFrom(holder ssa.Value) types.Object {
	made := producer(holder)
	if made == nil {
		return nil
	}
	for _, a := range made.Common().Args {
		if obj := b.carrierOf(a); obj != nil {
			return obj
		}
	}
	return nil
}

// exportSignalFacts exports a LostSignalFact for each field of the package
// that holds a carrier whose lost-signal the package never watches, and for
// each method that returns such a field, so that importers that make locks
// from it know.
func (b *builder) exportSignalFacts() {
	exported := false
	for _, s := range b.model.Signals {
		fv, ok := s.Carrier.(*types.Var)
		if s.Observed || s.Call == nil || !ok || fv.Pkg() != b.pass.Pkg {
			continue
		}
		f := &LostSignalFact{System: s.System, What: fmt.Sprintf("%s at %s", s.What, b.shortPos(s.Pos))}
		b.pass.ExportObjectFact(fv, f)
		for _, fn := range b.funcs {
			if obj := declaredFunc(fn); obj != nil && obj.Exported() && returnsField(fn, fv) {
				b.pass.ExportObjectFact(obj, f)
			}
		}
		exported = true
	}
	if exported {
		b.pass.ExportPackageFact(&PackageFact{})
	}
}

// returnsField reports whether fn returns the value of field fv.
func returnsField(fn *ssa.Function, fv *types.Var) bool {
	for _, v := range returnValues(fn, 0) {
		if load, ok := unwrap(v).(*ssa.UnOp); ok && load.Op == token.MUL {
			if fa, ok := load.X.(*ssa.FieldAddr); ok {
				if f := fieldVar(fa.X.Type(), fa.Field); f != nil && f.Origin() == fv {
					return true
				}
			}
		}
	}
	return false
}

// importedSignals adds, for each lock made from a field or accessor of
// another package whose LostSignalFact says its lost-signal goes unwatched
// there, a signal at the call that makes the lock, unless this package
// watches it (calls Done or Ctx on it).
func (b *builder) importedSignals() {
	seen := make(map[ssa.Value]bool)
	for _, l := range b.model.Leases {
		if l.From == nil || l.From.Pkg() == b.pass.Pkg || l.Holder == nil {
			continue
		}
		var f LostSignalFact
		made := producer(l.Holder)
		if made == nil || seen[made] || !b.pass.ImportObjectFact(l.From, &f) || b.watches(l.From) {
			continue
		}
		seen[made] = true
		b.model.Signals = append(b.model.Signals, &Signal{Call: made, Pos: made.Pos(), Fn: made.Parent(),
			System: f.System, What: f.What, Carrier: l.From, Origin: f.What})
	}
}

// watches reports whether the package calls a catalogued lost-signal method
// (an etcd session's Done or Ctx) on a value read from carrier.
func (b *builder) watches(carrier types.Object) bool {
	found := false
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := b.resolve(call.Common())
		found = ok && c.api != nil && c.role == RoleLost && c.api.Recv != "" && b.carrierOf(callRecv(call.Common())) == carrier
		return !found
	})
	return found
}

// passesOption reports whether c passes, among its variadic options, the
// result of a catalogued option with role (concurrency.WithLease(id)).
func (b *builder) passesOption(c *ssa.CallCommon, role Role) bool {
	if len(c.Args) == 0 {
		return false
	}
	opts, _ := variadic(c.Args[len(c.Args)-1])
	for _, o := range opts {
		if p := producer(o); p != nil {
			if f := calleeFunc(p.Common()); f != nil {
				if api := b.ix.lookupFunc(f); api != nil && api.Role.Has(role) {
					return true
				}
			}
		}
	}
	return false
}

// callersOf returns the functions that call fn's outermost function, and
// their callers, up to two calls up, in the order found.
func callersOf(sites map[*ssa.Function][]callSite, fn *ssa.Function) []*ssa.Function {
	var callers []*ssa.Function
	level := []*ssa.Function{outermost(fn)}
	for range 2 {
		var next []*ssa.Function
		for _, f := range level {
			for _, site := range sites[f] {
				if caller := outermost(site.fn); caller != outermost(fn) && !slices.Contains(callers, caller) {
					callers = append(callers, caller)
					next = append(next, caller)
				}
			}
		}
		level = next
	}
	return callers
}

// hasLostMethods reports whether t (or *t) has catalogued lost-signal methods.
func (b *builder) hasLostMethods(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Pointer); !ok {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if fn, ok := ms.At(i).Obj().(*types.Func); ok {
			if api := b.ix.lookupFunc(fn); api != nil && api.Role.Has(RoleLost) {
				return true
			}
		}
	}
	return false
}

// resultValue returns result i of call as a value, or nil if it is unused.
func resultValue(call *ssa.Call, i, n int) ssa.Value {
	if n == 1 {
		if refs := call.Referrers(); refs != nil && len(*refs) > 0 {
			return call
		}
		return nil
	}
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i && len(*ex.Referrers()) > 0 {
			return ex
		}
	}
	return nil
}

// callbackSignal records the ctx parameter of a function stored into a
// callback field that is also a lost-signal (OnStartedLeading: its ctx is
// cancelled when leadership is lost).
func (b *builder) callbackSignal(n *notifier, st *ssa.Store) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	api := b.ix.lookupField(fa.X.Type(), fieldVar(fa.X.Type(), fa.Field))
	if api == nil || !api.Role.Has(RoleCallback|RoleLost) {
		return
	}
	cb := callbackFunc(st.Val)
	if cb == nil || len(cb.Blocks) == 0 {
		return
	}
	s := &Signal{Pos: cb.Pos(), Fn: cb, System: api.System, What: api.Name}
	if s.Pos == token.NoPos || cb.Parent() == nil {
		s.Pos = st.Pos() // a named function: report where it is installed
	}
	if ctx := ctxParam(cb); ctx != nil {
		s.Value = ctx
		s.Observed = len(*ctx.Referrers()) > 0
		s.Relayed = n.ctxRelayed(ctx)
	}
	stop, name, installed := b.onLostSibling(st, api.System)
	if stop != nil && n.funcNotifies(stop, 0) {
		s.StoppedBy = name
		s.Awaited = b.awaits(stop, 0)
	}
	if api.System == Kubernetes && (stop != nil || !installed) {
		s.EndsProcess = b.electionEndsProcess(st, stop)
	}
	b.model.Signals = append(b.model.Signals, s)
}

// onLostSibling returns the function installed next to the callback that
// st installs, in the library's field that runs once the lease is lost
// (LeaderCallbacks.OnStoppedLeading of the same struct), and the field's
// name. installed reports whether that field is set at all, also to a
// function whose body is not seen.
func (b *builder) onLostSibling(st *ssa.Store, system System) (fn *ssa.Function, name string, installed bool) {
	fa := st.Addr.(*ssa.FieldAddr)
	for _, blk := range st.Parent().Blocks {
		for _, instr := range blk.Instrs {
			other, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			ofa, ok := other.Addr.(*ssa.FieldAddr)
			if !ok || !sameAddr(fa.X, ofa.X) {
				continue
			}
			api := b.ix.lookupField(ofa.X.Type(), fieldVar(ofa.X.Type(), ofa.Field))
			if api != nil && api.Role.Has(RoleOnLost) && api.System == system {
				installed = true
				if fn := callbackFunc(other.Val); fn != nil && len(fn.Blocks) > 0 {
					return fn, api.Name, true
				}
			}
		}
	}
	return nil, "", installed
}

// sameAddr reports whether two addresses denote the same variable: the
// same value, or the same field of the same variable (cfg.Callbacks
// written twice is two FieldAddr instructions).
func sameAddr(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	fx, ok1 := x.(*ssa.FieldAddr)
	fy, ok2 := y.(*ssa.FieldAddr)
	return ok1 && ok2 && fx.Field == fy.Field && sameAddr(fx.X, fy.X)
}

// awaits reports whether fn (with its closures and the package's functions
// it calls, two calls deep) waits for other work to end: a WaitGroup's or
// errgroup's Wait, or a receive from a channel.
func (b *builder) awaits(fn *ssa.Function, depth int) bool {
	for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						return true
					}
				case *ssa.Select:
					if x.Blocking && !sends(x) {
						return true
					}
				case ssa.CallInstruction:
					if isWait(x.Common()) {
						return true
					}
					if callee := x.Common().StaticCallee(); callee != nil && depth < 2 && b.inPackage(callee) && b.awaits(callee, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// isWait reports whether c calls Wait on a sync.WaitGroup or an errgroup.Group.
func isWait(c *ssa.CallCommon) bool {
	fn := calleeFunc(c)
	if fn == nil || fn.Name() != "Wait" {
		return false
	}
	switch receiverName(fn) {
	case "WaitGroup":
		return fn.Pkg() != nil && fn.Pkg().Path() == "sync"
	case "Group":
		return fn.Pkg() != nil && strings.HasSuffix(fn.Pkg().Path(), "/errgroup")
	}
	return false
}

// callbackFunc returns the source function a func value denotes: a literal,
// a declared function, or the method behind a method value (w.run).
func callbackFunc(v ssa.Value) *ssa.Function {
	fn := closureValue(v, 0)
	if fn == nil || fn.Synthetic == "" {
		return fn
	}
	if m, ok := fn.Object().(*types.Func); ok { // a bound-method wrapper
		return fn.Prog.FuncValue(m)
	}
	return nil
}

// ctxParam returns fn's first context.Context parameter, receiver skipped.
func ctxParam(fn *ssa.Function) *ssa.Parameter {
	for _, p := range fn.Params {
		if isContext(p.Type()) {
			return p
		}
	}
	return nil
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	return isNamed(t, "context", "Context")
}

// isNamed reports whether t is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// findGoroutines fills Model.Goroutines.
func (b *builder) findGoroutines() {
	byFn := make(map[*ssa.Function][]*Renewal)
	byCall := make(map[ssa.CallInstruction]*Renewal)
	for _, r := range b.model.Renewals {
		byFn[r.Fn] = append(byFn[r.Fn], r)
		byCall[r.Call] = r
	}
	for _, call := range b.calls {
		g, ok := call.(*ssa.Go)
		if !ok {
			continue
		}
		gr := &Goroutine{Go: g, Pos: g.Pos(), Fn: g.Call.StaticCallee(), RecvLeases: b.recvLeases(g)}
		if r := byCall[g]; r != nil {
			gr.Renewals = append(gr.Renewals, r)
			if r.Periodic {
				gr.Loops = append(gr.Loops, r)
			}
		}
		b.walkGoroutine(gr, byFn, byCall)
		b.model.Goroutines = append(b.model.Goroutines, gr)
	}
	for _, gr := range b.helperStarts() {
		b.walkGoroutine(gr, byFn, byCall)
		b.model.Goroutines = append(b.model.Goroutines, gr)
	}
	if len(b.model.Renewals) > 0 {
		b.findLoopers(byFn, byCall)
	}
}

// walkGoroutine fills g's Funcs, Renewals, Loops and Works, in a package
// that renews a lease.
func (b *builder) walkGoroutine(g *Goroutine, byFn map[*ssa.Function][]*Renewal, byCall map[ssa.CallInstruction]*Renewal) {
	if len(b.model.Renewals) == 0 {
		return
	}
	w := &goroutineWalk{b: b, g: g, byFn: byFn, seen: make(map[*ssa.Function]bool)}
	if g.Fn != nil && b.inPackage(g.Fn) {
		w.visit(g.Fn, false)
	}
	if g.Helper == nil {
		w.repeatedArgs(g.Go) // go wait.Until(func() {...}, period, stop)
	}
	g.Works = b.works(g, byCall)
}

// findLoopers fills Model.Loopers: the package's exported functions that
// renew again and again, each described as if a go statement started it,
// since another package may (go keeper.KeepExtending(m)).
func (b *builder) findLoopers(byFn map[*ssa.Function][]*Renewal, byCall map[ssa.CallInstruction]*Renewal) {
	for _, fn := range b.funcs {
		if obj := declaredFunc(fn); obj == nil || !obj.Exported() {
			continue
		}
		gr := &Goroutine{Pos: fn.Pos(), Fn: fn}
		w := &goroutineWalk{b: b, g: gr, byFn: byFn, seen: make(map[*ssa.Function]bool)}
		for _, g := range b.model.Goroutines {
			if g.Helper != nil && g.Fn != fn {
				w.seen[g.Fn] = true // a goroutine of its own, judged where the helper starts it
			}
		}
		w.visit(fn, false)
		if len(gr.Loops) > 0 {
			gr.Works = b.works(gr, byCall)
			b.model.Loopers = append(b.model.Loopers, gr)
		}
	}
}

// A goroutineWalk collects the functions a goroutine runs.
type goroutineWalk struct {
	b    *builder
	g    *Goroutine
	byFn map[*ssa.Function][]*Renewal
	seen map[*ssa.Function]bool // visited; true once visited as called in a loop
}

// visit adds fn, run in a loop if looping, and what it calls.
func (w *goroutineWalk) visit(fn *ssa.Function, looping bool) {
	if done, ok := w.seen[fn]; ok && (done || !looping) {
		return
	}
	first := !w.hasFunc(fn)
	w.seen[fn] = looping
	if first {
		w.g.Funcs = append(w.g.Funcs, fn)
	}
	for _, r := range w.byFn[fn] {
		if first {
			w.g.Renewals = append(w.g.Renewals, r)
		}
		if (looping || r.InLoop || r.Periodic) && !containsRenewal(w.g.Loops, r) {
			w.g.Loops = append(w.g.Loops, r)
		}
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if callee := Callee(call.Common()); callee != nil && w.b.inPackage(callee) {
				w.visit(callee, looping || inLoop(blk))
			}
			w.repeatedArgs(call)
		}
	}
	for _, anon := range fn.AnonFuncs { // closures handed to others (time.AfterFunc, wait.Until)
		w.visit(anon, looping)
	}
}

// repeaterNames are the functions (k8s.io/apimachinery's wait package and
// the like) that call the function they are given again and again.
var repeaterNames = map[string]bool{
	"Until": true, "UntilWithContext": true, "Forever": true, "JitterUntil": true,
	"JitterUntilWithContext": true, "NonSlidingUntil": true, "NonSlidingUntilWithContext": true,
	"Every": true, "Repeat": true,
}

// repeatedArgs visits the package's functions that call hands to a
// function of another package that runs them again and again.
func (w *goroutineWalk) repeatedArgs(call ssa.CallInstruction) {
	fn := calleeFunc(call.Common())
	if fn == nil || !repeaterNames[fn.Name()] || fn.Pkg() == w.b.pass.Pkg {
		return
	}
	for _, a := range call.Common().Args {
		if f := funcValue(a); f != nil && w.b.inPackage(f) {
			if !slices.Contains(w.g.Repeated, f) {
				w.g.Repeated = append(w.g.Repeated, f)
			}
			w.visit(f, true)
		}
	}
}

// works reports whether g does more than renew (see Goroutine.Works).
func (b *builder) works(g *Goroutine, renewals map[ssa.CallInstruction]*Renewal) bool {
	writes := make(map[*ssa.Function]bool)
	for _, w := range b.model.Writes {
		if !w.LockImpl {
			writes[w.Fn] = true
		}
	}
	for _, fn := range g.Funcs {
		if writes[fn] {
			return true
		}
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && renewals[call] == nil && b.isWork(call.Common()) {
					return true
				}
			}
		}
	}
	return false
}

// upkeepPackages are packages whose calls are the upkeep of a renewal loop,
// not work.
var upkeepPackages = map[string]bool{
	"time": true, "context": true, "sync": true, "sync/atomic": true, "errors": true, "runtime": true,
	"math/rand": true, "math/rand/v2": true, "strings": true, "strconv": true,
}

// metricNames are the methods metrics libraries count and time with.
var metricNames = map[string]bool{"Inc": true, "Dec": true, "Add": true, "Observe": true, "Set": true,
	"WithLabelValues": true, "With": true}

// isWork reports whether a call does something other than upkeep: not a
// closure or function of the package (their bodies are looked at), not the
// lock library, logging, metrics, timers, contexts or errors.
func (b *builder) isWork(c *ssa.CallCommon) bool {
	if callee := Callee(c); callee != nil && b.inPackage(callee) {
		return false
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return false
	}
	fn := calleeFunc(c)
	if fn == nil {
		return false // a func value: a callback, which callNotifies treats as telling the work
	}
	path := pkgPath(fn)
	switch {
	case upkeepPackages[path], logPackages[path], b.ix.knowsPath(path), isLogging(c), metricNames[fn.Name()]:
		return false
	}
	return true
}

func (w *goroutineWalk) hasFunc(fn *ssa.Function) bool {
	for _, f := range w.g.Funcs {
		if f == fn {
			return true
		}
	}
	return false
}

func containsRenewal(rs []*Renewal, r *Renewal) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// Callee returns the function a call invokes when it is known: a static
// callee, or a closure called through a variable it was assigned to once
// (extend := func() error {...}; ... extend()), also from inside another
// closure that captured the variable.
func Callee(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	if f := c.StaticCallee(); f != nil {
		return f
	}
	return closureValue(c.Value, 0)
}

// closureValue returns the function v holds, following loads of captured
// variables to the single value stored in them.
func closureValue(v ssa.Value, depth int) *ssa.Function {
	if depth > 4 {
		return nil
	}
	switch x := unwrap(v).(type) {
	case *ssa.Function, *ssa.MakeClosure:
		return funcValue(x)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		if alloc, ok := x.X.(*ssa.Alloc); ok {
			return closureValue(storedOnce(alloc), depth+1)
		}
		return closureValue(x.X, depth+1) // a captured variable: *fv
	case *ssa.FreeVar:
		return closureValue(freeVarBinding(x), depth+1)
	case *ssa.Alloc:
		return closureValue(storedOnce(x), depth+1)
	}
	return nil
}

// storedOnce returns the value stored into alloc if it is stored exactly once
// and its address goes nowhere else than to loads and to closures that only
// load it: a variable assigned out of sight may hold another value.
func storedOnce(alloc *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			if !onlyLoaded(r, alloc, 0) {
				return nil
			}
		default:
			return nil
		}
	}
	return val
}

// onlyLoaded reports whether the closure mc makes, and the closures it makes
// in turn, only load the captured variable addr.
func onlyLoaded(mc *ssa.MakeClosure, addr ssa.Value, depth int) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth > 4 {
		return false
	}
	for i, bound := range mc.Bindings {
		if bound != addr || i >= len(fn.FreeVars) {
			continue
		}
		fv := fn.FreeVars[i]
		for _, ref := range *fv.Referrers() {
			switch r := ref.(type) {
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
				if !onlyLoaded(r, fv, depth+1) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// freeVarBinding returns the value bound to fv where its closure is made,
// if it is made once.
func freeVarBinding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	idx := slices.Index(fn.FreeVars, fv)
	if fn.Parent() == nil || idx < 0 {
		return nil
	}
	var bound ssa.Value
	for _, ref := range *fn.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn == fn {
			if bound != nil {
				return nil
			}
			bound = mc.Bindings[idx]
		}
	}
	return bound
}

// inPackage reports whether fn is a function of the package with a body.
func (b *builder) inPackage(fn *ssa.Function) bool {
	return len(fn.Blocks) > 0 && fn.Pkg != nil && fn.Pkg.Pkg == b.pass.Pkg
}

// inLoop reports whether blk lies on a cycle of its function's CFG.
func inLoop(blk *ssa.BasicBlock) bool {
	return reaches(blk.Succs, blk)
}

// reaches reports whether target can be reached from any of from.
func reaches(from []*ssa.BasicBlock, target *ssa.BasicBlock) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), from...)
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if blk == target {
			return true
		}
		if seen[blk] {
			continue
		}
		seen[blk] = true
		work = append(work, blk.Succs...)
	}
	return false
}

// A sense says which values of a result mean that a renewal failed.
type sense uint8

const (
	failNonNil sense = iota // an error: non-nil is failure
	failNil                 // a pointer result: nil is failure (Consul Renew's entry)
	failFalse               // a bool: false is failure (Extend's ok)
	failTrue                // a bool: true is failure (err != nil)
)

// negate is the sense of !v.
func (s sense) negate() sense {
	switch s {
	case failFalse:
		return failTrue
	case failTrue:
		return failFalse
	}
	return s
}

// A failureResult is a result of a renewal call that tells failure.
type failureResult struct {
	value ssa.Value
	sense sense
}

// failureResults returns the results of call that say it failed: errors,
// bools, and a leading pointer that is nil on failure.
func failureResults(call *ssa.Call) []failureResult {
	res := call.Common().Signature().Results()
	var out []failureResult
	for i := range res.Len() {
		t := res.At(i).Type()
		var s sense
		switch {
		case isErrorType(t):
			s = failNonNil
		case isBoolType(t):
			s = failFalse
		case i == 0 && isPointer(t) && res.Len() > 1:
			s = failNil
		default:
			continue
		}
		if v := resultValue(call, i, res.Len()); v != nil {
			out = append(out, failureResult{v, s})
		}
	}
	return out
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isBoolType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// A notifier judges whether code reaches the work. It caches what it
// learns about the package's functions for one pass.
type notifier struct {
	b       *builder
	funcs   map[*ssa.Function]bool // whether a function notifies anywhere in its body
	uses    map[*ssa.Function]funcUses
	escaped *bool // whether any session's lost-signal method is called in the package
	// strict judges stores as a renewal that reconnects and retries needs:
	// only one that records the failure where others read it tells the
	// work (recordsFailure).
	strict bool
}

// funcUses says how a function of the package is used.
type funcUses struct{ goes, others int }

func (b *builder) newNotifier() *notifier {
	return &notifier{b: b, funcs: make(map[*ssa.Function]bool)}
}

// goOnly reports whether fn is only ever started by go statements, which
// drop its results: nobody hears what it returns.
func (n *notifier) goOnly(fn *ssa.Function) bool {
	if n.uses == nil {
		n.uses = n.b.functionUses()
	}
	if obj := declaredFunc(fn); obj != nil && obj.Exported() {
		return false // callers in other packages may use the result
	}
	u := n.uses[fn]
	return u.goes > 0 && u.others == 0
}

// functionUses counts, for each function of the package, the go statements
// that start it and its other uses (calls, func values).
func (b *builder) functionUses() map[*ssa.Function]funcUses {
	uses := make(map[*ssa.Function]funcUses)
	var ops []*ssa.Value
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if _, ok := instr.(*ssa.MakeClosure); ok {
					continue // the closure's creation; its uses are the MakeClosure's
				}
				started := startedFunc(instr)
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					target := funcValue(*op)
					if target == nil {
						continue
					}
					u := uses[target]
					if target == started && *op == instr.(*ssa.Go).Call.Value {
						u.goes++
					} else {
						u.others++
					}
					uses[target] = u
				}
			}
		}
	}
	return uses
}

// startedFunc returns the function a go statement starts, or nil.
func startedFunc(instr ssa.Instruction) *ssa.Function {
	if g, ok := instr.(*ssa.Go); ok {
		return funcValue(g.Call.Value)
	}
	return nil
}

// A pathScan walks the code that runs after an event in fn (a renewal that
// failed, a lost-signal that fired) and records whether it reaches the work.
type pathScan struct {
	n        *notifier
	fn       *ssa.Function
	origin   *ssa.BasicBlock // the event's block: going back to it is retrying
	seenVals map[ssa.Value]bool
	seenBlks map[*ssa.BasicBlock]bool
	notifies bool // the path tells the work
	returns  bool // the path makes fn return a failure, or end if it returns nothing
	ends     bool // the path makes fn return, whatever it returns
}

func (n *notifier) scan(fn *ssa.Function, origin *ssa.BasicBlock) *pathScan {
	return &pathScan{n: n, fn: fn, origin: origin,
		seenVals: make(map[ssa.Value]bool), seenBlks: make(map[*ssa.BasicBlock]bool)}
}

// failure follows a failure result v, whose failing values s describes,
// through the function.
func (p *pathScan) failure(v ssa.Value, s sense) {
	if p.seenVals[v] {
		return
	}
	p.seenVals[v] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.If:
			p.branch(x, s)
		case *ssa.BinOp:
			if cs, ok := compared(x, v, s); ok {
				p.failure(x, cs)
			}
		case *ssa.UnOp:
			if x.Op == token.NOT {
				p.failure(x, s.negate())
			}
		case *ssa.Phi, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.ChangeType, *ssa.TypeAssert:
			p.failure(x.(ssa.Value), s)
		case *ssa.Return:
			p.returns, p.ends = true, true
		case *ssa.Send, *ssa.Panic:
			p.notifies = true
		case *ssa.Select: // select { case errs <- err: default: }
			p.notifies = true
		case *ssa.Store:
			if x.Val != v {
				continue
			}
			if p.n.nonLocal(x.Addr) && (!p.n.strict || p.n.recordsFailure(x)) {
				p.notifies = true
			} else if p.n.strict {
				p.reloaded(x, s) // if err = l.relock(); err != nil, err captured
			}
		case *ssa.Go, *ssa.Defer:
			p.passed(x.(ssa.CallInstruction), v, s)
		}
	}
	for _, call := range callsTaking(v) { // directly, or boxed in a ...any slice
		p.passed(call, v, s)
	}
}

// passed handles the failure v passed to call: cancel(err), errCh-like
// callbacks, errors.Is(err, ...), fmt.Errorf("...: %w", err).
func (p *pathScan) passed(call ssa.CallInstruction, v ssa.Value, s sense) {
	if p.n.callNotifies(call.Common(), 0) {
		p.notifies = true
		return
	}
	c, ok := call.(*ssa.Call)
	if !ok || s != failNonNil {
		return
	}
	switch t := c.Type(); {
	case isBoolType(t): // errors.Is(err, ErrNotObtained): true means this failure
		p.failure(c, failTrue)
	case isErrorType(t): // a wrapped error
		p.failure(c, failNonNil)
	}
}

// compared returns the sense of a comparison of v: err != nil fails when
// true, ok == false fails when true, err == ErrX fails when true.
func compared(cmp *ssa.BinOp, v ssa.Value, s sense) (sense, bool) {
	other := cmp.Y
	if other == v {
		other = cmp.X
	}
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return 0, false
	}
	eql := cmp.Op == token.EQL
	var failWhenEqual bool
	switch c, isConst := other.(*ssa.Const); {
	case s == failNonNil && isConst && c.IsNil():
		failWhenEqual = false
	case s == failNil && isConst && c.IsNil():
		failWhenEqual = true
	case (s == failFalse || s == failTrue) && isConst && c.Value != nil:
		isTrue := c.Value.String() == "true"
		failWhenEqual = isTrue == (s == failTrue)
	case s == failNonNil: // err == redislock.ErrNotObtained
		if !eql {
			return 0, false
		}
		failWhenEqual = true
	default:
		return 0, false
	}
	if eql == failWhenEqual {
		return failTrue, true
	}
	return failFalse, true
}

// branch scans the successor of an if that runs on failure.
func (p *pathScan) branch(x *ssa.If, s sense) {
	switch s {
	case failTrue:
		p.region(x.Block().Succs[0])
	case failFalse:
		p.region(x.Block().Succs[1])
	}
}

// region scans the blocks that run from start on: those start dominates,
// and those after which the origin cannot run again (the code after a
// loop the path breaks out of), or not before the loop comes round to it
// again (the rest of the turn after an if on the failure: a session
// manager sends "" on its output when its renewal ended, however it
// ended). Going back around the loop is a retry.
func (p *pathScan) region(start *ssa.BasicBlock) {
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if p.seenBlks[blk] {
			continue
		}
		p.seenBlks[blk] = true
		p.instrs(blk.Instrs)
		for _, succ := range blk.Succs {
			if start.Dominates(succ) || p.sameTurn(succ) {
				work = append(work, succ)
			}
		}
	}
}

// sameTurn reports whether blk runs after the event without going round
// the loop the event is in: the origin cannot run again after it, or blk
// is no block every path to the origin passes (a loop's header is one).
func (p *pathScan) sameTurn(blk *ssa.BasicBlock) bool {
	return !reaches([]*ssa.BasicBlock{blk}, p.origin) || !blk.Dominates(p.origin)
}

// after scans what runs after instr: the rest of its block, then on.
func (p *pathScan) after(instr ssa.Instruction) {
	blk := instr.Block()
	for i, x := range blk.Instrs {
		if x == instr {
			p.instrs(blk.Instrs[i+1:])
			break
		}
	}
	p.seenBlks[blk] = true
	for _, succ := range blk.Succs {
		if blk.Dominates(succ) || p.sameTurn(succ) {
			p.region(succ)
		}
	}
}

// instrs records what a run of instructions does.
func (p *pathScan) instrs(instrs []ssa.Instruction) {
	for _, instr := range instrs {
		switch x := instr.(type) {
		case *ssa.Send, *ssa.Panic:
			p.notifies = true
		case *ssa.Select:
			if sends(x) {
				p.notifies = true
			}
		case *ssa.Store:
			if p.n.storeNotifies(x) {
				p.notifies = true
			}
		case *ssa.Return:
			p.ends = true
			if returnsFailure(x) {
				p.returns = true
			}
			if p.n.defersNotify(p.fn) {
				p.notifies = true
			}
		case ssa.CallInstruction:
			if p.n.callNotifies(x.Common(), 0) {
				p.notifies = true
			}
		}
	}
}

// sends reports whether a select has a send case.
func sends(sel *ssa.Select) bool {
	for _, st := range sel.States {
		if st.Dir == types.SendOnly {
			return true
		}
	}
	return false
}

// returnsFailure reports whether ret ends a function that returns nothing,
// or returns something other than a nil error or true: the caller can
// tell that something failed.
func returnsFailure(ret *ssa.Return) bool {
	if len(ret.Results) == 0 {
		return true
	}
	for _, r := range ret.Results {
		c, isConst := r.(*ssa.Const)
		switch {
		case isErrorType(r.Type()) && !(isConst && c.IsNil()):
			return true
		case isBoolType(r.Type()) && isConst && c.Value != nil && c.Value.String() == "false":
			return true
		}
	}
	return false
}

// defersNotify reports whether a call fn defers tells the work (defer
// cancel(), defer close(lost)): it runs on every return.
func (n *notifier) defersNotify(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && n.callNotifies(d.Common(), 0) {
				return true
			}
		}
	}
	return false
}

// storeNotifies reports whether st sets something others can see (a field,
// a captured or global variable) to something other than a counter.
func (n *notifier) storeNotifies(st *ssa.Store) bool {
	if bin, ok := st.Val.(*ssa.BinOp); ok && (bin.Op == token.ADD || bin.Op == token.SUB) {
		return false // failures++
	}
	return n.nonLocal(st.Addr) && (!n.strict || n.recordsFailure(st))
}

// reloaded follows a failure stored into a variable to the loads of it
// that follow the store in its block.
func (p *pathScan) reloaded(st *ssa.Store, s sense) {
	after := false
	for _, instr := range st.Block().Instrs {
		if instr == st {
			after = true
			continue
		}
		if load, ok := instr.(*ssa.UnOp); after && ok && load.Op == token.MUL && load.X == st.Addr {
			p.failure(load, s)
		}
		if other, ok := instr.(*ssa.Store); after && ok && other.Addr == st.Addr {
			return
		}
	}
}

// nonLocal reports whether addr is memory others can see: not a variable
// or array local to the function that no closure captures.
func (n *notifier) nonLocal(addr ssa.Value) bool {
	for {
		switch x := addr.(type) {
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.Alloc:
			for _, ref := range *x.Referrers() {
				if _, ok := ref.(*ssa.MakeClosure); ok {
					return true
				}
			}
			return false
		default:
			return true
		}
	}
}

// stopNames are the method names whose call stops something or ends the
// process: the work hears of it.
var stopNames = map[string]bool{
	"Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true, "Panic": true, "Panicf": true,
	"Panicln": true, "Panicw": true, "Exit": true, "Shutdown": true, "Kill": true, "Abort": true,
	"Cancel": true, "Interrupt": true, "Stop": true, "Broadcast": true, "Signal": true,
}

// callNotifies reports whether a call tells the work: close(ch), a context's
// cancel func, a callback held in a variable or field, an atomic store, a
// call that stops or exits, or a function of the package that does one of
// these.
func (n *notifier) callNotifies(c *ssa.CallCommon, depth int) bool {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return b.Name() == "close"
	}
	if isNamed(c.Value.Type(), "context", "CancelFunc") || isNamed(c.Value.Type(), "context", "CancelCauseFunc") {
		return true
	}
	if c.IsInvoke() {
		return stopNames[c.Method.Name()]
	}
	callee := Callee(c)
	if callee == nil {
		// a callback: cancel held in a field, onLost, ...; strictly, not a
		// func that returns something (a reconnect's dial)
		return !n.strict || c.Signature().Results().Len() == 0
	}
	switch pkg := calleePkg(callee); {
	case pkg == "sync/atomic":
		return atomicWrite(callee.Name())
	case pkg == "time":
		return false // Ticker.Stop, Timer.Stop
	case stopNames[callee.Name()] && (callee.Signature.Recv() != nil || pkg == "os" || logPackages[pkg]):
		return true // os.Exit, log.Fatal, srv.Shutdown, logger.Fatalf
	}
	if depth < 3 && n.b.inPackage(callee) {
		return n.funcNotifies(callee, depth+1)
	}
	return false
}

// calleePkg is the import path of fn's package, or "".
func calleePkg(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	return ""
}

// atomicWrite reports whether a sync/atomic function or method writes.
func atomicWrite(name string) bool {
	for _, prefix := range []string{"Store", "Swap", "CompareAndSwap", "Add", "Or", "And"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// funcNotifies reports whether fn, a function of the package, tells the
// work somewhere in its body.
func (n *notifier) funcNotifies(fn *ssa.Function, depth int) bool {
	if v, ok := n.funcs[fn]; ok {
		return v
	}
	n.funcs[fn] = false // recursion
	found := false
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case *ssa.Send, *ssa.Panic:
				found = true
			case *ssa.Select:
				found = found || sends(x)
			case *ssa.Store:
				found = found || n.storeNotifies(x)
			case ssa.CallInstruction:
				found = found || n.callNotifies(x.Common(), depth)
			}
		}
	}
	n.funcs[fn] = found
	return found
}

// chanObserved reports whether a lost-signal channel reaches the work: some
// receive from it (a select case, a range, <-ch) leads to code that tells
// the work or ends the function doing it, or the channel is handed to
// code this package cannot see.
func (n *notifier) chanObserved(ch ssa.Value) bool {
	return n.chanHeard(ch, n.stopsWork, true)
}

// chanHeard reports whether some receive from ch leads to code that judge
// accepts; handedOn is the answer when ch is passed to code this package
// cannot see.
func (n *notifier) chanHeard(ch ssa.Value, judge func(*pathScan) bool, handedOn bool) bool {
	heard := false
	n.aliases(ch, 0, func(v ssa.Value, use ssa.Instruction) {
		if heard {
			return
		}
		switch x := use.(type) {
		case *ssa.UnOp:
			if x.Op == token.ARROW {
				heard = judge(n.received(x))
			}
		case *ssa.Select:
			p, ok := n.selected(x, v)
			heard = !ok || judge(p)
		case *ssa.BinOp, *ssa.DebugRef:
			// ch == nil: a test, not a read
		default:
			heard = handedOn
		}
	})
	return heard
}

// ctxRelayed reports whether the cancellation of ctx is relayed to other
// work: waiting on ctx.Done() leads to a cancel, close or send, or
// context.AfterFunc(ctx, f) runs f. Work started on context.Background()
// can still hear of the lost lease that way.
func (n *notifier) ctxRelayed(ctx ssa.Value) bool {
	relayed := false
	n.aliases(ctx, 0, func(v ssa.Value, use ssa.Instruction) {
		call, ok := use.(ssa.CallInstruction)
		if relayed || !ok {
			return
		}
		c := call.Common()
		switch {
		case c.IsInvoke() && c.Method.Name() == "Done" && c.Value == v:
			if done, ok := call.(*ssa.Call); ok {
				relayed = n.chanHeard(done, func(p *pathScan) bool { return p.notifies }, false)
			}
		case isContextFunc(c, "AfterFunc"):
			relayed = true
		}
	})
	return relayed
}

// isContextFunc reports whether c calls the function name of package context.
func isContextFunc(c *ssa.CallCommon, name string) bool {
	f := c.StaticCallee()
	return f != nil && f.Name() == name && calleePkg(f) == "context"
}

// received returns the scan of what runs after a receive from a lost-signal
// channel has fired.
func (n *notifier) received(recv *ssa.UnOp) *pathScan {
	p := n.scan(recv.Parent(), recv.Block())
	if recv.CommaOk { // v, ok := <-ch; for range ch: !ok means it closed
		for _, ref := range *recv.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 1 {
				p.failure(ex, failFalse)
			}
		}
	} else {
		p.after(recv)
	}
	return p
}

// selected returns the scan of the case of sel that receives from ch, or
// false if it cannot tell which code that is.
func (n *notifier) selected(sel *ssa.Select, ch ssa.Value) (*pathScan, bool) {
	idx := -1
	for i, st := range sel.States {
		if st.Chan == ch && st.Dir == types.RecvOnly {
			idx = i
		}
	}
	if idx < 0 {
		return nil, false
	}
	p := n.scan(sel.Parent(), sel.Block())
	found := false
	for _, ref := range *sel.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, r := range *ex.Referrers() {
			if cmp, ok := r.(*ssa.BinOp); ok && cmp.Op == token.EQL && isConstInt(cmp.Y, idx) {
				for _, rr := range *cmp.Referrers() {
					if ifInstr, ok := rr.(*ssa.If); ok {
						p.region(ifInstr.Block().Succs[0])
						found = true
					}
				}
			}
		}
	}
	return p, found
}

func isConstInt(v ssa.Value, i int) bool {
	got, ok := constInt(v)
	return ok && got == int64(i)
}

// stopsWork reports whether the code after a lost-signal fired tells the
// work, or returns from a function that does work (not a goroutine that
// only drains the channel).
func (n *notifier) stopsWork(p *pathScan) bool {
	return p.notifies || p.ends && !n.drainOnly(p.fn)
}

// drainOnly reports whether fn is a goroutine that does nothing but wait:
// started only by go statements, calling nothing but logging and the
// lost-signal methods it waits on (s.Done()).
func (n *notifier) drainOnly(fn *ssa.Function) bool {
	if !n.goOnly(fn) {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && !isLogging(call.Common()) && !n.isLostSignal(call) {
				return false
			}
		}
	}
	return true
}

// isLostSignal reports whether call obtains a catalogued lost-signal.
func (n *notifier) isLostSignal(call ssa.CallInstruction) bool {
	c, ok := n.b.resolve(call.Common())
	return ok && c.api != nil && c.role.Has(RoleLost)
}

// isLogging reports whether a call only logs or formats.
func isLogging(c *ssa.CallCommon) bool {
	fn := calleeFunc(c)
	if fn == nil || stopNames[fn.Name()] {
		return false
	}
	if logPackages[pkgPath(fn)] {
		return true
	}
	if receiverName(fn) == "" {
		return false
	}
	for _, prefix := range []string{"Print", "Debug", "Info", "Warn", "Error", "Log"} {
		if strings.HasPrefix(fn.Name(), prefix) {
			return true
		}
	}
	return false
}

// logPackages are the packages whose functions log or format.
var logPackages = map[string]bool{"log": true, "log/slog": true, "fmt": true, "k8s.io/klog": true, "k8s.io/klog/v2": true,
	"go.uber.org/zap": true, "github.com/rs/zerolog": true, "github.com/rs/zerolog/log": true, "github.com/sirupsen/logrus": true}

// pkgPath is the import path of fn's package, or "".
func pkgPath(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// sessionObserved reports whether a session's lost-signal (etcd Done, Ctx)
// reaches the work.
func (n *notifier) sessionObserved(session ssa.Value) bool {
	observed := false
	n.aliases(session, 0, func(v ssa.Value, use ssa.Instruction) {
		if observed {
			return
		}
		call, ok := use.(ssa.CallInstruction)
		if !ok {
			if _, isCmp := use.(*ssa.BinOp); !isCmp {
				observed = n.anySessionObserved() // stored or returned: look at the whole package
			}
			return
		}
		observed = n.sessionCall(call, v)
	})
	return observed
}

// sessionCall judges a call that takes a session.
func (n *notifier) sessionCall(call ssa.CallInstruction, session ssa.Value) bool {
	c, ok := n.b.resolve(call.Common())
	if ok && c.api != nil && c.role.Has(RoleLost) && callRecv(call.Common()) == session {
		v, isCall := call.(*ssa.Call)
		if !isCall {
			return false
		}
		if _, isChan := v.Type().Underlying().(*types.Chan); isChan {
			return n.chanObserved(v) // Done()
		}
		return len(*v.Referrers()) > 0 // Ctx(): the work uses it
	}
	if fn := calleeFunc(call.Common()); fn != nil && n.b.ix.knowsPath(pkgPath(fn)) {
		return false // NewMutex(s, pfx), s.Close(): the library's own
	}
	return n.anySessionObserved()
}

// anySessionObserved reports whether the package calls a lost-signal method
// of a session anywhere: a session handed on may be observed there.
func (n *notifier) anySessionObserved() bool {
	if n.escaped != nil {
		return *n.escaped
	}
	found := false
	n.b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := n.b.resolve(call.Common())
		found = ok && c.api != nil && c.role == RoleLost && c.api.Recv != ""
		return !found
	})
	n.escaped = &found
	return found
}

// aliases calls use for each use of v and of the values it flows into:
// phis, type changes, variables that closures capture, and parameters of
// the package's functions it is passed to.
func (n *notifier) aliases(v ssa.Value, depth int, use func(v ssa.Value, instr ssa.Instruction)) {
	refs := v.Referrers()
	if refs == nil || depth > 4 {
		return
	}
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.Phi, *ssa.ChangeType:
			n.aliases(x.(ssa.Value), depth+1, use)
		case *ssa.Store:
			if alloc, ok := x.Addr.(*ssa.Alloc); ok && x.Val == v {
				n.variable(alloc, depth+1, use)
				continue
			}
			use(v, x)
		case *ssa.MakeClosure:
			n.bound(x, v, depth+1, use)
		case ssa.CallInstruction:
			if p := n.paramFor(x.Common(), v); p != nil {
				n.aliases(p, depth+1, use)
				continue
			}
			use(v, x)
		default:
			use(v, x)
		}
	}
}

// variable follows a value stored in a local variable to its loads and to
// the closures that capture the variable.
func (n *notifier) variable(alloc *ssa.Alloc, depth int, use func(ssa.Value, ssa.Instruction)) {
	for _, ref := range *alloc.Referrers() {
		switch x := ref.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				n.aliases(x, depth, use)
			}
		case *ssa.MakeClosure:
			n.bound(x, alloc, depth, use)
		}
	}
}

// bound follows v captured by a closure into the closure's body.
func (n *notifier) bound(mc *ssa.MakeClosure, v ssa.Value, depth int, use func(ssa.Value, ssa.Instruction)) {
	fn := mc.Fn.(*ssa.Function)
	for i, b := range mc.Bindings {
		if b != v || i >= len(fn.FreeVars) {
			continue
		}
		fv := fn.FreeVars[i]
		if _, isAlloc := v.(*ssa.Alloc); isAlloc {
			for _, ref := range *fv.Referrers() {
				if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
					n.aliases(load, depth, use)
				}
			}
			continue
		}
		n.aliases(fv, depth, use)
	}
}

// paramFor returns the parameter of a package function that receives v.
func (n *notifier) paramFor(c *ssa.CallCommon, v ssa.Value) *ssa.Parameter {
	callee := c.StaticCallee()
	if callee == nil || c.IsInvoke() || !n.b.inPackage(callee) {
		return nil
	}
	for i, a := range c.Args {
		if a == v && i < len(callee.Params) {
			return callee.Params[i]
		}
	}
	return nil
}

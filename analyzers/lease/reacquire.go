package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A session advisory lock (MySQL GET_LOCK, PostgreSQL pg_advisory_lock and
// pg_try_advisory_lock) lives as long as the connection that took it. Code
// that holds one on a connection of its own keeps that connection alive by
// taking the same lock again on a timer, in a goroutine it starts once the
// lock is held: each time, it learns whether the session, and so the lock,
// still lives (GET_LOCK on a new session fails while another holds the
// lock). That is a renewal, and what its failure reaches is judged as any
// other's.
//
// Not a renewal: a loop that retries until the lock is taken (the lock is
// not held when the goroutine starts, or the loop ends once the lock is
// taken), a ping (SELECT 1, PingContext) that does not take the lock
// again, a loop that takes another lock.

// findReacquires returns, as renewals, the session-lock acquisitions that a
// goroutine repeats on a timer (in the function the go statement starts or
// in one that function calls) while the goroutine's creator holds the same
// lock.
func (b *builder) findReacquires(found map[ssa.CallInstruction]bool) []*Renewal {
	var renewals []*Renewal
	byCall := make(map[ssa.CallInstruction]*Renewal)
	n := b.newNotifier()
	n.strict = true
	for _, call := range b.calls {
		g, ok := call.(*ssa.Go)
		if !ok {
			continue
		}
		started := funcValue(g.Call.Value)
		if started == nil || !b.inPackage(started) {
			continue
		}
		var held leaseSet
		for _, site := range append([]callSite{{started, nil}}, b.calledBy(started)...) {
			for _, c := range b.timedAcquires(site.fn) {
				if held == nil {
					held = b.heldBefore(g)
				}
				if !heldSame(held, c.call, c.system, bindings(site)) {
					continue
				}
				if r := byCall[c.call]; r != nil {
					r.Goes = append(r.Goes, g)
					continue
				}
				if found[c.call] {
					continue // a catalogued renewal
				}
				r := n.reacquire(site.fn, c.call, c.system, c.what)
				r.Goes = []ssa.CallInstruction{g}
				renewals = append(renewals, r)
				byCall[c.call] = r
			}
		}
	}
	renewals = append(renewals, b.methodReacquires(n, found, byCall)...)
	for _, r := range renewals {
		found[r.Call] = true
	}
	return renewals
}

// methodReacquires returns, as renewals, the session-lock acquisitions
// that an exported method repeats on a timer on its own receiver's lock
// (l.getLock(ctx), or GET_LOCK on l.conn, in Lock.KeepAlive, itself or in
// a function it calls once). Whether the lock is held when a goroutine
// runs the method is judged where the go statement is, in the package
// that starts it (Goroutine.RecvLeases).
func (b *builder) methodReacquires(n *notifier, found map[ssa.CallInstruction]bool, byCall map[ssa.CallInstruction]*Renewal) []*Renewal {
	var renewals []*Renewal
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || !obj.Exported() || fn.Signature.Recv() == nil || len(fn.Params) == 0 {
			continue
		}
		for _, site := range append([]callSite{{fn, nil}}, b.calledBy(fn)...) {
			params := bindings(site)
			if site.fn != fn && params == nil {
				continue
			}
			for _, c := range b.timedAcquires(site.fn) {
				if !onValue(callRecv(c.call.Common()), fn.Params[0], params) {
					continue
				}
				if r := byCall[c.call]; r != nil {
					r.Method = fn
					continue
				}
				if found[c.call] {
					continue
				}
				r := n.reacquire(site.fn, c.call, c.system, c.what)
				r.Method = fn
				renewals = append(renewals, r)
				byCall[c.call] = r
			}
		}
	}
	return renewals
}

// onValue reports whether v is recv, or a field of it (l.conn), params
// binding the parameters of v's function.
func onValue(v ssa.Value, recv *ssa.Parameter, params map[*ssa.Parameter]ssa.Value) bool {
	is := func(x ssa.Value) bool {
		x = unwrap(x)
		if p, ok := x.(*ssa.Parameter); ok && params[p] != nil {
			x = unwrap(params[p])
		}
		return x == recv
	}
	switch x := unwrap(v).(type) {
	case nil:
		return false
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return is(fa.X)
		}
	case *ssa.Field:
		return is(x.X)
	}
	return is(v)
}

// recvLeases returns the MySQL and PostgreSQL leases held at g, a go
// statement that runs a method of another package, that were taken
// through the same receiver (go lk.KeepAlive(ctx) after lk.Lock(ctx)).
func (b *builder) recvLeases(g *ssa.Go) []*Lease {
	callee := g.Call.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || b.inPackage(callee) {
		return nil
	}
	recv := callRecv(&g.Call)
	var leases []*Lease
	for _, l := range b.heldBefore(g) {
		if (l.System == MySQL || l.System == Postgres) && l.Holder != nil && sameLockValue(l.Holder, recv, nil, 0) {
			leases = append(leases, l)
		}
	}
	return leases
}

// calledBy returns the package's functions fn calls directly, each with
// its call when fn calls it once.
func (b *builder) calledBy(fn *ssa.Function) []callSite {
	var callees []callSite
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			f := Callee(call.Common())
			if f == nil || f == fn || !b.inPackage(f) {
				continue
			}
			if i := slices.IndexFunc(callees, func(s callSite) bool { return s.fn == f }); i >= 0 {
				callees[i].call = nil // called twice: its parameters are not one value
				continue
			}
			callees = append(callees, callSite{f, call})
		}
	}
	return callees
}

// bindings maps the parameters of the function a call site calls to the
// arguments the call passes, or is nil.
func bindings(site callSite) map[*ssa.Parameter]ssa.Value {
	if site.call == nil {
		return nil
	}
	args := site.call.Common().Args
	if len(args) != len(site.fn.Params) {
		return nil
	}
	m := make(map[*ssa.Parameter]ssa.Value, len(args))
	for i, p := range site.fn.Params {
		m[p] = args[i]
	}
	return m
}

// A timedAcquire is a call in a loop that waits on a clock that takes a
// session advisory lock.
type timedAcquire struct {
	call   *ssa.Call
	system System
	what   string
}

// timedAcquires returns the calls of fn that take a session advisory lock
// in a loop that waits on a clock.
func (b *builder) timedAcquires(fn *ssa.Function) []timedAcquire {
	var out []timedAcquire
	for _, blk := range fn.Blocks {
		if !inLoop(blk) {
			continue
		}
		for _, instr := range blk.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if system, what, ok := b.sessionAcquire(c); ok && timedLoop(blk) && !leavesOnSuccess(c) {
				out = append(out, timedAcquire{c, system, what})
			}
		}
	}
	return out
}

// sessionAcquire reports whether c takes a session advisory lock: SQL that
// calls GET_LOCK or pg_(try_)advisory_lock on every path, or a function
// whose role says it acquires a MySQL or PostgreSQL lock.
func (b *builder) sessionAcquire(c *ssa.Call) (System, string, bool) {
	cc, ok := b.resolve(c.Common())
	if !ok {
		return "", "", false
	}
	if cc.role&(RoleAcquire|RoleTryAcquire) != 0 && (cc.system == MySQL || cc.system == Postgres) {
		return cc.system, cc.what, true
	}
	if !sendsSQL(cc.api) {
		return "", "", false
	}
	switch fname := b.sqlLocksOf(c.Common(), cc.api).acquire; fname {
	case "get_lock", "pg_advisory_lock", "pg_try_advisory_lock":
		if fname == "get_lock" {
			fname = "GET_LOCK"
		}
		return sqlLockSystem(strings.ToLower(fname)), fname, true
	}
	return "", "", false
}

// heldSame reports whether held has a lease of system taken by a call that
// takes the same lock as c: the same function or method, on the same
// receiver, with the same arguments (contexts aside). params binds the
// parameters of c's function to the values they hold, when known.
func heldSame(held leaseSet, c *ssa.Call, system System, params map[*ssa.Parameter]ssa.Value) bool {
	for _, l := range held {
		prev, ok := l.Call.(*ssa.Call)
		if ok && prev != c && l.System == system && sameLockCall(prev.Common(), c.Common(), params) {
			return true
		}
	}
	return false
}

// sameLockCall reports whether x and y call the same function with the
// same values, contexts aside; params binds parameters read in y.
func sameLockCall(x, y *ssa.CallCommon, params map[*ssa.Parameter]ssa.Value) bool {
	same := func(a, b ssa.Value) bool { return sameLockValue(a, b, params, 0) }
	switch {
	case x.IsInvoke() != y.IsInvoke():
		return false
	case x.IsInvoke():
		if x.Method != y.Method || !same(x.Value, y.Value) {
			return false
		}
	default:
		if f := Callee(x); f == nil || f != Callee(y) {
			return false
		}
	}
	if len(x.Args) != len(y.Args) {
		return false
	}
	for i := range x.Args {
		if !isContext(x.Args[i].Type()) && !same(x.Args[i], y.Args[i]) {
			return false
		}
	}
	return true
}

// sameLockValue reports whether x and y are the same value, as far as it
// can tell: the same constant, or loads of the same variable or field, a
// closure's free variable being the value bound where the closure is made
// and a parameter of y's function the value params binds it to (l.name in
// a method called as lock.keepAlive() reads the field of lock).
func sameLockValue(x, y ssa.Value, params map[*ssa.Parameter]ssa.Value, depth int) bool {
	x, y = boundTo(unwrap(x)), boundTo(unwrap(y))
	if p, ok := y.(*ssa.Parameter); ok && params[p] != nil {
		y = boundTo(unwrap(params[p]))
	}
	switch {
	case x == nil || y == nil: // a free variable bound more than once
		return false
	case x == y:
		return true
	case depth > 6:
		return false
	}
	same := func(a, b ssa.Value) bool { return sameLockValue(a, b, params, depth+1) }
	switch x := x.(type) {
	case *ssa.Const:
		yc, ok := y.(*ssa.Const)
		if !ok || !types.Identical(x.Type(), yc.Type()) {
			return false
		}
		if x.Value == nil || yc.Value == nil {
			return x.Value == yc.Value
		}
		return constant.Compare(x.Value, token.EQL, yc.Value)
	case *ssa.UnOp:
		yu, ok := y.(*ssa.UnOp)
		return ok && x.Op == yu.Op && x.Op == token.MUL && same(x.X, yu.X)
	case *ssa.FieldAddr:
		yf, ok := y.(*ssa.FieldAddr)
		return ok && x.Field == yf.Field && same(x.X, yf.X)
	case *ssa.Field:
		yf, ok := y.(*ssa.Field)
		return ok && x.Field == yf.Field && same(x.X, yf.X)
	}
	return false
}

// boundTo returns, for a closure's free variable, the value bound to it
// where the closure is made, following enclosing closures; v otherwise.
func boundTo(v ssa.Value) ssa.Value {
	for range 4 {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		if v = freeVarBinding(fv); v == nil {
			return nil
		}
	}
	return v
}

// timedLoop reports whether the loop blk lies in waits on a clock: it
// sleeps, or receives from a channel of time.Time (a Ticker's or Timer's
// C, time.After, time.Tick).
func timedLoop(blk *ssa.BasicBlock) bool {
	for _, other := range blk.Parent().Blocks {
		if other != blk && !(reaches(blk.Succs, other) && reaches(other.Succs, blk)) {
			continue
		}
		for _, instr := range other.Instrs {
			if waitsOnClock(instr) {
				return true
			}
		}
	}
	return false
}

// waitsOnClock reports whether instr sleeps or waits for a time.Time.
func waitsOnClock(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.Call:
		f := x.Common().StaticCallee()
		return f != nil && f.Name() == "Sleep" && calleePkg(f) == "time"
	case *ssa.UnOp:
		return x.Op == token.ARROW && isClockChan(x.X.Type())
	case *ssa.Select:
		for _, st := range x.States {
			if st.Dir == types.RecvOnly && isClockChan(st.Chan.Type()) {
				return true
			}
		}
	}
	return false
}

// isClockChan reports whether t is a channel of time.Time.
func isClockChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	return ok && isNamed(ch.Elem(), "time", "Time")
}

// reacquire describes a repeated acquisition of a session lock in fn as a
// renewal. Its failure is what the call returns and, for a query whose row
// is scanned (QueryRowContext(...).Scan(&got)), the error Scan returns.
func (n *notifier) reacquire(fn *ssa.Function, call *ssa.Call, system System, what string) *Renewal {
	r := &Renewal{Call: call, Pos: call.Pos(), Fn: fn, System: system, What: what, InLoop: true, Reacquire: true}
	p := n.scan(fn, call.Block())
	for _, f := range failureResults(call) {
		p.failure(f.value, f.sense)
	}
	for _, err := range scanErrors(call) {
		p.failure(err, failNonNil)
	}
	r.Notifies, r.Returns = p.notifies, p.returns
	r.ErrorUsed = r.Notifies || r.Returns && !n.goOnly(fn)
	return r
}

// scanErrors returns the errors of the Scan calls made on row.
func scanErrors(row *ssa.Call) []ssa.Value {
	var errs []ssa.Value
	for _, ref := range *row.Referrers() {
		scan, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		c := scan.Common()
		onRow := c.IsInvoke() && c.Value == row || !c.IsInvoke() && len(c.Args) > 0 && c.Args[0] == row
		if fn := calleeFunc(c); !onRow || fn == nil || fn.Name() != "Scan" {
			continue
		}
		for _, f := range failureResults(scan) {
			if isErrorType(f.value.Type()) {
				errs = append(errs, f.value)
			}
		}
	}
	return errs
}

// recordsFailure reports whether a store, in strict mode, tells the work
// of a failure: it keeps an error, a flag or a constant (a state) where
// code other than the renewing goroutine reads it. The rest is the lock's
// own upkeep: the new connection a reconnect stores, the error a retry
// tests.
func (n *notifier) recordsFailure(st *ssa.Store) bool {
	v := unwrap(st.Val)
	_, isConst := v.(*ssa.Const)
	if !isErrorType(v.Type()) && !isBoolType(v.Type()) && !(isConst && !v.(*ssa.Const).IsNil()) {
		return false
	}
	alloc := capturedCell(st.Addr)
	return alloc == nil || readOutside(alloc, st.Parent())
}

// capturedCell returns the variable addr denotes when it is a local variable
// captured by closures (a free variable of the storing closure), or nil.
func capturedCell(addr ssa.Value) *ssa.Alloc {
	switch x := addr.(type) {
	case *ssa.Alloc:
		return x
	case *ssa.FreeVar:
		alloc, _ := boundTo(x).(*ssa.Alloc)
		return alloc
	}
	return nil
}

// readOutside reports whether the variable alloc is read by a closure other
// than storer, or by its own function after storer's closure is made: only
// then can what storer stores reach anyone. A variable whose reads it
// cannot place counts as read.
func readOutside(alloc *ssa.Alloc, storer *ssa.Function) bool {
	var made []*ssa.MakeClosure
	for _, ref := range *alloc.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok {
			if mc.Fn != storer {
				return true
			}
			made = append(made, mc)
		}
	}
	if len(made) == 0 {
		return true // stored in its own function, or by a closure nested deeper
	}
	for _, ref := range *alloc.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, mc := range made {
			if runsAfter(mc, load) {
				return true
			}
		}
	}
	return false
}

// runsAfter reports whether later can run after first, in one function.
func runsAfter(first, later ssa.Instruction) bool {
	if first.Block() == later.Block() {
		for _, instr := range first.Block().Instrs {
			if instr == first {
				return true
			}
			if instr == later {
				return inLoop(first.Block())
			}
		}
	}
	return reaches(first.Block().Succs, later.Block())
}

// leavesOnSuccess reports whether the loop around call ends once call
// succeeds (its error is nil, or the error of the Scan of its row, then
// maybe one more test of what was scanned): a loop that retries until the
// lock is taken, which is acquiring, not renewing.
func leavesOnSuccess(call *ssa.Call) bool {
	for _, err := range append(errorResults(call), scanErrors(call)...) {
		for _, v := range append([]ssa.Value{err}, reloads(err)...) {
			for _, ref := range *v.Referrers() {
				cmp, ok := ref.(*ssa.BinOp)
				if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !comparesNil(cmp) {
					continue
				}
				for _, r := range *cmp.Referrers() {
					ifInstr, ok := r.(*ssa.If)
					if !ok {
						continue
					}
					ok2 := ifInstr.Block().Succs[0] // cmp true
					if cmp.Op == token.NEQ {
						ok2 = ifInstr.Block().Succs[1]
					}
					if leaves(ok2, call.Block(), 1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// errorResults returns the error results of call that are used.
func errorResults(call *ssa.Call) []ssa.Value {
	var errs []ssa.Value
	for _, f := range failureResults(call) {
		if isErrorType(f.value.Type()) {
			errs = append(errs, f.value)
		}
	}
	return errs
}

// reloads returns the loads, later in its block, of a variable v is
// stored into (if err = l.relock(); err == nil, with err captured).
func reloads(v ssa.Value) []ssa.Value {
	var loads []ssa.Value
	for _, ref := range *v.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		after := false
		for _, instr := range st.Block().Instrs {
			if load, ok := instr.(*ssa.UnOp); after && ok && load.Op == token.MUL && load.X == st.Addr {
				loads = append(loads, load)
			}
			after = after || instr == st
		}
	}
	return loads
}

// comparesNil reports whether cmp compares something with nil.
func comparesNil(cmp *ssa.BinOp) bool {
	for _, x := range []ssa.Value{cmp.X, cmp.Y} {
		if c, ok := x.(*ssa.Const); ok && c.IsNil() {
			return true
		}
	}
	return false
}

// leaves reports whether from, a block the call in loop leads to, cannot
// reach loop again, or, within depth more tests the call's block
// dominates (err == nil && got == 1), one of its branches cannot.
func leaves(from, loop *ssa.BasicBlock, depth int) bool {
	if from == loop {
		return false
	}
	if !reaches([]*ssa.BasicBlock{from}, loop) {
		return true
	}
	if _, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If); !ok || depth == 0 || !loop.Dominates(from) {
		return false
	}
	for _, succ := range from.Succs {
		if leaves(succ, loop, depth-1) {
			return true
		}
	}
	return false
}

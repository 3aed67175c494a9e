package lease

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Lease regions are computed per function by a forward may-analysis over
// the SSA control-flow graph. The state at a point is the set of leases
// that may be held there: an acquiring call adds its lease, a release
// (not deferred: a deferred release runs at return) removes it, and on the
// edge where an acquisition is seen to fail (err != nil, !ok) its lease is
// dropped. A function the library runs while the lease is held starts with
// that lease; a closure starts with what its creator held where it made it.

// leaseSet is the set of leases that may be held, in acquisition order.
type leaseSet []*Lease

func (s leaseSet) with(l *Lease) leaseSet {
	if slices.Contains(s, l) {
		return s
	}
	return append(s[:len(s):len(s)], l)
}

func (s leaseSet) without(drop func(*Lease) bool) leaseSet {
	var out leaseSet
	for _, l := range s {
		if !drop(l) {
			out = append(out, l)
		}
	}
	return out
}

func (s leaseSet) union(t leaseSet) leaseSet {
	for _, l := range t {
		s = s.with(l)
	}
	return s
}

func (s leaseSet) equal(t leaseSet) bool {
	if len(s) != len(t) {
		return false
	}
	for _, l := range s {
		if !slices.Contains(t, l) {
			return false
		}
	}
	return true
}

// regions holds the lease states of every function of the package.
type regions struct {
	in      map[*ssa.BasicBlock]leaseSet // state on entry to each block
	entry   map[*ssa.Function]leaseSet   // state on entry to callbacks and closures
	byCall  map[ssa.CallInstruction]*Lease
	checked map[*ssa.BasicBlock]leaseSet // leases opened by positive validity checks
	// handed holds the leases a function value starts with because of
	// one instruction that hands it over (a helper's callback argument, a
	// library callback field): the paths through that instruction.
	handed map[handOff]leaseSet
	// leaseOnly holds the leases a function called only under them was
	// entered with (leaseonly.go).
	leaseOnly map[*ssa.Function]leaseSet
	// paths caches each function's lease states path by path (paths.go).
	paths map[*ssa.Function]*pathStates
	// carried holds the leases that values of a struct type carry over a
	// channel to the goroutine that receives them (handoff.go).
	carried map[*types.Named]*Lease
	// received holds, by function, the receives of work that every send
	// made under a lease (chanwork.go).
	received map[*ssa.Function][]chanWork
}

// A handOff is an instruction that hands fn over to run under a lease.
type handOff struct {
	at ssa.Instruction
	fn *ssa.Function
}

// hand records that at hands fn over to run under l, and gives fn l on
// entry.
func (r *regions) hand(at ssa.Instruction, fn *ssa.Function, l *Lease) {
	key := handOff{at, fn}
	r.handed[key] = r.handed[key].with(l)
	r.entry[fn] = r.entry[fn].with(l)
}

// findLeases computes the lease regions of every function and fills
// Model.Leases with the leases that open them.
func (b *builder) findLeases() {
	b.regions = &regions{
		in:        make(map[*ssa.BasicBlock]leaseSet),
		entry:     make(map[*ssa.Function]leaseSet),
		byCall:    make(map[ssa.CallInstruction]*Lease),
		checked:   make(map[*ssa.BasicBlock]leaseSet),
		handed:    make(map[handOff]leaseSet),
		leaseOnly: make(map[*ssa.Function]leaseSet),
		paths:     make(map[*ssa.Function]*pathStates),
		carried:   make(map[*types.Named]*Lease),
		received:  make(map[*ssa.Function][]chanWork),
	}
	b.findCallbacks()
	b.enterHandedFuncs()
	b.findPipelines()
	b.addCheckedRegions()
	for _, fn := range b.funcs { // parents come before their closures
		b.flow(fn)
	}
	b.findHandOffs()
	b.findLockObjects()
	b.propagateCallbacks()
	b.enterLeaseOnlyCallees()
	b.findChannelWork()
	slices.SortStableFunc(b.model.Leases, func(x, y *Lease) int { return int(x.Pos - y.Pos) })
}

// addLease records a new lease.
func (b *builder) addLease(l *Lease) *Lease {
	b.model.Leases = append(b.model.Leases, l)
	return l
}

// findCallbacks gives each function that a library runs while a lease is
// held (leaderelection's OnStartedLeading, a gocron task of a scheduler with
// a distributed locker or elector) that lease on entry.
func (b *builder) findCallbacks() {
	elected := b.usesRole(RoleElect)
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					b.callbackField(x)
					b.handlerField(x)
				case *ssa.MapUpdate:
					b.callbackField(x)
				case *ssa.Call:
					b.callbackTask(fn, x, elected)
					b.handlerCall(x)
				}
			}
		}
	}
}

// callbackField handles cb.OnStartedLeading = func(ctx) {...}, and the
// same stored in an application's own callback field (cbfields.go).
func (b *builder) callbackField(instr ssa.Instruction) {
	vals, cp, ok := b.storedCallback(instr)
	if !ok {
		return
	}
	for _, v := range vals {
		target := callbackFunc(v) // a method value runs the method
		if target == nil {
			continue
		}
		l := b.addLease(&Lease{Kind: InCallback, System: cp.system, Pos: v.Pos(), Fn: target, What: cp.what})
		if l.Pos == token.NoPos {
			l.Pos = instr.Pos()
		}
		b.regions.hand(instr, target, l)
	}
}

// callbackTask handles gocron.NewTask(func() {...}) scheduled under a
// distributed locker or elector.
func (b *builder) callbackTask(fn *ssa.Function, call *ssa.Call, elected bool) {
	if !b.lockedTask(call, elected) {
		return
	}
	task := arg(call.Common(), 0)
	if target := taskFunc(task); target != nil && (funcValue(task) != nil || b.onlyLockedTasks(target, elected)) {
		l := b.addLease(&Lease{Kind: InCallback, System: Gocron, Pos: call.Pos(), Fn: target,
			What: "the gocron job's distributed lock"})
		b.regions.hand(call, target, l)
	}
}

// taskFunc returns the function a task value runs: a function or closure,
// or the closure that a factory of the package always returns
// (gocron.NewTask(j.task(log)), whose task wraps the job's own func with
// a timeout).
func taskFunc(v ssa.Value) *ssa.Function {
	if fn := funcValue(v); fn != nil {
		return fn
	}
	call, ok := unwrap(v).(*ssa.Call)
	if !ok {
		return nil
	}
	return alwaysReturned(call.Call.StaticCallee(), func(r ssa.Value) *ssa.Function {
		if mc, ok := unwrap(r).(*ssa.MakeClosure); ok {
			return mc.Fn.(*ssa.Function)
		}
		return nil
	})
}

// onlyLockedTasks reports whether every gocron task of the package that
// runs fn runs under a distributed locker or elector: a factory's closure
// is one function whatever job it is made for, and a job on a scheduler
// with no lock may run it too.
func (b *builder) onlyLockedTasks(fn *ssa.Function, elected bool) bool {
	locked := true
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := call.(*ssa.Call)
		if ok && b.isGocronTask(c) && taskFunc(arg(c.Common(), 0)) == fn && !b.taskLocked(c, elected) {
			locked = false
		}
		return locked
	})
	return locked
}

// lockedTask reports whether call is a gocron.NewTask whose task runs
// under a distributed locker or elector.
func (b *builder) lockedTask(call *ssa.Call, elected bool) bool {
	return b.isGocronTask(call) && b.taskLocked(call, elected)
}

// isGocronTask reports whether call is a gocron.NewTask.
func (b *builder) isGocronTask(call *ssa.Call) bool {
	c, ok := b.resolve(call.Common())
	return ok && c.api != nil && c.role.Has(RoleCallback) && c.system == Gocron
}

// findTaskFields records the package's func-valued fields whose value a
// locked gocron task runs (gocron.NewTask(t.fn), ranging over the tasks a
// worker registered with addTask(&task{fn: app.StorageGc})): they are
// callback fields like OnStartedLeading, and what is stored there runs
// under the job's lock (cbfields.go). A field that also feeds a task with
// no lock is not one: which of its values runs locked is not told.
func (b *builder) findTaskFields() {
	elected := b.usesRole(RoleElect)
	locked := make(map[*types.Var]bool)
	var order []*types.Var
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := call.(*ssa.Call)
		if !ok || !b.isGocronTask(c) {
			return true
		}
		fv := loadedField(arg(c.Common(), 0))
		if fv == nil || fv.Pkg() != b.pass.Pkg {
			return true
		}
		if _, seen := locked[fv]; !seen {
			order = append(order, fv)
			locked[fv] = true
		}
		locked[fv] = locked[fv] && b.taskLocked(c, elected)
		return true
	})
	for _, fv := range order {
		if locked[fv] && b.cbFields[fv] == nil {
			b.cbFields[fv] = &CallbackFieldFact{System: Gocron, What: "the gocron job's distributed lock"}
		}
	}
}

// taskLocked reports whether the gocron task that call registers (v2's
// NewTask, v1's Do) runs under a distributed lock.
func (b *builder) taskLocked(call *ssa.Call, elected bool) bool {
	if isV1Do(call) {
		return b.v1DoLocked(call, elected)
	}
	return v2TaskLocked(call, elected)
}

// v2TaskLocked reports whether the gocron task made by newTask runs under a
// distributed lock: its job has WithDistributedJobLocker, or its scheduler
// was made with WithDistributedLocker or WithDistributedElector, and the
// job does not opt out. When the job or scheduler is made out of sight,
// elected (the package configures a locker or elector somewhere) decides.
func v2TaskLocked(newTask *ssa.Call, elected bool) bool {
	job := jobOf(newTask)
	if job == nil {
		return elected
	}
	opts, ok := variadic(arg(job.Common(), 2))
	if !ok {
		return elected
	}
	for _, o := range opts {
		switch gocronOption(o) {
		case "WithDisabledDistributedJobLocker":
			if on, ok := constBool(arg(producer(o).Common(), 0)); !ok || on {
				return false
			}
		case "WithDistributedJobLocker":
			return true
		}
	}
	sched := producer(callRecv(job.Common()))
	if sched == nil || gocronOption(sched) != "NewScheduler" {
		return elected
	}
	sopts, ok := variadic(arg(sched.Common(), 0))
	if !ok {
		return elected
	}
	for _, o := range sopts {
		if name := gocronOption(o); name == "WithDistributedLocker" || name == "WithDistributedElector" {
			return true
		}
	}
	return false
}

// jobOf returns the NewJob (or Update) call that schedules the task.
func jobOf(task *ssa.Call) *ssa.Call {
	for _, ref := range *task.Referrers() {
		if c, ok := ref.(*ssa.Call); ok {
			if f := calleeFunc(c.Common()); f != nil && (f.Name() == "NewJob" || f.Name() == "Update") {
				return c
			}
		}
	}
	return nil
}

// gocronOption names the gocron function that produced v, or "".
func gocronOption(v ssa.Value) string {
	p := producer(v)
	if p == nil {
		return ""
	}
	f := calleeFunc(p.Common())
	if f == nil || f.Pkg() == nil || CanonicalPath(f.Pkg().Path()) != pkgGocron {
		return ""
	}
	return f.Name()
}

// constBool returns the value of a boolean constant.
func constBool(v ssa.Value) (bool, bool) {
	c, ok := unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}

// usesRole reports whether the package calls any API with role.
func (b *builder) usesRole(role Role) bool {
	found := false
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := b.resolve(call.Common())
		found = ok && c.role.Has(role)
		return !found
	})
	return found
}

// funcValue returns the function a func-typed value denotes, if static.
func funcValue(v ssa.Value) *ssa.Function {
	switch x := unwrap(v).(type) {
	case *ssa.Function:
		return x
	case *ssa.MakeClosure:
		return x.Fn.(*ssa.Function)
	}
	return nil
}

// flow runs the may-held analysis over fn's blocks.
func (b *builder) flow(fn *ssa.Function) {
	if len(fn.Blocks) == 0 {
		return
	}
	r := b.regions
	r.in[fn.Blocks[0]] = r.entry[fn]
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	queued := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	for len(work) > 0 {
		blk := work[0]
		work = work[1:]
		queued[blk] = false
		out := b.transferBlock(blk, r.in[blk].union(r.checked[blk]))
		for i, succ := range blk.Succs {
			s := b.refineEdge(blk, i, out)
			merged := r.in[succ].union(s)
			if _, seen := r.in[succ]; seen && merged.equal(r.in[succ]) {
				continue
			}
			r.in[succ] = merged
			if !queued[succ] {
				queued[succ] = true
				work = append(work, succ)
			}
		}
	}
	// Closures start with what was held where they were made, and so do
	// function literals that capture nothing (an operand of their own,
	// not a MakeClosure): concurrency.NewSTM(cli, func(stm STM) error {
	// stm.Put("/stats/runs", ...) }).
	var ops []*ssa.Value
	for _, blk := range fn.Blocks {
		state := r.in[blk].union(r.checked[blk])
		for _, instr := range blk.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok {
				b.enterLiteral(mc.Fn.(*ssa.Function), state)
			} else {
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if lit, ok := (*op).(*ssa.Function); ok && lit.Parent() == fn {
						b.enterLiteral(lit, state)
					}
				}
			}
			state = b.transfer(instr, state)
		}
	}
}

// enterLiteral gives the function literal target the leases held where
// it is made, but the one a goroutine it runs as takes itself.
func (b *builder) enterLiteral(target *ssa.Function, held leaseSet) {
	if name := b.goroutineLock(target); name != "" {
		held = held.without(func(l *Lease) bool { return l.What == name })
	}
	b.regions.entry[target] = b.regions.entry[target].union(held)
}

// transferBlock applies every instruction of blk to state.
func (b *builder) transferBlock(blk *ssa.BasicBlock, state leaseSet) leaseSet {
	for _, instr := range blk.Instrs {
		state = b.transfer(instr, state)
	}
	return state
}

// heldBefore returns the leases that may be held just before instr.
func (b *builder) heldBefore(instr ssa.Instruction) leaseSet {
	blk := instr.Block()
	if blk == nil || b.regions == nil {
		return nil
	}
	state := b.regions.in[blk].union(b.regions.checked[blk])
	for _, x := range blk.Instrs {
		if x == instr {
			return state
		}
		state = b.transfer(x, state)
	}
	return state
}

// transfer applies one instruction: acquisitions add, releases remove.
func (b *builder) transfer(instr ssa.Instruction, state leaseSet) leaseSet {
	call, ok := instr.(*ssa.Call)
	if !ok {
		if l := b.carriedBy(instr); l != nil {
			return state.with(l) // a lock handed over with the value received
		}
		if v, ok := instr.(ssa.Value); ok {
			if l := b.awaitedBy(v); l != nil {
				return state.with(l) // an acquire's result, awaited from its goroutine
			}
		}
		return state
	}
	c, ok := b.resolve(call.Common())
	if !ok {
		return state
	}
	switch {
	case c.role&(RoleAcquire|RoleTryAcquire) != 0:
		return state.with(b.leaseAt(call, c))
	case c.role.Has(RoleRelease) && c.acquiredBy != nil:
		if l := b.regions.byCall[c.acquiredBy]; l != nil && slices.Contains(state, l) {
			return state.without(func(x *Lease) bool { return x == l })
		}
		return state.release(c, nil)
	case c.role.Has(RoleRelease):
		return state.release(c, callRecv(call.Common()))
	case c.api != nil && c.api.System == Redis && deletes(call.Common(), c.api):
		return b.deleteLockKeys(call.Common(), state)
	case sendsSQL(c.api):
		return b.sqlLockOps(call, c, state)
	}
	return state
}

// deleteLockKeys drops from state the SET NX locks whose keys call, a
// DEL, deletes: a hand-rolled lock let go where it is taken
// (SetNX(ctx, key, ...), the work, Del(ctx, key), then writes under no
// lease).
func (b *builder) deleteLockKeys(call *ssa.CallCommon, state leaseSet) leaseSet {
	keys := redisKeyArgs(call)
	return state.without(func(l *Lease) bool {
		if l.System != Redis || l.Call == nil {
			return false
		}
		lk := b.redisLockKey(l.Call.Common())
		return lk != nil && slices.ContainsFunc(keys, func(k ssa.Value) bool { return b.sameKey(k, lk) })
	})
}

// leaseAt returns the lease acquired by call, made once per call site.
func (b *builder) leaseAt(call ssa.CallInstruction, c callee) *Lease {
	if l := b.regions.byCall[call]; l != nil {
		return l
	}
	kind := Acquired
	if c.api == nil {
		kind = Declared
	}
	holder := callRecv(call.Common())
	if c.session > 0 {
		holder = b.sessionValue(arg(call.Common(), c.session-1)) // the session an advisory-lock wrapper locks on
	}
	l := b.addLease(&Lease{Kind: kind, System: c.system, Pos: call.Pos(), Fn: call.Parent(), Call: call,
		Holder: holder, What: leaseName(c), Claim: c.claim})
	if l.Holder != nil {
		l.From = b.leaseFrom(l.Holder)
	}
	b.regions.byCall[call] = l
	return l
}

// leaseName names a lease in diagnostics: "the etcd lock taken by Mutex.Lock".
func leaseName(c callee) string {
	if c.system == "" {
		return "the lease taken by " + c.what
	}
	return fmt.Sprintf("the %s lock taken by %s", c.system, c.what)
}

// release drops the leases a release call gives up: those of the same lock
// object if it can be told, else those of the same system, else the last.
func (s leaseSet) release(c callee, recv ssa.Value) leaseSet {
	if recv != nil {
		if out := s.without(func(l *Lease) bool { return l.Holder != nil && unwrap(l.Holder) == unwrap(recv) }); len(out) < len(s) {
			return out
		}
	}
	if c.system != "" {
		if out := s.without(func(l *Lease) bool { return l.System == c.system && l.Kind != InCallback }); len(out) < len(s) {
			return out
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].Kind == Acquired || s[i].Kind == Declared {
			return slices.Delete(slices.Clone(s), i, i+1)
		}
	}
	return s
}

// sqlLockOps applies the advisory-lock calls in SQL text: a session lock
// (pg_advisory_lock, pg_try_advisory_lock, MySQL GET_LOCK) opens a lease that
// lives as long as the connection; a transaction lock on a Tx opens one that
// lives as long as the transaction; the unlock functions close them.
func (b *builder) sqlLockOps(call *ssa.Call, c callee, state leaseSet) leaseSet {
	locks := b.sqlLocksOf(call.Common(), c.api)
	switch locks.acquire {
	case "":
	case "pg_advisory_xact_lock", "pg_try_advisory_xact_lock":
		if isTx(b.sessionValue(sqlSession(call.Common(), c.api))) {
			state = state.with(b.sqlLease(call, c, locks.acquire, false))
		}
	default:
		state = state.with(b.sqlLease(call, c, locks.acquire, true))
	}
	for _, name := range locks.releases {
		state = state.without(func(l *Lease) bool { return l.Kind == Acquired && l.System == sqlLockSystem(name) })
	}
	return state
}

// sqlOps says what the SQL text sent by a call does to leases and data.
type sqlOps struct {
	acquires, releases, writes bool
	system                     System
}

// sqlOps reads the SQL a call sends (api.Arg) for advisory-lock calls and
// writes. Unreadable SQL does nothing.
func (b *builder) sqlOps(c *ssa.CallCommon, api *API) sqlOps {
	locks := b.sqlLocksOf(c, api)
	ops := sqlOps{acquires: locks.acquire != "", releases: len(locks.releases) > 0, writes: locks.writes}
	switch {
	case ops.acquires:
		ops.system = sqlLockSystem(locks.acquire)
	case ops.releases:
		ops.system = sqlLockSystem(locks.releases[0])
	}
	return ops
}

// sqlLease returns the lease an advisory-lock call opens, once per call site.
func (b *builder) sqlLease(call *ssa.Call, c callee, fname string, session bool) *Lease {
	if l := b.regions.byCall[call]; l != nil {
		return l
	}
	system := sqlLockSystem(fname)
	what := fmt.Sprintf("the %s advisory lock taken by %s", system, fname)
	if system == MySQL {
		what = "the MySQL lock taken by GET_LOCK"
	}
	l := b.addLease(&Lease{Kind: Acquired, System: system, Pos: call.Pos(), Fn: call.Parent(), Call: call,
		Holder: b.lockSession(sqlSession(call.Common(), c.api), fname), What: what, Session: session})
	b.regions.byCall[call] = l
	return l
}

// sqlLockSystem is the database whose lock function fname is.
func sqlLockSystem(fname string) System {
	switch fname {
	case "get_lock", "release_lock", "release_all_locks":
		return MySQL
	}
	return Postgres
}

// isSession reports whether v is one database session (a connection or a
// transaction), as opposed to a pool (*sql.DB, *pgxpool.Pool) whose calls
// may each run on another connection.
func isSession(v ssa.Value) bool {
	return isSessionType(v.Type()) || isContext(v.Type()) // a context that carries one (ctxsessions.go)
}

// isTx reports whether v is a database transaction (*sql.Tx, pgx.Tx).
func isTx(v ssa.Value) bool {
	return v != nil && (typeName(v.Type()) == "Tx" && pkgPathOf(v.Type()) != "" || isContext(v.Type()))
}

// refineEdge drops, on successor i of blk, the leases whose acquisition is
// seen to have failed there (if err != nil after Lock; if !ok after TryLock).
func (b *builder) refineEdge(blk *ssa.BasicBlock, i int, state leaseSet) leaseSet {
	ifInstr, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok || len(state) == 0 {
		return state
	}
	failed, failEdge := b.failedAcquisition(ifInstr.Cond)
	if failed == nil || failEdge != i {
		return state
	}
	return state.without(func(l *Lease) bool { return l == failed })
}

// failedAcquisition reads an if condition: if it tests the result of an
// acquisition, it returns that lease and the successor (0 true, 1 false)
// taken when the acquisition failed.
func (b *builder) failedAcquisition(cond ssa.Value) (*Lease, int) {
	switch x := cond.(type) {
	case *ssa.BinOp:
		if l, edge, ok := b.failedScriptClaim(x); ok {
			return l, edge
		}
		v, isNil := x.X, isNilConst(x.Y)
		if !isNil {
			v, isNil = x.Y, isNilConst(x.X)
		}
		if !isNil {
			return nil, 0
		}
		// err != nil means the acquisition failed; for a result that is
		// nil when nothing was acquired (Consul's lost channel), == nil does.
		if l := b.acquiredBy(v); l != nil {
			failedIfNil := !isError(v)
			switch {
			case x.Op == token.NEQ && !failedIfNil, x.Op == token.EQL && failedIfNil:
				return l, 0
			case x.Op == token.EQL, x.Op == token.NEQ:
				return l, 1
			}
		}
	case *ssa.UnOp:
		if x.Op == token.NOT {
			if l := b.acquiredBy(x.X); l != nil {
				return l, 0
			}
			return nil, 0
		}
	}
	if isBool(cond) {
		if l := b.acquiredBy(cond); l != nil {
			return l, 1
		}
	}
	return nil, 0
}

// failedScriptClaim reads a test of a lock-claiming script's result (a
// try-acquire by Eval or Script.Run): a result compared with 1 or 0 (the
// script returns 1 on a claim, 0 when the key was taken; res.(int64) and
// Int64() pass the result on), or its error compared with redis.Nil (SET
// NX's nil reply when the key was taken). It returns the lease and the
// successor taken when the claim failed.
func (b *builder) failedScriptClaim(x *ssa.BinOp) (*Lease, int, bool) {
	if x.Op != token.EQL && x.Op != token.NEQ {
		return nil, 0, false
	}
	v, other := x.X, x.Y
	if !isConst(other) && !isRedisNil(other) {
		v, other = x.Y, x.X
	}
	l := b.acquiredBy(assertedFrom(v))
	if l == nil || l.Call == nil || !b.isScriptClaim(l.Call.Common()) {
		return nil, 0, false
	}
	failedIfEqual := false
	switch n, ok := constInt(other); {
	case isRedisNil(other), ok && n == 0:
		failedIfEqual = true
	case ok && n == 1:
	default:
		return nil, 0, false
	}
	if (x.Op == token.EQL) == failedIfEqual {
		return l, 0, true
	}
	return l, 1, true
}

// isScriptClaim reports whether call runs a lock-claiming Redis script.
func (b *builder) isScriptClaim(call *ssa.CallCommon) bool {
	c, ok := b.resolve(call)
	return ok && c.api != nil && c.api.Fence == RedisScript && c.role.Has(RoleTryAcquire)
}

// assertedFrom returns the value a type assertion (res.(int64)) or
// conversion was applied to, or v.
func assertedFrom(v ssa.Value) ssa.Value {
	switch x := unwrap(v).(type) {
	case *ssa.TypeAssert:
		return x.X
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok {
			return ta.X
		}
	case *ssa.Convert:
		return x.X
	}
	return v
}

// isRedisNil reports whether v is go-redis's Nil error (the nil reply), the
// constant proto.RedisError("redis: nil").
func isRedisNil(v ssa.Value) bool {
	c, ok := unwrap(v).(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String && constant.StringVal(c.Value) == "redis: nil" &&
		typeName(c.Type()) == "RedisError"
}

// acquiredBy returns the lease whose acquiring call produced v: the call's
// error or bool result, a result of a method on it (SetNX(...).Result()),
// or a bool scanned from its row (pg_try_advisory_lock).
func (b *builder) acquiredBy(v ssa.Value) *Lease {
	for depth := 0; v != nil && depth < 4; depth++ {
		if l := b.awaitedBy(v); l != nil {
			return l
		}
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if fa, ok := load.X.(*ssa.FieldAddr); ok && fieldName(fa.X.Type(), fa.Field) == "Succeeded" {
				v = fa.X // an etcd Txn's outcome: resp.Succeeded
				continue
			}
			v = scannedFrom(load.X)
			continue
		}
		p := producer(v)
		if p == nil {
			return nil
		}
		if l := b.regions.byCall[p]; l != nil {
			return l
		}
		v = callRecv(p.Common())
	}
	return nil
}

// scannedFrom returns the row whose Scan filled the variable at addr:
// row.Scan(&ok) passes &ok boxed in the ...any slice.
func scannedFrom(addr ssa.Value) ssa.Value {
	for _, call := range callsTaking(addr) {
		if f := calleeFunc(call.Common()); f != nil && f.Name() == "Scan" {
			return callRecv(call.Common())
		}
	}
	return nil
}

// callsTaking returns the calls that take v as an argument, directly or
// boxed in a variadic ...any slice.
func callsTaking(v ssa.Value) []*ssa.Call {
	var calls []*ssa.Call
	var visit func(v ssa.Value, depth int)
	visit = func(v ssa.Value, depth int) {
		refs := v.Referrers()
		if refs == nil || depth > 4 {
			return
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.Call:
				calls = append(calls, r)
			case *ssa.MakeInterface:
				visit(r, depth+1)
			case *ssa.Slice:
				visit(r, depth+1)
			case *ssa.Store:
				if ia, ok := r.Addr.(*ssa.IndexAddr); ok && r.Val == v {
					visit(ia.X, depth+1)
				}
			}
		}
	}
	visit(v, 0)
	return calls
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

func isError(v ssa.Value) bool {
	return types.Identical(v.Type(), types.Universe.Lookup("error").Type())
}

func isBool(v ssa.Value) bool {
	basic, ok := v.Type().Underlying().(*types.Basic)
	return ok && basic.Kind() == types.Bool
}

// markHeld sets Write.Held for every write made while a lease is held. A
// write through the very connection or transaction that holds a PostgreSQL
// or MySQL advisory lock is fenced by it: if the session died, so did the
// lock, and the write fails with it. A pool is not a session.
func (b *builder) markHeld() {
	for _, w := range b.model.Writes {
		b.markWrite(w)
	}
}

func (b *builder) markWrite(w *Write) {
	b.markOnce(w)
	if w.once != oncePerCall {
		w.Held, w.heldOwn = nil, false // a goroutine started once is not work handed over under the lease
		return
	}
	before := b.heldBefore(w.Call)
	for _, l := range b.receivedUnder(w.Call) {
		if !slices.ContainsFunc(before, func(h *Lease) bool { return h.Pos == l.Pos && h.Fn == l.Fn }) {
			before = before.with(l) // work sent under a lease (chanwork.go), unless it is held here anyway
		}
	}
	if w.handedUnder != nil {
		before = before.with(w.handedUnder)
	}
	callers := b.enteredOnly(w, before)
	held := before.without(func(l *Lease) bool {
		return l.OwnStore && lockStore(l.System) != w.System || w.outsideOf != "" && l.What == w.outsideOf ||
			b.unguardedBy(l, w) || slices.Contains(callers, l)
	})
	// A handed-over method's write is made only under the lease it is
	// handed to: its function's callers do not make it.
	w.heldOwn = w.handedUnder != nil && slices.Contains(held, w.handedUnder) || b.heldOnEveryPath(w.Call, held)
	if w.fencedBySession {
		w.Fenced, w.fencedBySession = false, false // judged again: the session may have changed
	}
	recv := b.sessionOf(w)
	for _, l := range held {
		if l.Holder != nil && recv != nil && unwrap(l.Holder) == unwrap(recv) && sessionLockSystem(l.System) && isSession(recv) && !w.Fenced {
			w.Fenced, w.fencedBySession = true, true
		}
	}
	if !w.Fenced && slices.ContainsFunc(held, func(l *Lease) bool { return sessionLockSystem(l.System) }) && b.lockedCopy(recv, 0) {
		w.Fenced, w.fencedBySession = true, true // through a store bound to the lock's session (lockedcopy.go)
	}
	w.Held = b.sameImplLeases(w, held)
	w.heldOwn = w.heldOwn && len(w.Held) > 0
	w.Entered = nil
	if entered := b.regions.leaseOnly[outermost(w.Fn)]; len(entered) > 0 {
		w.Entered = leaseSet(w.Held).without(func(l *Lease) bool { return !slices.Contains(entered, l) })
	}
}

// addCheckedRegions opens a Checked lease in the blocks a positive validity
// check guards (if le.IsLeader() { ... }): the code acts as the holder there.
func (b *builder) addCheckedRegions() {
	for _, cr := range b.checkedRegions() {
		b.addLease(cr.lease)
		for _, blk := range cr.blocks {
			b.regions.checked[blk] = b.regions.checked[blk].with(cr.lease)
		}
	}
}

// A checkedRegion is a lease opened by a positive validity check and the
// blocks where it holds.
type checkedRegion struct {
	lease  *Lease
	blocks []*ssa.BasicBlock
}

// lockStore is the store a lock of system lives in, as writes name it.
func lockStore(system System) System {
	switch system {
	case Postgres, MySQL:
		return SQL
	case Redsync, Redislock, GoZero, Rueidis:
		return Redis
	}
	return system
}

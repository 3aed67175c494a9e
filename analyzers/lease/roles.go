package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"golang.org/x/tools/go/ssa"
)

// A lockRole is the lock role a function of the package plays by wrapping
// lock calls: for which system, learned from which implementation when a
// wrapped call goes through an interface, and how its lock is taken.
type lockRole struct {
	role     Role
	system   System
	dispatch Dispatch
	claim    Claim
	// writesFirst: a release that writes under the lease before it lets
	// go; its calls are writes too.
	writesFirst bool
	// lockParam: as in RoleFact.
	lockParam int
}

// A callee is what a called function means for leases: a catalog row, a
// directive, or a fact learned about a wrapper.
type callee struct {
	fn     *types.Func
	api    *API // the catalog row, if the callee is catalogued
	role   Role
	system System
	what   string // "Mutex.Lock", "acquireLock"
	held   HeldRule
	// dispatch names the implementation the role was learned from, for a
	// call through an interface (or a wrapper of one).
	dispatch Dispatch
	// acquiredBy is, for a call of the release func an acquire returned,
	// the acquiring call: the lease it opened is the one let go.
	acquiredBy ssa.CallInstruction
	// claim says how an acquire takes its lock, where that changes how a
	// write under it is fenced (a hand-rolled etcd lock).
	claim Claim
	// session is, for an acquire wrapper of a database advisory lock, the
	// parameter (1-based, receiver excluded) whose session holds the lock.
	session int
	// writesFirst: as in RoleFact.
	writesFirst bool
}

// resolve returns what call invokes, as far as leases go.
func (b *builder) resolve(call *ssa.CallCommon) (callee, bool) {
	c, ok := b.resolveCallee(call)
	if ok && c.system == Redis && c.role&(RoleAcquire|RoleTryAcquire) != 0 && claimsWithDocument(call) {
		// SET NX of an encoded record creates it once: no lock
		c.role = RoleFenced
	}
	return c, ok
}

// resolvedCalls yields the calls of fn (call, go, defer) that resolve,
// with what each invokes.
func (b *builder) resolvedCalls(fn *ssa.Function) iter.Seq2[ssa.CallInstruction, callee] {
	return func(yield func(ssa.CallInstruction, callee) bool) {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if c, ok := b.resolve(call.Common()); ok && !yield(call, c) {
					return
				}
			}
		}
	}
}

// resolveCallee returns what call invokes, as far as leases go, before
// its arguments are read (resolve).
func (b *builder) resolveCallee(call *ssa.CallCommon) (callee, bool) {
	fn := calleeFunc(call)
	if fn == nil {
		if api, name := b.esapiFieldCall(call); api != nil {
			return callee{api: api, role: api.Role, system: api.System, what: "API." + name}, true // es.Index(...)
		}
		if c, ok := b.resolveClosure(call); ok {
			return c, true
		}
		return b.resolveReleaseFunc(call)
	}
	if api := b.ix.lookupFunc(fn); api != nil {
		return b.catalogCallee(call, fn, fn, api), true
	}
	if api := b.kubeTypedUpdate(fn); api != nil {
		return b.catalogCallee(call, fn, fn, api), true
	}
	if c, ok := b.resolveOnceDo(call, fn); ok {
		return c, true
	}
	if c, ok := b.resolveRunParam(call, fn); ok {
		return c, true
	}
	if c, ok := b.retriedAcquire(call, fn); ok {
		return c, true
	}
	if c, ok := b.lockerCall(call, fn); ok {
		return c, true
	}
	if f := b.roleFact(fn); f != nil {
		if f.releasesNil(call) {
			return callee{}, false // SetDiscordGameState(dgs, nil): it stores, and lets go of nothing
		}
		return callee{fn: fn, role: f.Role, system: f.System, what: shortName(fn) + f.returning("("), held: f.Held, dispatch: f.Dispatch, claim: f.Claim, session: f.Session, writesFirst: f.WritesFirst}, true
	}
	if api := b.sqlHelper(fn); api != nil {
		return callee{fn: fn, api: api, role: api.Role, system: api.System, what: shortName(fn)}, true
	}
	if api := b.sqlShaped(call, fn); api != nil {
		return callee{fn: fn, api: api, role: api.Role, system: api.System, what: shortName(fn)}, true
	}
	if api := boilerQueryWrite(fn); api != nil {
		return callee{fn: fn, api: api, role: api.Role, system: api.System, what: shortName(fn)}, true
	}
	if call.IsInvoke() {
		if f, via := b.dispatchRole(fn); f != nil && !f.releasesNil(call) {
			return callee{fn: fn, role: f.Role, system: f.System, what: shortName(fn) + " (via " + via + f.returning(",") + ")", held: f.Held, dispatch: f.Dispatch, claim: f.Claim, session: f.Session, writesFirst: f.WritesFirst}, true
		}
		if api, m := b.mirroredAPI(fn); api != nil {
			return b.catalogCallee(call, fn, m, api), true
		}
	}
	return callee{}, false
}

// catalogCallee returns what a call of the catalogued lib (fn itself, or
// the library method an interface method fn mirrors) means, with the
// arguments that change a row's role read at the call.
func (b *builder) catalogCallee(call *ssa.CallCommon, fn, lib *types.Func, api *API) callee {
	c := callee{fn: fn, api: api, role: api.Role, system: api.System, what: apiName(lib, api), held: api.Held}
	if api.System == KubeAPI {
		c.what = shortName(lib) // StatefulSetInterface.Update: the client says which object
	}
	if fn != lib {
		as := c.what
		if !strings.Contains(as, ".") {
			as = lib.Pkg().Name() + "." + as // go-redis's Set: any receiver, named by its package
		}
		c.what = shortName(fn) + " (as " + as + ")"
	}
	if api.System == ZooKeeper && lib.Name() == "Create" && ephemeralSequential(apiArg(call, api)) {
		c.role = RoleTryAcquire // the lock recipe's claim: an ephemeral sequential node
	}
	if api.System == ZooKeeper && lib.Name() == "Delete" && b.lockNodes[loadedField(arg(call, 0))] {
		c.role = RoleRelease // deleting the node the recipe claimed
	}
	if api.System == Etcd && lib.Name() == "Commit" && b.etcdLockClaim(callRecv(call)) != nil {
		c.role, c.claim = RoleTryAcquire, EtcdTxnClaim // a create-if-absent of a leased key: a hand-rolled lock
	}
	if api.System == Etcd && receiverName(lib) == "Election" {
		c.claim = EtcdElectionClaim // its writes are fenced by the election's key, not a Mutex
	}
	if api.System == Etcd && receiverName(lib) == "Lease" && lib.Name() == "TimeToLive" {
		c.claim = EtcdLeaseClaim // a bare lease: no Mutex either
	}
	if api.System == Etcd && lib.Name() == "Commit" && etcdTxnReads(callRecv(call)) {
		c.role = 0 // a Txn of OpGets reads several keys at one revision
	}
	if api.System == Etcd && lib.Name() == "Commit" && b.etcdTxnReleasesLock(callRecv(call)) {
		c.role = RoleRelease // a Txn that deletes a hand-rolled lock's key
	}
	if api.System == Etcd && lib.Name() == "Delete" && receiverName(lib) == "KV" && b.etcdLockKeyDeleted(arg(call, 1)) {
		c.role = RoleRelease // deleting a hand-rolled lock's key
	}
	if api.Fence == EtcdOp {
		c.role = etcdDoRole(apiArg(call, api)) // KV.Do of an OpGet reads
	}
	if api.System == Redis {
		role, cmd := redisCallRole(call, fn.Name(), api)
		c.role = role
		if cmd != "" {
			c.what += " " + cmd
		}
		if b.deletesPairedLockKey(call, redisMethod(api)) {
			c.role = RoleRelease // Unlock(key) of a lock helper package (lockhelpers.go)
		}
	}
	if c.role.Has(RoleTryAcquire) && api.System == Redis && api.Fence != RedisCommand && b.isMarker(call) {
		// a key every caller refreshes, won or not: a marker, not a lock
		c.role = RoleFenced
	}
	if api.System == Redis && fn.Name() == "SetNX" && noExpiry(redisArg(call, 3)) {
		// SETNX with no expiry seeds a value once (a flag, a
		// counter's start): a create-only write, not a lock.
		c.role = RoleFenced
	}
	if api.Fence == RedisScript {
		if role := b.scriptRole(call, api); role != 0 {
			c.role = role // a compare-and-delete of the lock key is the lock's release
			if role == RoleTryAcquire {
				c.what += " (SET NX in its Lua script)"
			}
		}
	}
	return c
}

// redisCallRole returns the role a call of the catalogued Redis command
// api (named name at the call) plays, as its arguments make it: a SetArgs
// with Mode NX is SET key value NX, a hand-rolled lock's claim; a redigo
// call plays its command's role and names it (redigoRole). Other calls
// play their row's role.
func redisCallRole(call *ssa.CallCommon, name string, api *API) (Role, string) {
	switch {
	case api.Fence == RedisCommand:
		cmd, role := redigoRole(call)
		return role, cmd
	case api.Fence == RueidisCommand:
		cmd, role := rueidisRole(call, api)
		return role, cmd
	case name == "SetArgs" && setArgsNX(call):
		return RoleTryAcquire, ""
	}
	return api.Role, ""
}

// redigoRole returns the command a redigo call runs (its first string
// argument, upper-cased) and what that command is for leases: a write for
// a command that changes data, the hand-rolled lock of a SET with NX and an
// expiry, a create-only write for a SET NX or SETNX with none (it seeds a
// value once, like go-redis's SetNX with no expiry), a message for PUBLISH
// and XADD. A read, a script (EVAL: its text is not read here) and a
// command not named by a constant play no role, so they are never
// reported.
func redigoRole(call *ssa.CallCommon) (string, Role) {
	args, cmdAt := redigoArgs(call)
	if cmdAt < 0 {
		return "", 0
	}
	name, ok := constString(arg(call, cmdAt))
	if !ok {
		return "", 0
	}
	cmd := strings.ToUpper(name)
	nx := slices.ContainsFunc(args, isConstWord("NX"))
	expiry := slices.ContainsFunc(args, isConstWord("EX", "PX", "EXAT", "PXAT"))
	return cmd, commandRole(cmd, nx, expiry)
}

// commandRole returns what the Redis command cmd (upper-cased, as redigo
// and rueidis name it) is for leases, given whether it has the NX option
// and an expiry: redigoRole's roles.
func commandRole(cmd string, nx, expiry bool) Role {
	switch {
	case cmd == "SET" && nx && expiry:
		return RoleTryAcquire
	case cmd == "SET" && nx, cmd == "SETNX":
		return RoleFenced
	case cmd == "PUBLISH" || cmd == "SPUBLISH" || cmd == "XADD":
		return RoleMessage
	case cmd == "INCR" || cmd == "INCRBY":
		return RoleWrite | RoleCounter
	case slices.Contains(redisRefreshCommands(), cmd):
		return RoleWrite | RoleRefresh
	case slices.Contains(redisWriteCommands(), cmd):
		return RoleWrite
	}
	return 0
}

// redigoArgs returns the arguments after a redigo call's command (the
// elements of its ...interface{} list, when the call spells them out) and
// the index of the command argument, the first string parameter; -1 if the
// call has none (redis.Script's Do takes the script's keys and arguments,
// not a command).
func redigoArgs(call *ssa.CallCommon) ([]ssa.Value, int) {
	sig := call.Signature()
	at := -1
	for i := range sig.Params().Len() {
		if t, ok := sig.Params().At(i).Type().(*types.Basic); ok && t.Kind() == types.String {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, -1
	}
	elems, _ := variadic(arg(call, at+1))
	return elems, at
}

// isConstWord returns a func that reports whether v is a string constant
// equal, ignoring case, to one of words.
func isConstWord(words ...string) func(ssa.Value) bool {
	return func(v ssa.Value) bool {
		s, ok := constString(v)
		return ok && slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(s, w) })
	}
}

// ephemeralSequential reports whether v, ZooKeeper Create's flags, is a
// constant with both FlagEphemeral (1) and FlagSequence (2) set.
func ephemeralSequential(v ssa.Value) bool {
	n, ok := constInt(v)
	return ok && n&3 == 3
}

// noExpiry reports whether v, a SetNX expiration, is the constant 0 (no
// TTL; go-redis's KeepTTL, -1, keeps none either).
func noExpiry(v ssa.Value) bool {
	n, ok := constInt(v)
	return ok && (n == 0 || n == -1)
}

// setArgsNX reports whether a go-redis SetArgs call sets Mode "NX".
func setArgsNX(call *ssa.CallCommon) bool {
	mode, ok := constString(fieldOf(arg(call, 3), "Mode"))
	return ok && strings.EqualFold(mode, "NX")
}

// lockerCall resolves Lock and Unlock on a sync.Locker that a lock library
// made (etcd's concurrency.NewLocker): they take and give up the lease.
func (b *builder) lockerCall(call *ssa.CallCommon, fn *types.Func) (callee, bool) {
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync" || receiverName(fn) != "Locker" {
		return callee{}, false
	}
	p := producer(callRecv(call))
	if p == nil {
		return callee{}, false
	}
	maker := calleeFunc(p.Common())
	if maker == nil {
		return callee{}, false
	}
	api := b.ix.lookupFunc(maker)
	if api == nil || !api.Role.Has(RoleLocker) {
		return callee{}, false
	}
	role := RoleAcquire
	if fn.Name() == "Unlock" {
		role = RoleRelease
	}
	return callee{fn: fn, role: role, system: api.System, what: "Locker." + fn.Name()}, true
}

// sqlMethods are the method names of database/sql and pgx that send SQL;
// namedSQLMethods those of sqlx that send SQL whose parameters a struct or
// map binds by name.
var (
	sqlMethods = map[string]bool{
		"Exec": true, "ExecContext": true, "Query": true, "QueryContext": true,
		"QueryRow": true, "QueryRowContext": true,
	}
	namedSQLMethods = map[string]bool{"NamedExec": true, "NamedExecContext": true}
)

// sqlShaped returns a catalog row for a call through an interface of the
// user's own that sends SQL the way database/sql and pgx do, such as
// sqlc's DBTX: ExecContext(ctx context.Context, query string, args ...any),
// or the way sqlx's named statements do: NamedExec(query string, arg any).
func (b *builder) sqlShaped(call *ssa.CallCommon, fn *types.Func) *API {
	named := namedSQLMethods[fn.Name()]
	if !call.IsInvoke() || !sqlMethods[fn.Name()] && !named {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := sig.Params()
	if params.Len() < 2 || sig.Variadic() == named {
		return nil
	}
	query := params.Len() - 2
	if basic, ok := params.At(query).Type().(*types.Basic); !ok || basic.Kind() != types.String {
		return nil
	}
	if named && !types.IsInterface(params.At(query+1).Type()) {
		return nil
	}
	if api := b.shaped[fn]; api != nil {
		return api
	}
	api := &API{Name: fn.Name(), Role: RoleWrite, System: SQL, Fence: SQLQuery, Arg: query}
	b.shaped[fn] = api
	return api
}

// roleFact returns the RoleFact of fn: from this package's directives and
// inferred wrappers, or imported with fn's package.
func (b *builder) roleFact(fn *types.Func) *RoleFact {
	fn = fn.Origin()
	if fn.Pkg() == b.pass.Pkg {
		for _, f := range b.local[fn] {
			if rf, ok := f.(*RoleFact); ok {
				return rf
			}
		}
		return nil
	}
	var rf RoleFact
	if !b.pass.ImportObjectFact(fn, &rf) {
		return nil
	}
	if impls, ok := b.reachableImpls(rf.Dispatch); ok {
		if !b.implFact(impls, &rf) {
			return nil
		}
	}
	return &rf
}

// resolveClosure resolves a call of a closure of this package that wraps a
// lock call (release := func() { m.Unlock(ctx) }; defer release()), also
// through the variable it is kept in when other closures capture it.
func (b *builder) resolveClosure(call *ssa.CallCommon) (callee, bool) {
	f := call.StaticCallee()
	if f == nil && !call.IsInvoke() {
		f = funcValue(capturedValue(call.Value))
	}
	return b.closureCallee(f)
}

// closureCallee returns what calling f does, f a closure of this package
// whose role inferRoles found.
func (b *builder) closureCallee(f *ssa.Function) (callee, bool) {
	if f == nil || f.Parent() == nil {
		return callee{}, false
	}
	if r := b.closureRoles[f]; r.role != 0 {
		return callee{role: r.role, system: r.system, what: "a closure wrapping the lock", claim: r.claim, writesFirst: r.writesFirst}, true
	}
	return callee{}, false
}

// resolveOnceDo resolves once.Do(f), which calls f (the first time), as
// a call of f: a release made idempotent (releaseOnce.Do(func() {
// lock.Unlock() })) is a release.
func (b *builder) resolveOnceDo(call *ssa.CallCommon, fn *types.Func) (callee, bool) {
	if fn.Name() != "Do" || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || receiverName(fn) != "Once" || len(call.Args) != 2 {
		return callee{}, false
	}
	return b.closureCallee(funcValue(call.Args[1]))
}

// resolveReleaseFunc resolves a call of the func value an acquire returned
// beside its error (unlock, err := locker.LockBranch(ctx, ...); defer
// unlock()): Go's idiom for handing the caller the release, also where a
// closure calls it (defer func() { _ = unlock(ctx) }()) through a variable
// assigned once. Only a func that takes nothing but a context and returns
// nothing but an error counts, so that an acquire returning some other
// callback is not read as letting go.
func (b *builder) resolveReleaseFunc(call *ssa.CallCommon) (callee, bool) {
	if call.IsInvoke() || call.StaticCallee() != nil || !releaseFuncSig(call.Signature()) {
		return callee{}, false
	}
	v := capturedValue(call.Value)
	if ext, ok := v.(*ssa.Extract); ok {
		v = ext.Tuple
	}
	acq, ok := v.(*ssa.Call)
	if !ok {
		return callee{}, false
	}
	c, ok := b.resolve(acq.Common())
	if !ok || c.role&(RoleAcquire|RoleTryAcquire) == 0 {
		return callee{}, false
	}
	return callee{role: RoleRelease, system: c.system, what: "the release func " + c.what + " returned",
		dispatch: c.dispatch, acquiredBy: acq}, true
}

// releaseFuncSig reports whether sig is a release's: func(), func() error,
// func(context.Context) or func(context.Context) error.
func releaseFuncSig(sig *types.Signature) bool {
	params, res := sig.Params(), sig.Results()
	if sig.Variadic() || params.Len() > 1 || res.Len() > 1 {
		return false
	}
	if params.Len() == 1 && !isContext(params.At(0).Type()) {
		return false
	}
	return res.Len() == 0 || isErrorType(res.At(0).Type())
}

// inferRoles records a RoleFact for each function of the package that a
// directive marks, and for each wrapper of a lock call: a function that
// acquires and returns holding the lease (it releases nothing and writes
// nothing), releases, renews or checks. Wrappers of wrappers are found by
// iterating until nothing changes. A role learned early can be lost later:
// a function that locks through one method of an interface and unlocks
// through another looks like an acquire wrapper until the unlock's
// implementation is found to release (LiveKit's CreateRoom, which defers
// UnlockRoom), so each round recomputes every role, and the rounds are
// bounded in case roles that depend on each other never settle.
func (b *builder) inferRoles() {
	for fn, role := range b.dirs.roles {
		b.setLocal(fn, &RoleFact{Role: role, What: shortName(fn)})
	}
	b.lockRolesFromConversions()
	const maxRounds = 64
	for changed, round := true, 0; changed && round < maxRounds; round++ {
		changed = false
		for _, fn := range b.funcs {
			if fn.Parent() != nil {
				changed = b.inferClosureRole(fn) || changed
				continue
			}
			obj, ok := fn.Object().(*types.Func)
			if !ok || b.dirs.roles[obj] != 0 || b.fencegen.declares(obj) {
				continue // roles given, by a directive or by fencegen's API
			}
			changed = b.inferFuncRole(fn, obj) || changed
		}
	}
}

// inferClosureRole records whether the closure fn wraps an acquire or a
// release, and reports whether that changed.
func (b *builder) inferClosureRole(fn *ssa.Function) bool {
	r := b.wrapperRole(fn)
	if r.role&(RoleRelease|RoleAcquire) == 0 {
		if _, had := b.closureRoles[fn]; had {
			delete(b.closureRoles, fn)
			return true
		}
		return false
	}
	if b.closureRoles[fn] == r {
		return false
	}
	b.closureRoles[fn] = r
	return true
}

// inferFuncRole records the RoleFact of the declared function fn (obj) as
// a leader getter or a wrapper of lock calls, or drops one it no longer
// earns, and reports whether that changed.
func (b *builder) inferFuncRole(fn *ssa.Function, obj *types.Func) bool {
	old := b.roleFact(obj)
	if system, held, ok := b.leaderGetterRole(fn); ok {
		if old != nil && old.Role == RoleCheck && old.Held == held {
			return false
		}
		b.setLocal(obj, &RoleFact{Role: RoleCheck, System: system, What: shortName(obj), Held: held, Returns: b.returnedFlagName(fn)})
		return true
	}
	r := b.wrapperRole(fn)
	if r.role == 0 {
		if old == nil {
			return false
		}
		b.dropLocal(obj, old)
		return true
	}
	held := b.wrappedHeld(fn, r.role)
	f := &RoleFact{Role: r.role, System: r.system, What: shortName(obj), Held: held, Dispatch: r.dispatch, Claim: r.claim, WritesFirst: r.writesFirst, LockParam: r.lockParam}
	if r.role == RoleAcquire {
		f.Key, f.KeyKnown = b.wrappedKey(fn)
		f.Session = b.wrappedSession(fn)
	}
	if old != nil && *old == *f {
		return false
	}
	b.setLocal(obj, f)
	return true
}

// wrapperRole reports which lock role fn plays by wrapping lock calls, and
// the implementation that role was learned from when a wrapped call goes
// through an interface.
func (b *builder) wrapperRole(fn *ssa.Function) lockRole {
	var acquires, releases, renews, checks, closesOwn bool
	var writeCalls []ssa.Instruction
	acquireCalls := make(map[ssa.Instruction]bool)
	releaseCalls := make(map[ssa.Instruction]bool) // made where they are (not deferred)
	var system System
	var dispatch Dispatch
	var claim Claim
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if v, isValue := instr.(ssa.Value); isValue {
				if _, c, awaited := b.awaitedAcquire(v); awaited {
					// the result of an acquire a goroutine fn started, awaited
					acquires, system, dispatch, claim = true, c.system, c.dispatch, c.claim
					continue
				}
			}
			call, ok := instr.(ssa.CallInstruction)
			if _, started := instr.(*ssa.Go); !ok || started {
				// What a goroutine fn starts does (campaign, acquire,
				// renew in the background) is not done when fn returns:
				// a constructor that starts an election loop holds nothing.
				continue
			}
			if b.endsSession(call.Common()) {
				// Closing a connection that is a session of its own ends
				// the advisory locks taken on it: goalert's migrate.Up
				// locks on a pgx connection it closes on return, and holds
				// nothing then. Closing it on a failing path is a rollback.
				ends := !b.failsAfter(call)
				if opensItself(fn, callRecv(call.Common())) {
					closesOwn = closesOwn || ends // a release only of what fn locks on it
				} else {
					releases = releases || ends
				}
				continue
			}
			c, ok := b.resolve(call.Common())
			if !ok {
				if b.callWrites(call.Common()) {
					writeCalls = append(writeCalls, instr)
				}
				continue
			}
			if sendsSQL(c.api) {
				ops := b.sqlOps(call.Common(), c.api)
				acquires = acquires || ops.acquires
				releases = releases || ops.releases
				if ops.writes {
					writeCalls = append(writeCalls, instr)
				}
				if ops.acquires {
					acquireCalls[instr] = true
				}
				if ops.acquires || ops.releases {
					system, dispatch = ops.system, Dispatch{}
				}
				continue
			}
			switch {
			case c.role&(RoleAcquire|RoleTryAcquire) != 0:
				acquires, system, dispatch, claim = true, c.system, c.dispatch, c.claim
				acquireCalls[instr] = true
			case c.role.Has(RoleRelease) && (b.failsAfter(call) || b.afterFailedClaim(call) || b.afterFailedAcquire(call)):
				// A rollback: a wrapper that takes several locks lets go
				// of those it got when a later one is busy, and fails.
			case c.role.Has(RoleRelease): // deferred or not, it is let go before the caller resumes
				if _, deferred := instr.(*ssa.Defer); deferred && b.releasesOnlyOnError(fn, call.Common()) {
					continue // the caller resumes holding it when fn succeeds
				}
				releases, system, dispatch = true, c.system, c.dispatch
				if _, now := instr.(*ssa.Call); now {
					releaseCalls[instr] = true
				}
			case c.role.Has(RoleRenew):
				renews, system, dispatch = true, c.system, c.dispatch
			case c.role.Has(RoleCheck):
				checks, system, dispatch = true, c.system, c.dispatch
			case c.role&(RoleWrite|RoleFenced) != 0 && c.api != nil:
				switch {
				case c.api.System == Redis && b.keepsLockState(fn, call.Common()):
					// the lock's bookkeeping beside its key: no work, no release
				case !b.writesOwnLockKey(fn, call.Common(), c.api):
					writeCalls = append(writeCalls, instr)
				case deletes(call.Common(), c.api):
					releases, system, dispatch = true, c.system, c.dispatch // DEL of the lock's key lets it go
				}
			}
		}
	}
	// A connection fn opens and closes itself holds none of its caller's
	// locks (spqr's AwaitPIDs dials a shard, defers the Close and waits).
	releases = releases || closesOwn && acquires

	// A function that writes does work, not only lock calls: no wrapper.
	// Except, in one that tells its caller whether it got the lock (a bool
	// or error result), for writes every path from which takes the lock
	// again before returning, or fails: cleaning up after a stale holder
	// and retrying (pbm marks the stale operation failed, then calls
	// Acquire again) writes where nothing is held yet.
	// And in one that only lets go, writes made once it has let go
	// (glusterd2's Txn.Done unlocks the transaction's mutexes, then wipes
	// its scratch keys): the caller's region ends at the call, and they
	// are under no lease.
	// And one that lets go on every path back to its caller is a release
	// whatever it writes first (automuteus's SetDiscordGameState stores
	// the game, then releases the lock it was handed): the caller's region
	// ends at the call, and the call's own writes are judged there, under
	// the lease still held before it. (One that lets go in a defer does
	// all its work under the lease, as a function run only under it:
	// leaseonly.go reports its writes where they are made.)
	retries := acquires && returnsResult(fn)
	released := !acquires && releases && len(releaseCalls) > 0
	writes := slices.ContainsFunc(writeCalls, func(w ssa.Instruction) bool {
		return (!retries || !acquiredAfter(w, acquireCalls)) && (!released || !releasedBefore(w, releaseCalls))
	})
	if writes && !acquires && len(releaseCalls) > 0 && releasedOnReturn(fn, releaseCalls) {
		return lockRole{role: RoleRelease, system: system, dispatch: dispatch, writesFirst: true, lockParam: releasedParam(fn, releaseCalls)}
	}
	if acquires && reportsBusyAsHeld(fn, acquireCalls) {
		return lockRole{} // a probe: true says someone else holds the lock
	}
	switch {
	case writes:
		return lockRole{}
	case acquires && !releases:
		return lockRole{role: RoleAcquire, system: system, dispatch: dispatch, claim: claim}
	case releases && !acquires:
		return lockRole{role: RoleRelease, system: system, dispatch: dispatch}
	case renews && !acquires && !releases:
		return lockRole{role: RoleRenew, system: system, dispatch: dispatch}
	case checks && !acquires && !releases && !renews && returnsResult(fn) && b.faithfulWrapper(fn):
		return lockRole{role: RoleCheck, system: system, dispatch: dispatch}
	}
	return lockRole{}
}

// afterFailedClaim reports whether call is made only where an etcd
// claim's transaction did not succeed (if !resp.Succeeded { Revoke(...)
// }): the lease it lets go holds no lock, so it is a rollback, whatever
// the function goes on to check before it fails.
func (b *builder) afterFailedClaim(call ssa.CallInstruction) bool {
	for blk := call.Block(); blk.Idom() != nil; blk = blk.Idom() {
		branch, ok := blk.Idom().Instrs[len(blk.Idom().Instrs)-1].(*ssa.If)
		if !ok || len(blk.Preds) != 1 {
			continue
		}
		cond, failed := branch.Cond, blk == branch.Block().Succs[1]
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond, failed = not.X, !failed
		}
		if failed && b.claimSucceeded(cond) {
			return true
		}
	}
	return false
}

// afterFailedAcquire reports whether call is made only where an acquire
// of fn's returned an error, and fn returns what call returns (if err :=
// dl.lock(); err != nil { return dl.Unlock() }): cleaning up after a lock
// not taken. (One that then returns nil on purpose, a retry budget spent,
// tells its caller to go on holding nothing: no acquire.)
func (b *builder) afterFailedAcquire(call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok || !onlyReturned(c) {
		return false
	}
	for blk := call.Block(); blk.Idom() != nil; blk = blk.Idom() {
		branch, ok := blk.Idom().Instrs[len(blk.Idom().Instrs)-1].(*ssa.If)
		if !ok || len(blk.Preds) != 1 || blk != branch.Block().Succs[0] {
			continue
		}
		if b.acquireFailed(branch.Cond) {
			return true
		}
	}
	return false
}

// onlyReturned reports whether the only use of call's result is a return
// of its function.
func onlyReturned(call *ssa.Call) bool {
	refs := referrers(call)
	if len(refs) != 1 {
		return false
	}
	_, ok := refs[0].(*ssa.Return)
	return ok
}

// acquireFailed reports whether cond is err != nil for the error an
// acquiring call returned.
func (b *builder) acquireFailed(cond ssa.Value) bool {
	x, ok := cond.(*ssa.BinOp)
	if !ok || x.Op != token.NEQ {
		return false
	}
	v := x.X
	if !isNilConst(x.Y) {
		v = x.Y
		if !isNilConst(x.X) {
			return false
		}
	}
	if !isError(v) {
		return false
	}
	p := producer(v)
	if p == nil {
		return false
	}
	c, ok := b.resolve(p.Common())
	return ok && c.role&(RoleAcquire|RoleTryAcquire) != 0
}

// claimSucceeded reports whether v is the Succeeded of the response of a
// Txn commit that claims a lock.
func (b *builder) claimSucceeded(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || fieldName(fa.X.Type(), fa.Field) != "Succeeded" {
		return false
	}
	p := producer(fa.X)
	if p == nil {
		return false
	}
	c, ok := b.resolve(p.Common())
	return ok && c.role.Has(RoleTryAcquire)
}

// acquiredAfter reports whether every path from instr to a return of its
// function that may hand a lock to the caller passes through one of
// acquires; a return of false or of an error that cannot be nil hands
// none. A loop that may go round without an acquire counts as a path that
// does not.
func acquiredAfter(instr ssa.Instruction, acquires map[ssa.Instruction]bool) bool {
	const (
		visiting = iota + 1
		yes
		no
	)
	state := make(map[*ssa.BasicBlock]int)
	var from func(blk *ssa.BasicBlock, start int) bool
	from = func(blk *ssa.BasicBlock, start int) bool {
		for _, in := range blk.Instrs[start:] {
			switch in := in.(type) {
			case *ssa.Return:
				return returnsFalse(in) || returnsNewError(in)
			case *ssa.Panic:
				return true // returns nothing to the caller
			}
			if acquires[in] {
				return true
			}
		}
		switch state[blk] {
		case visiting, no:
			return false
		case yes:
			return true
		}
		state[blk] = visiting
		ok := len(blk.Succs) > 0
		for _, succ := range blk.Succs {
			ok = ok && from(succ, 0)
		}
		state[blk] = no
		if ok {
			state[blk] = yes
		}
		return ok
	}
	blk := instr.Block()
	return from(blk, slices.Index(blk.Instrs, instr)+1)
}

// opensItself reports whether conn, a connection fn closes, is one fn
// opened (conn, err := pgx.Connect(ctx, url); defer conn.Close(ctx)), or
// one the function that defers the closure fn opened.
func opensItself(fn *ssa.Function, conn ssa.Value) bool {
	v := unwrap(capturedValue(conn))
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	return call.Parent() == fn || fn.Parent() != nil && call.Parent() == fn.Parent() && deferredClosure(fn)
}

// deferredClosure reports whether the closure fn is made only to be
// deferred (defer func() { ... }()).
func deferredClosure(fn *ssa.Function) bool {
	refs := fn.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || mc.Referrers() == nil {
			return false
		}
		for _, use := range *mc.Referrers() {
			if d, ok := use.(*ssa.Defer); !ok || d.Call.Value != mc {
				return false
			}
		}
	}
	return true
}

// endsSession reports whether call closes a connection whose session's
// locks end with it (RoleEndsSession).
func (b *builder) endsSession(call *ssa.CallCommon) bool {
	api := b.ix.lookupFunc(calleeFunc(call))
	return api != nil && api.Role.Has(RoleEndsSession)
}

// releasedBefore reports whether every path from its function's entry to
// instr passes through one of releases, or leaves a loop that makes one:
// a loop that lets go of each lock a container holds runs no turn only
// when there was none to let go (for _, m := range t.locks { m.Unlock() }).
func releasedBefore(instr ssa.Instruction, releases map[ssa.Instruction]bool) bool {
	return releasedAt(instr, releases, nil)
}

// releasedAt is releasedBefore where also each edge into a block of
// nilEdges, from a block it maps to, lets go (nilReleaseEdges).
func releasedAt(instr ssa.Instruction, releases map[ssa.Instruction]bool, nilEdges map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool) bool {
	blk := instr.Block()
	for _, in := range blk.Instrs[:slices.Index(blk.Instrs, instr)] {
		if releases[in] {
			return true
		}
	}
	fn := blk.Parent()
	releasing := make(map[*ssa.BasicBlock]bool) // blocks that make a release
	for in := range releases {
		releasing[in.Block()] = true
	}
	loopReleases := make(map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool) // a block's loop, when it makes a release
	for _, b := range fn.Blocks {
		loop := loopOf(b)
		for x := range loop {
			if releasing[x] {
				loopReleases[b] = loop
				break
			}
		}
	}
	// A must-analysis: released on entry to a block when released on each
	// edge into it, starting from everything but the entry block.
	in := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		in[b] = b.Index != 0
	}
	edge := func(from, to *ssa.BasicBlock) bool {
		return in[from] || releasing[from] || loopReleases[from] != nil && !loopReleases[from][to] || nilEdges[to][from]
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			if !in[b] || b.Index == 0 {
				continue
			}
			for _, p := range b.Preds {
				if !edge(p, b) {
					in[b], changed = false, true
					break
				}
			}
		}
	}
	return in[blk]
}

// releasedOnReturn reports whether every return of fn is reached through
// one of releases, or on a branch where the lock let go there is nil
// (if lock != nil { lock.Release(ctx) }).
func releasedOnReturn(fn *ssa.Function, releases map[ssa.Instruction]bool) bool {
	nilEdges := nilReleaseEdges(releases)
	returned := false
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		returned = true
		if !releasedAt(ret, releases, nilEdges) {
			return false
		}
	}
	return returned
}

// releasesNil reports whether call passes the constant nil as the lock a
// release lets go of (LockParam), so that it lets go of nothing.
func (f *RoleFact) releasesNil(call *ssa.CallCommon) bool {
	if f.Role != RoleRelease || f.LockParam == 0 {
		return false
	}
	c, ok := arg(call, f.LockParam-1).(*ssa.Const)
	return ok && c.IsNil()
}

// releasedParam returns the parameter (1-based, receiver excluded) that
// every one of releases lets go of, or 0.
func releasedParam(fn *ssa.Function, releases map[ssa.Instruction]bool) int {
	param := 0
	for in := range releases {
		p, ok := unwrap(callRecv(in.(ssa.CallInstruction).Common())).(*ssa.Parameter)
		if !ok {
			return 0
		}
		i := slices.Index(fn.Params, p)
		if fn.Signature.Recv() != nil {
			i--
		}
		if i < 0 || param != 0 && param != i+1 {
			return 0
		}
		param = i + 1
	}
	return param
}

// nilReleaseEdges returns the edges, as their target blocks, taken when the
// lock a release in releases lets go of is nil: the branch of an
// if lock != nil that skips the release holds nothing to let go.
func nilReleaseEdges(releases map[ssa.Instruction]bool) map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool {
	edges := make(map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool) // target -> sources
	for in := range releases {
		recv := callRecv(in.(ssa.CallInstruction).Common())
		if recv == nil || recv.Referrers() == nil {
			continue
		}
		for _, ref := range *recv.Referrers() {
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) || !comparesWithNil(cmp, recv) {
				continue
			}
			for _, use := range *cmp.Referrers() {
				br, ok := use.(*ssa.If)
				if !ok {
					continue
				}
				blk := br.Block()
				onNil := blk.Succs[1] // lock != nil is false
				if cmp.Op == token.EQL {
					onNil = blk.Succs[0]
				}
				if edges[onNil] == nil {
					edges[onNil] = make(map[*ssa.BasicBlock]bool)
				}
				edges[onNil][blk] = true
			}
		}
	}
	return edges
}

// comparesWithNil reports whether cmp compares v with the constant nil.
func comparesWithNil(cmp *ssa.BinOp, v ssa.Value) bool {
	other := cmp.Y
	if cmp.Y == v {
		other = cmp.X
	}
	c, ok := other.(*ssa.Const)
	return ok && c.IsNil()
}

// reportsBusyAsHeld reports whether fn, which returns a bool, returns true
// on a path where one of its acquires reported the lock busy or failed: a
// liveness probe (ncps's cdcChunkerLive tries the lock, lets go at once
// when it got it and answers false, and answers true when another holder
// has it), whose true does not say the caller holds anything.
func reportsBusyAsHeld(fn *ssa.Function, acquires map[ssa.Instruction]bool) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), types.Typ[types.Bool]) {
		return false
	}
	var busy []*ssa.BasicBlock
	for in := range acquires {
		if v, ok := in.(ssa.Value); ok {
			busy = append(busy, failedBranches(v)...)
		}
	}
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || !isTrueConst(ret.Results[len(ret.Results)-1]) {
			continue
		}
		if slices.ContainsFunc(busy, func(b *ssa.BasicBlock) bool { return b.Dominates(blk) }) {
			return true
		}
	}
	return false
}

// failedBranches returns the blocks entered only when the acquire call
// reported that it got no lock: the false branch of its bool result, the
// branch where its error is not nil.
func failedBranches(call ssa.Value) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	branch := func(cond ssa.Value, onFail func(*ssa.If) *ssa.BasicBlock) {
		if cond.Referrers() == nil {
			return
		}
		for _, use := range *cond.Referrers() {
			if br, ok := use.(*ssa.If); ok {
				if b := onFail(br); len(b.Preds) == 1 {
					out = append(out, b)
				}
			}
		}
	}
	if call.Referrers() == nil {
		return nil
	}
	results := []ssa.Value{call}
	if _, isTuple := call.Type().(*types.Tuple); isTuple {
		results = nil
		for _, ref := range *call.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok {
				results = append(results, ex)
			}
		}
	}
	for _, r := range results {
		switch {
		case types.Identical(r.Type(), types.Typ[types.Bool]):
			branch(r, func(br *ssa.If) *ssa.BasicBlock { return br.Block().Succs[1] })
			for _, ref := range *r.Referrers() {
				if not, ok := ref.(*ssa.UnOp); ok && not.Op == token.NOT {
					branch(not, func(br *ssa.If) *ssa.BasicBlock { return br.Block().Succs[0] })
				}
			}
		case types.Identical(r.Type(), types.Universe.Lookup("error").Type()):
			for _, ref := range *r.Referrers() {
				if cmp, ok := ref.(*ssa.BinOp); ok && comparesWithNil(cmp, r) {
					switch cmp.Op {
					case token.NEQ:
						branch(cmp, func(br *ssa.If) *ssa.BasicBlock { return br.Block().Succs[0] })
					case token.EQL:
						branch(cmp, func(br *ssa.If) *ssa.BasicBlock { return br.Block().Succs[1] })
					}
				}
			}
		}
	}
	return out
}

// isTrueConst reports whether v is the constant true.
func isTrueConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// returnsNewError reports whether ret returns an error that cannot be nil:
// a sentinel (errAbort), a value of a concrete error type, or a new one
// (errors.New, fmt.Errorf, github.com/pkg/errors' Errorf).
func returnsNewError(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		if !isError(r) {
			continue
		}
		switch x := r.(type) {
		case *ssa.MakeInterface:
			return true
		case *ssa.UnOp:
			if _, ok := x.X.(*ssa.Global); ok {
				return true
			}
		case *ssa.Call:
			if f := calleeFunc(x.Common()); f != nil && f.Pkg() != nil {
				path, name := f.Pkg().Path(), f.Name()
				if path == "errors" && name == "New" || path == "fmt" && name == "Errorf" || errorFunc(path, name) == alwaysError {
					return true
				}
			}
		}
	}
	return false
}

// returnsFalse reports whether ret returns the constant false as a bool
// result: "not acquired".
func returnsFalse(ret *ssa.Return) bool {
	for _, r := range ret.Results {
		if c, ok := r.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value) {
			return true
		}
	}
	return false
}

// writesOwnLockKey reports whether call, a write of api in fn, writes the
// key of a hand-rolled lock the package takes (a holder that puts its etcd
// lock key again to take it over, a SET NX key's expiry): the lock's own
// business, which does not stop fn from being its acquire.
func (b *builder) writesOwnLockKey(fn *ssa.Function, call *ssa.CallCommon, api *API) bool {
	switch api.System {
	case Etcd:
		return api.Name == "Put" && b.etcdLockKeyDeleted(arg(call, 1))
	case Redis:
		return b.touchesLockKey(fn, call)
	}
	return false
}

// deletes reports whether call of api deletes keys (go-redis Del and
// Unlink, redigo's DEL and UNLINK, etcd Delete).
func deletes(call *ssa.CallCommon, api *API) bool {
	if api.Fence == RedisCommand {
		cmd, _ := redigoRole(call)
		return cmd == "DEL" || cmd == "UNLINK"
	}
	if api.Fence == RueidisCommand {
		cmd, _ := rueidisRole(call, api)
		return cmd == "DEL" || cmd == "UNLINK"
	}
	switch redisMethod(api) {
	case "Del", "Unlink", "Delete":
		return true
	}
	return false
}

// failsAfter reports whether every return that call, a call not deferred,
// can reach says the function failed: its error result is evidently not
// nil, or its bool result is false. A release there is the rollback of a
// partial acquire, as in a wrapper that takes a set of locks in order
// (source and destination balance, sorted to avoid deadlock):
//
//	for i, l := range m.lockers {
//		if err := l.Lock(ctx, ttl); err != nil {
//			m.unlockFirst(ctx, i) // a release
//			return fmt.Errorf("lock %s: %w", l.key, err)
//		}
//	}
//	return nil
//
// It returns holding the whole set or nothing, so it acquires; a release
// on a path that returns success (a lock taken and let go before the
// caller resumes) still makes the function no acquire.
func (b *builder) failsAfter(call ssa.CallInstruction) bool {
	if _, deferred := call.(*ssa.Defer); deferred {
		return false
	}
	sig := call.Parent().Signature
	res := sig.Results()
	if res.Len() == 0 {
		return false
	}
	isBool := types.Identical(res.At(res.Len()-1).Type(), types.Typ[types.Bool])
	if !isBool && !lastResultError(sig) {
		return false
	}
	seen := make(map[*ssa.BasicBlock]bool)
	queue := []*ssa.BasicBlock{call.Block()}
	returns := false
	for len(queue) > 0 {
		blk := queue[0]
		queue = queue[1:]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		switch end := blk.Instrs[len(blk.Instrs)-1].(type) {
		case *ssa.Return:
			returns = true
			if isBool && !isFalseConst(end.Results[len(end.Results)-1]) || !isBool && !b.errNotNil(end) {
				return false
			}
		case *ssa.Panic:
		default:
			queue = append(queue, blk.Succs...)
		}
	}
	return returns
}

// isFalseConst reports whether v is the constant false.
func isFalseConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value)
}

// releasesOnlyOnError reports whether a call fn defers is a closure that
// lets go only when fn fails: every release in it runs where a named error
// result of fn, read through the closure, is not nil. That is how a helper
// that takes a lock and hands it to its caller undoes the lock on its own
// failure paths (defer func() { if err != nil { l.Unlock(ctx) } }()): it
// returns holding the lock whenever it returns no error. A flag the helper
// flips when it hands the lock over does the same (release := true;
// defer func() { if release { unlock() } }(); ...; release = false;
// return unlock, nil: vearch's loadLockedSpace; or done := false, if
// !done, done = true): every release in the closure runs where the flag
// does not hold the value fn gives it last before each return of a nil
// error.
func (b *builder) releasesOnlyOnError(fn *ssa.Function, call *ssa.CallCommon) bool {
	mc, ok := call.Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	body := mc.Fn.(*ssa.Function)
	errVars := make(map[ssa.Value]bool) // the closure's free vars bound to fn's named error results
	// and to flags fn sets to one value before it returns no error: the
	// value handing the lock over (false for release := true, true for
	// done := false)
	flagVars := make(map[ssa.Value]bool)
	for i, bound := range mc.Bindings {
		if namedErrorResult(fn, bound) {
			errVars[body.FreeVars[i]] = true
		} else if handed, ok := flagOnSuccess(fn, bound); ok {
			flagVars[body.FreeVars[i]] = handed
		}
	}
	if len(errVars) == 0 && len(flagVars) == 0 {
		return false
	}
	var onError []*ssa.BasicBlock // the blocks entered only when such a result is not nil, or such a flag set
	for _, blk := range body.Blocks {
		if blk, ok := errNotNilBranch(blk, errVars); ok {
			onError = append(onError, blk)
		}
		if blk, ok := flagSetBranch(blk, flagVars); ok {
			onError = append(onError, blk)
		}
	}
	released := false
	for _, blk := range body.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if c, ok := b.resolve(call.Common()); !ok || !c.role.Has(RoleRelease) {
				continue
			}
			if !slices.ContainsFunc(onError, func(e *ssa.BasicBlock) bool { return e.Dominates(blk) }) {
				return false
			}
			released = true
		}
	}
	return released
}

// flagOnSuccess reports whether v is a bool variable of fn that fn sets
// to one constant last before every return of a nil error (and returns one
// somewhere), and which.
func flagOnSuccess(fn *ssa.Function, v ssa.Value) (handed, ok bool) {
	alloc, ok := v.(*ssa.Alloc)
	if !ok || alloc.Parent() != fn || !isBoolType(derefType(alloc.Type())) {
		return false, false
	}
	var values []bool
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 || blk == fn.Recover {
			continue // (a panic recovered returns what it returns)
		}
		last := ret.Results[len(ret.Results)-1]
		if load, ok := last.(*ssa.UnOp); ok && load.Op == token.MUL {
			// A function that defers returns its results through their
			// variables, stored before the deferred calls run.
			if st := lastDominatingStore(ret, load.X); st != nil {
				last = st.Val
			}
		}
		if !isErrorType(last.Type()) || !isNilConst(last) {
			continue
		}
		st := lastDominatingStore(ret, alloc)
		if st == nil {
			return false, false
		}
		c, ok := st.Val.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
			return false, false
		}
		values = append(values, constant.BoolVal(c.Value))
	}
	if len(values) == 0 || slices.Contains(values, !values[0]) {
		return false, false
	}
	return values[0], true
}

// lastDominatingStore returns the store into addr made last before instr
// in its block or, failing one, in the nearest block that dominates it.
func lastDominatingStore(instr ssa.Instruction, addr ssa.Value) *ssa.Store {
	if st := lastStoreBefore(instr, addr); st != nil {
		return st
	}
	for blk := instr.Block().Idom(); blk != nil; blk = blk.Idom() {
		for i := len(blk.Instrs) - 1; i >= 0; i-- {
			if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == addr {
				return st
			}
		}
	}
	return nil
}

// flagSetBranch returns the successor of blk's branch entered when a bool
// loaded from one of flagVars does not hold the value that hands the lock
// over (if release { ... }, if !done { ... }).
func flagSetBranch(blk *ssa.BasicBlock, flagVars map[ssa.Value]bool) (*ssa.BasicBlock, bool) {
	if len(blk.Instrs) == 0 || len(flagVars) == 0 {
		return nil, false
	}
	br, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	cond, negated := br.Cond, false
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, negated = not.X, true
	}
	load, ok := cond.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	handed, ok := flagVars[load.X]
	if !ok {
		return nil, false
	}
	// Succs[0] is taken when the condition holds: the flag is true, or
	// false where it is negated.
	if handed != negated {
		return blk.Succs[1], true
	}
	return blk.Succs[0], true
}

// namedErrorResult reports whether v is the local that holds one of fn's
// named results of type error.
func namedErrorResult(fn *ssa.Function, v ssa.Value) bool {
	alloc, ok := v.(*ssa.Alloc)
	if !ok || alloc.Parent() != fn {
		return false
	}
	res := fn.Signature.Results()
	for i := range res.Len() {
		r := res.At(i)
		if r.Name() != "" && r.Name() != "_" && alloc.Comment == r.Name() && alloc.Pos() == r.Pos() && isErrorType(r.Type()) {
			return true
		}
	}
	return false
}

// errNotNilBranch returns the successor of blk's branch entered when a
// value loaded from one of errVars is not nil (x != nil, or the else branch
// of x == nil).
func errNotNilBranch(blk *ssa.BasicBlock, errVars map[ssa.Value]bool) (*ssa.BasicBlock, bool) {
	if len(blk.Instrs) == 0 {
		return nil, false
	}
	br, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return nil, false
	}
	x, y := cmp.X, cmp.Y
	if isNilConst(x) {
		x, y = y, x
	}
	load, ok := x.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !errVars[load.X] || !isNilConst(y) {
		return nil, false
	}
	if cmp.Op == token.NEQ {
		return blk.Succs[0], true
	}
	return blk.Succs[1], true
}

// wrappedHeld returns the HeldRule of a wrapper with role: InLease for a
// check whose every wrapped check is a connection-state check (kafka-kit's
// Ready() around zk.Conn.State), which vouches for a lease only where one
// is held; AnyResult otherwise.
func (b *builder) wrappedHeld(fn *ssa.Function, role Role) HeldRule {
	if role != RoleCheck {
		return AnyResult
	}
	held := AnyResult
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if c, ok := b.resolve(call.Common()); ok && c.role.Has(RoleCheck) {
				if c.held != InLease {
					return AnyResult
				}
				held = InLease
			}
		}
	}
	return held
}

// callWrites reports whether a call goes to a function known to write
// (a WritesFact, local or imported).
func (b *builder) callWrites(c *ssa.CallCommon) bool {
	obj := calleeFunc(c)
	if obj == nil {
		return false
	}
	var wf WritesFact
	return b.fact(obj, &wf)
}

// returnsResult reports whether fn returns a bool or an error, as a check does.
func returnsResult(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if types.Identical(t, types.Typ[types.Bool]) || types.Identical(t, types.Universe.Lookup("error").Type()) {
			return true
		}
	}
	return false
}

// dropLocal forgets fn's local fact of fact's type.
func (b *builder) dropLocal(fn *types.Func, fact analysis.Fact) {
	b.local[fn] = slices.DeleteFunc(b.local[fn], func(f analysis.Fact) bool { return sameFactType(f, fact) })
}

func (b *builder) setLocal(fn *types.Func, fact analysis.Fact) {
	facts := b.local[fn][:0:0]
	for _, f := range b.local[fn] {
		if sameFactType(f, fact) {
			continue
		}
		facts = append(facts, f)
	}
	b.local[fn] = append(facts, fact)
}

// shortName names fn as a reader would: "Mutex.Lock", "acquire".
func shortName(fn *types.Func) string {
	if recv := receiverName(fn); recv != "" {
		return recv + "." + fn.Name()
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

func sameFactType(a, b analysis.Fact) bool { return reflect.TypeOf(a) == reflect.TypeOf(b) }

// declaredFunc returns the declared function or method fn is, or nil for
// closures and synthetic functions.
func declaredFunc(fn *ssa.Function) *types.Func {
	if fn.Parent() != nil || fn.Synthetic != "" {
		return nil
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// apiName names a library function as its users know it: go-redis's
// commands are methods of the unexported cmdable or of one of a dozen
// *Cmdable interfaces, which mean nothing to a reader, so they are named
// by the method alone.
func apiName(fn *types.Func, api *API) string {
	if recv := receiverName(fn); api.Recv == "*" || recv != "" && !token.IsExported(recv) {
		return fn.Name()
	}
	return shortName(fn)
}

// claimsWithDocument reports whether a SET NX call stores an encoded
// document as the key's value (string(json.Marshal(params))): it creates a
// record once, which others read back, as a queue entry's parameters or a
// job's first state; a lock's value is a token or an owner's name.
func claimsWithDocument(call *ssa.CallCommon) bool {
	for _, a := range call.Args {
		if encodedDocument(a) {
			return true
		}
	}
	return false
}

// encodedDocument reports whether v is the encoding a Marshal function
// returned (json.Marshal, proto.Marshal, jsoniter's MarshalToString), as
// it is or converted to a string.
func encodedDocument(v ssa.Value) bool {
	v = unwrap(v)
	if conv, ok := v.(*ssa.Convert); ok {
		v = conv.X
	}
	ext, ok := v.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return false
	}
	call, ok := ext.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	return fn != nil && strings.HasPrefix(fn.Name(), "Marshal")
}

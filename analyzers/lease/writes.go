package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// findWrites fills Model.Writes with every store write of the package:
// catalogued store calls, //fencelint:write and //fencelint:fenced
// functions, and calls to functions whose facts say they write.
func (b *builder) findWrites() {
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		if w := b.writeAt(fn, call); w != nil {
			if !w.Fenced && !w.LockImpl {
				b.cacheFill(w, fn, call)
			}
			b.model.Writes = append(b.model.Writes, w)
			b.writeCalls[call] = true
		}
		return true
	})
	b.handedMethodWrites()
}

// writeAt returns the write that call makes, or nil if it makes none or
// fencelint cannot tell (dynamic SQL, a request built elsewhere).
func (b *builder) writeAt(fn *ssa.Function, call ssa.CallInstruction) *Write {
	c := call.Common()
	if w := b.spawnedWrite(fn, call); w != nil {
		return w
	}
	if w := b.ranWrite(fn, call); w != nil {
		return w
	}
	if callee, ok := b.resolve(c); ok {
		switch {
		case callee.api != nil && callee.role&(RoleWrite|RoleFenced) != 0:
			return b.catalogWrite(fn, call, callee)
		case callee.api == nil && callee.role&(RoleWrite|RoleFenced) != 0:
			return b.declaredWrite(fn, call, callee)
		}
	}
	return b.factWrite(fn, call)
}

// newWrite starts a Write for call to a store of system.
func newWrite(fn *ssa.Function, call ssa.CallInstruction, system System, what string) *Write {
	return &Write{Call: call, Pos: call.Pos(), Fn: fn, System: system, What: what, Advice: system.FenceAdvice()}
}

// catalogWrite classifies a call to a catalogued store API.
func (b *builder) catalogWrite(fn *ssa.Function, call ssa.CallInstruction, callee callee) *Write {
	api, c := callee.api, call.Common()
	w := newWrite(fn, call, api.System, callee.what)
	switch api.Pkg {
	case pkgS3v1, pkgS3v1Upload:
		w.Advice = s3v1Advice
	case pkgEtcdadpt:
		w.Advice = etcdadptAdvice
	}
	if callee.role.Has(RoleFenced) {
		w.Fenced = true
		return w
	}
	if cond, ok := b.requestCondition(c, api); ok {
		if !cond.known {
			return nil
		}
		w.Fenced, w.FencedBy, w.Token, w.Note = cond.fenced, cond.by, cond.token, cond.note
		if api.Fence == KubeResourceVersion && w.Fenced {
			w.kubeObject = kubeParamObject(fn, kubeUpdatedObject(c))
		}
		return w
	}
	switch api.Fence {
	case SQLQuery:
		if h, ok := b.helperFact(c); ok && h.Each {
			return b.stmtsWrite(w, call, arg(c, api.Arg))
		}
		return b.sqlWrite(w, call, arg(c, api.Arg), b.sqlArgsAt(c, api))
	case SQLPrepared:
		return b.sqlWrite(w, call, preparedQuery(callRecv(c)), -1)
	case SQLBuilder:
		return b.sqlWrite(w, call, callRecv(c), -1)
	case SQLORM:
		return b.ormWrite(w, call)
	case SQLNamed:
		return b.namedWrite(w, call, api)
	case EntGraph:
		return b.entWrite(w, call, api)
	case EtcdTxn:
		w.Fenced = etcdTxnFenced(callRecv(c))
		if !w.Fenced {
			w.Fenced, w.keyExists = b.leaseKeyFence(fn, etcdTxnExists(callRecv(c)))
		}
		if !w.Fenced && etcdTxnBlindSwap(callRecv(c)) {
			w.Note = blindSwapNote("revision")
		}
	case EtcdSTM:
		w.Fenced = b.stmFenced(fn, c.Value)
		if !w.Fenced {
			w.FencedBy, w.Fenced = b.stmDecided(fn, c.Value, call)
		}
		if !w.Fenced {
			w.Note, w.Advice = stmNote, stmAdvice
		}
	case ConsulTxn:
		w.Fenced = consulTxnConditional(fn, arg(c, 0))
	case EtcdadptCompare:
		w.Fenced = !isNilConst(arg(c, api.Arg)) // any compare: an existence check too, so as not to cry wolf
	case ZKVersion:
		v := arg(c, api.Arg)
		// A version is compare-and-set on the node, not a token: leave Token nil.
		if n, ok := constInt(v); !ok || n != -1 {
			w.Fenced = !zkBlindSwap(call, api)
			if !w.Fenced {
				w.Note = blindSwapNote("version")
			}
		}
	case EtcdSessionLease:
		if lease := b.putLease(c); lease != nil {
			w.Fenced, w.sessionLease = b.sessionLeaseFence(fn, lease)
			if w.Fenced && w.sessionLease == nil {
				w.FencedBy = sessionLeaseFenced
			}
		}
	case ZKMulti:
		w.Fenced = hasCheckVersion(arg(c, 0))
	case ZKCreate:
		w.Fenced = zkCreateOnly(arg(c, api.Arg))
	case RedisScript:
		return b.scriptWrite(w, c, api)
	case MongoFilter:
		return b.mongoWrite(w, call, api)
	}
	if api.System == Etcd && api.Name == "Put" && b.etcdLockKeyDeleted(arg(c, 1)) {
		w.LockImpl = true // a hand-rolled lock puts its own key again (a holder taking it over)
	}
	if api.System == Redis && b.pushesOntoQueue(fn, b.redisCommand(c)) {
		return nil // a message onto a queue the package's own type consumes
	}
	if api.System == Redis && b.clearsQueue(fn, c, b.redisCommand(c)) {
		return nil // stale wake-ups cleared from a list the type waits on
	}
	if api.System == Redis && redisReplicationCommand(b.redisCommand(c)) {
		w.Advice = replicationAdvice // a server's master: no key, no script, no WATCH
		return w
	}
	if api.System == Redis && callee.role.Has(RoleCounter) {
		markDraw(w, call)
	}
	if api.System == Redis {
		w.Fenced = w.Fenced || b.inWatch(fn) || api.Fence == RedisCommand && redigoWatches(fn)
		w.LockImpl = b.touchesLockKey(fn, c) || b.keepsLockState(fn, c)
		w.keyParams = keyParamsOfKeys(fn, redisKeyArgs(c))
		if !w.Fenced && !w.LockImpl {
			b.freshKeyWrite(w, fn, call, redisMethod(api))
		}
		if !w.Fenced && !w.LockImpl && b.drainsKey(fn, call, redisMethod(api)) {
			w.Fenced, w.FencedBy = true, "an atomic drain (the transaction reads the key whole and deletes it)"
		}
		if !w.Fenced && !w.LockImpl && rearmsTTL(c, api) {
			w.Fenced, w.FencedBy = true, "it only sets the key's TTL again, the one every holder sets: no value is written"
		}
		if api.Pkg == pkgGoZeroRedis {
			w.Advice = goZeroAdvice // its store has no WATCH
		}
	}
	return w
}

// etcdadptAdvice says how to fence a write through etcdadpt, whose
// transactions take compares of their own, not clientv3's.
const etcdadptAdvice = "fence it: commit with etcdadpt.TxnWithCmp and a compare etcd checks " +
	"(EqualModRev with the revision you read, or a fence key's value below the lease's token), and abort unless Succeeded"

// goZeroAdvice says how to fence a write through go-zero's Redis store,
// which sends no WATCH: only a script can compare the fence.
const goZeroAdvice = "fence it: write with a Lua script (Redis.EvalCtx, Redis.ScriptRunCtx) that compares a stored fence with the lease's token"

// replicationAdvice says what to do about a SLAVEOF or REPLICAOF a stale
// holder may send: Redis applies it whoever sends it.
const replicationAdvice = "Redis applies SLAVEOF whoever sends it, so no token can fence it: " +
	"read the topology again (ROLE) right before sending it and decide from that, or leave failover to Sentinel, " +
	"which orders its decisions by its configuration epoch"

// serverChangeWrite returns w as the first statement of script that
// changes the server's replication or role (STOP SLAVE, CHANGE MASTER,
// SET GLOBAL read_only; sqlscan's server.go), or nil when none does.
func serverChangeWrite(w *Write, script *sqlscan.Script) *Write {
	for _, st := range script.Statements {
		if st.Server != "" {
			w.What = fmt.Sprintf("%s (%s)", w.What, st.Server)
			w.Advice = sqlReplicationAdvice
			return w
		}
	}
	return nil
}

// sqlReplicationAdvice says what to do about a replication change a stale
// holder may send (serverChangeWrite).
const sqlReplicationAdvice = "the server applies CHANGE MASTER, STOP SLAVE, RESET MASTER and SET GLOBAL read_only whoever sends them, " +
	"so no token can fence them: read the server's replication state again (SHOW SLAVE STATUS, @@read_only) right before " +
	"and decide from that, not from what the holder read earlier"

// A condition is what a write whose store takes its condition in the
// request carries for the store to check.
type condition struct {
	fenced bool
	by     string    // what fences it, where that is worth saying
	token  ssa.Value // the lease's token the store compares, when the condition is one
	note   string    // why a condition that looks like a fence is none
	known  bool      // false: the request was built out of sight, and the write is not judged
}

// requestCondition reads the condition of a write to a store that takes it
// in the request (S3, Cloud Storage, Elasticsearch, DynamoDB, NATS KV,
// MinIO); ok is false for the other fence rules.
func (b *builder) requestCondition(c *ssa.CallCommon, api *API) (cond condition, ok bool) {
	switch api.Fence {
	case S3Conditional:
		cond.fenced, cond.known = s3Fenced(arg(c, api.Arg))
	case GCSConditional:
		cond.fenced, cond.known = gcsFenced(callRecv(c))
	case MinioConditional:
		cond.fenced, cond.known = minioFenced(c)
	case DynamoConditional:
		cond.fenced, cond.known = dynamoFenced(arg(c, api.Arg))
	case NATSLastRevision:
		cond.fenced, cond.known = natsLastRevision(c)
	case KubeResourceVersion:
		obj := kubeUpdatedObject(c)
		cond.fenced, cond.known = obj == nil || !b.kubeFresh(obj, c), true
		if cond.fenced && obj != nil && kubeVersionCopied(obj) {
			cond.fenced, cond.note = false, kubeCopiedNote
		}
	case ESConditional:
		req := callRecv(c) // a service's or a bulk's Do
		if api.Recv == "BulkProcessor" {
			req = arg(c, 0) // the request its Add queues
		}
		cond.by, cond.token, cond.known = b.esFenced(req)
		cond.fenced = cond.by != ""
	case ESAPIConditional:
		cond.by, cond.token, cond.known = b.esapiFenced(c, api)
		cond.fenced = cond.by != ""
	default:
		return condition{}, false
	}
	return cond, true
}

// rearmsTTL reports whether a call of the Redis command api only sets a
// key's expiry (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT) to a duration or
// time other than zero: the holders all run the same code and set the same
// TTL, so a stale holder's EXPIRE overwrites no data (a browse list's TTL
// re-armed after each visit). EXPIRE key 0 deletes the key and is judged;
// so is PERSIST, which keeps it for good.
func rearmsTTL(c *ssa.CallCommon, api *API) bool {
	name := redisMethod(api)
	ttl := redisArg(c, 2)
	if api.Fence == RedisCommand {
		cmd, _ := redigoRole(c)
		args, _ := redigoArgs(c)
		if len(args) < 2 {
			return false
		}
		name, ttl = cmd, args[1]
	}
	switch strings.ToUpper(name) {
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
	default:
		return false
	}
	n, ok := constInt(ttl)
	return !ok || n > 0
}

// zkCreateOnly reports whether flags, a ZooKeeper Create's create mode,
// makes a node at the path given (persistent, ephemeral, container, TTL):
// ZooKeeper refuses it with ErrNodeExists when the node is there, so a
// stale holder's copy changes nothing, like SQL's insert-if-absent. A
// sequential mode (zk.FlagSequence set) adds a new node on every call.
func zkCreateOnly(flags ssa.Value) bool {
	const flagSequence = 2 // zk.FlagSequence; in every mode that has it (3, 6 too)
	n, ok := constInt(flags)
	return ok && n&flagSequence == 0
}

// declaredWrite is a call to a //fencelint:write or //fencelint:fenced function.
func (b *builder) declaredWrite(fn *ssa.Function, call ssa.CallInstruction, callee callee) *Write {
	system := callee.system
	if system == "" {
		system = "a shared store"
	}
	w := newWrite(fn, call, system, callee.what)
	w.Fenced = callee.role.Has(RoleFenced)
	w.Dispatch = callee.dispatch
	return w
}

// factWrite is a call to a function whose facts say it writes.
func (b *builder) factWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	obj := calleeFunc(call.Common())
	if obj == nil {
		return b.chosenWrite(fn, call)
	}
	if w := b.templateWrite(fn, call); w != nil {
		return w
	}
	if c, ok := b.resolve(call.Common()); ok && c.role != 0 && !c.writesFirst {
		return nil // a lock operation (Mutex.Unlock deletes its key): not a protected write
	}
	var wf WritesFact
	if b.callWritesFact(call, obj, &wf) {
		w := newWrite(fn, call, wf.System, shortName(obj))
		w.Via, w.Dispatch, w.outsideOf, w.Append, w.accumulates = wf.What, wf.Dispatch, wf.OutsideOf, wf.Append, wf.Append || wf.Accumulates
		w.reachSites(&wf, call)
		w.sitesOf = obj
		if wf.Advice != "" {
			w.Advice = wf.Advice
		}
		if !w.reachCases(wf.Cases) {
			return nil // the call's constant arguments rule out every write it could make
		}
		if wf.BoundColumn != "" {
			if amount := arg(call.Common(), wf.BoundParam); amount != nil {
				w.bound = &boundedDecrement{column: wf.BoundColumn, amount: amount}
			}
		}
		w.spawned = wf.Spawned || wf.OnceRecv
		if wf.OnceRecv {
			w.once = b.onceCall(call)
		}
		if twin := b.fencedTwin(obj); twin != nil {
			w.Advice = b.twinAdvice(twin)
		}
		if wf.KeyParams != 0 {
			b.keyParamCall(w, fn, call.Common(), wf.KeyParams)
		}
		if wf.Session > 0 || wf.SessionField != "" {
			w.session = b.callSession(call.Common(), &wf)
		}
		if wf.FreshKeys != 0 && wf.Dispatch == (Dispatch{}) {
			b.freshCall(w, fn, call, wf.FreshKeys)
		}
		if wf.Keys != "" {
			b.keyedModelInsert(w, fn, call, wf.Keys)
		}
		if kind, entity := entBuilder(obj, wf.What); kind != entNone && obj.Pkg() != b.pass.Pkg {
			return b.entCall(w, call, obj, kind, entity)
		}
		return w
	}
	var fp FencedByParamFact
	if b.callFact(call.Common(), obj, &fp) {
		w := newWrite(fn, call, fp.System, shortName(obj))
		w.Via, w.Dispatch, w.TokenSource = fp.What, fp.Dispatch, fp.TokenSource
		tok := arg(call.Common(), fp.Param)
		if fp.LeaseKey {
			w.Fenced, w.keyExists = b.leaseKeyFence(fn, tok)
			return w
		}
		if fp.SessionLease {
			w.Fenced, w.sessionLease = b.sessionLeaseFence(fn, tok)
			if w.Fenced && w.sessionLease == nil {
				w.FencedBy = sessionLeaseFenced
			}
			return w
		}
		if fp.KubeObject {
			b.kubeObjectCall(w, fn, call.Common(), tok)
			return w
		}
		if fp.Field != "" {
			b.fieldToken(w, tok, fp.Field)
			return w
		}
		w.Fenced = tok != nil && !isConst(tok)
		w.Token = tok
		return w
	}
	var conv ConvergeFact
	if b.callFact(call.Common(), obj, &conv) {
		w := newWrite(fn, call, conv.System, shortName(obj))
		w.Via, w.Dispatch = conv.What, conv.Dispatch
		if conv.LeaseKey {
			w.Append, w.accumulates = true, true // plain INSERTs only
			b.leaseKeyCall(w, fn, call, &conv)
			return w
		}
		b.convergeCall(w, fn, call, &conv)
		return w
	}
	var cf SQLCondFact
	if b.callFact(call.Common(), obj, &cf) {
		w := newWrite(fn, call, cf.System, shortName(obj))
		w.Via = cf.What
		return b.sqlTextWrite(w, call, b.condText(call, &cf), -1)
	}
	return b.passedWrite(fn, call)
}

// chosenWrite is a call of a func value chosen among declared functions or
// method values (handler := s.create; if deleted { handler = s.delete }):
// the write of the first choice that writes, as a call of it would be. A
// func value taken from a slice literal the function builds (a worker's
// steps, []processor{c.syncA, c.syncB}, run in a loop) is one of its
// elements the same way, and since a loop runs them all, the call lists
// each one's writes (stepSites).
func (b *builder) chosenWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	if call.Common().IsInvoke() {
		return nil
	}
	targets, steps := chosenFuncs(call.Common().Value), false
	if targets == nil {
		targets, steps = sliceLiteralFuncs(call.Common().Value), true
	}
	for _, target := range targets {
		obj, ok := target.Object().(*types.Func)
		if !ok || target.Parent() != nil {
			continue
		}
		var wf WritesFact
		if b.fact(obj, &wf) {
			w := newWrite(fn, call, wf.System, shortName(obj))
			w.Via, w.Dispatch, w.outsideOf, w.Append, w.accumulates = wf.What, wf.Dispatch, wf.OutsideOf, wf.Append, wf.Append || wf.Accumulates
			w.reachSites(&wf, call)
			w.sitesOf = obj
			if steps {
				w.steps = targets
				if sites := b.stepSites(call, targets); sites != nil {
					w.Sites = sites
				}
			}
			return w
		}
	}
	return nil
}

// stepSites returns the writes of each of steps, functions a loop calls
// in turn with call's arguments, that writes unfenced: its Sites that
// call can reach (bindSites), or the one write its fact names; nil when
// fewer than two are left.
func (b *builder) stepSites(call ssa.CallInstruction, steps []*ssa.Function) []Site {
	var sites siteList
	writers := 0
	for _, step := range steps {
		obj, ok := step.Object().(*types.Func)
		var wf WritesFact
		if !ok || step.Parent() != nil || !b.fact(obj, &wf) {
			continue
		}
		own := callSites(&wf)
		if own == nil {
			continue
		}
		writers++
		sites.add(bindSites(call.Parent(), call, own)...)
	}
	if writers < 2 || len(sites) < 2 {
		return nil
	}
	return sites
}

// sliceLiteralFuncs returns the functions v, an element loaded from a
// slice or array literal of func values its function builds, may be: the
// values stored into that literal's elements, when each is a function or
// a closure (a bound method among them) and the literal goes nowhere but
// to its own element loads. v may also be a func field of a struct
// element (phases := []phase{{name: "init", run: r.init}, ...}, looped
// over as p.run(ctx)): the values stored into that field of each.
func sliceLiteralFuncs(v ssa.Value) []*ssa.Function {
	elem, field := literalElement(v)
	if elem == nil {
		return nil
	}
	base := elem.X
	if sl, ok := base.(*ssa.Slice); ok {
		base = sl.X
	}
	alloc, ok := base.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []*ssa.Function
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Slice:
		case *ssa.IndexAddr:
			funcs, ok := elementFuncs(ref, field)
			if !ok {
				return nil
			}
			out = append(out, funcs...)
		default:
			return nil
		}
	}
	return out
}

// literalElement returns the element address v is loaded from, *elem or
// (*elem).f (also through a local copy of the element, the loop variable
// of for _, p := range phases), and the index of f, or -1 for the element
// itself.
func literalElement(v ssa.Value) (elem *ssa.IndexAddr, field int) {
	field = -1
	if f, ok := v.(*ssa.Field); ok {
		v, field = f.X, f.Field
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, -1
	}
	addr := load.X
	if fa, ok := addr.(*ssa.FieldAddr); ok && field < 0 {
		addr, field = fa.X, fa.Field
		if local, ok := addr.(*ssa.Alloc); ok && !storesInto(local, field) {
			if copied, ok := storedWhole(local).(*ssa.UnOp); ok && copied.Op == token.MUL {
				addr = copied.X
			}
		}
	}
	elem, _ = addr.(*ssa.IndexAddr)
	return elem, field
}

// elementFuncs returns the functions stored into elem, one element of a
// literal, or into its field (when field is not -1), and false when one
// of them is not a function or a closure.
func elementFuncs(elem *ssa.IndexAddr, field int) ([]*ssa.Function, bool) {
	if field < 0 {
		return storedFuncs(elem)
	}
	var out []*ssa.Function
	for _, ref := range *elem.Referrers() {
		var funcs []*ssa.Function
		ok := true
		switch ref := ref.(type) {
		case *ssa.Store:
			lit := literalAlloc(ref.Val) // the element's own composite literal, copied in
			if lit == nil {
				return nil, false // a whole struct from elsewhere
			}
			funcs, ok = fieldFuncs(lit, field)
		case *ssa.FieldAddr:
			if ref.Field == field {
				funcs, ok = storedFuncs(ref)
			}
		}
		if !ok {
			return nil, false
		}
		out = append(out, funcs...)
	}
	return out, true
}

// fieldFuncs returns the functions stored into field of the struct at
// addr.
func fieldFuncs(addr ssa.Value, field int) ([]*ssa.Function, bool) {
	var out []*ssa.Function
	for _, ref := range *addr.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue // another field of the element (its name)
		}
		funcs, ok := storedFuncs(fa)
		if !ok {
			return nil, false
		}
		out = append(out, funcs...)
	}
	return out, true
}

// storesInto reports whether something is stored into field of the
// struct at addr (p.run = other after p := phases[i]).
func storesInto(addr ssa.Value, field int) bool {
	for _, ref := range *addr.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				return true
			}
		}
	}
	return false
}

// storedFuncs returns the functions stored at addr.
func storedFuncs(addr ssa.Value) ([]*ssa.Function, bool) {
	var out []*ssa.Function
	for _, use := range *addr.Referrers() {
		st, ok := use.(*ssa.Store)
		if !ok || st.Addr != addr {
			continue
		}
		f := funcValue(st.Val)
		if f == nil {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

// chosenFuncs returns the functions v, a func value merged by phis, may
// be, when each is a function or a closure (a bound method among them) or
// nil.
func chosenFuncs(v ssa.Value) []*ssa.Function {
	if _, ok := v.(*ssa.Phi); !ok {
		return nil
	}
	var out []*ssa.Function
	if !mergedValues(v, make(map[ssa.Value]bool), func(v ssa.Value) bool {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return true // the zero value of a func variable, not called
		}
		f := funcValue(v)
		if f == nil {
			return false
		}
		out = append(out, f)
		return true
	}) {
		return nil
	}
	return out
}

// fieldToken sets the token of w, a call that writes fenced by field name
// of the struct argument v: the value stored there at the call site
// (F(ctx, Params{Fence: tok})), or, for a struct that comes from elsewhere
// or is filled otherwise (row.Scan(&item.Fence)), the field itself as the
// program fills it. A struct built at the call site without it, or a field
// nothing in the package fills, fences nothing.
func (b *builder) fieldToken(w *Write, v ssa.Value, name string) {
	if tok := fieldOf(v, name); tok != nil {
		w.Token, w.Fenced = tok, !isConst(tok)
		return
	}
	if v == nil || builtWithout(v, name) {
		return
	}
	fv := structField(v.Type(), name)
	if fv == nil || fv.Pkg() == b.pass.Pkg && !b.tokens.fieldFilled(fv) {
		return
	}
	w.Token, w.TokenField, w.Fenced = v, fv, true
}

// builtWithout reports whether v is a struct (or a pointer to one) built in
// its function that never fills field name: neither stores into it nor
// hands its address to a call.
func builtWithout(v ssa.Value, name string) bool {
	x := unwrap(v)
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		x = load.X
	}
	alloc, ok := x.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		if fa, ok := ref.(*ssa.FieldAddr); ok && fa.X == alloc && fieldName(fa.X.Type(), fa.Field) == name {
			return false
		}
	}
	return true
}

// structField returns the field called name of the struct t is or points to.
func structField(t types.Type, name string) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok {
		for i := range s.NumFields() {
			if s.Field(i).Name() == name {
				return s.Field(i)
			}
		}
	}
	return nil
}

// callFact is fact for the function call c runs: a call through an
// interface takes the facts of the implementations of the interface it is
// called through (receiverTargets).
func (b *builder) callFact(c *ssa.CallCommon, obj *types.Func, f analysis.Fact) bool {
	if !c.IsInvoke() {
		if !b.fact(obj, f) {
			return false
		}
		if impls, ok := b.builtWith(c, factDispatch(f)); ok {
			return b.implFact(impls, f)
		}
		return true
	}
	return b.ownFact(obj, f) || b.targetsFact(b.receiverTargets(c), f)
}

// callWritesFact is callFact for a WritesFact, leaving out a function
// that a go statement starts and that its own package enters with the
// lease (entries.go): its writes are reported there, where they are made.
func (b *builder) callWritesFact(call ssa.CallInstruction, obj *types.Func, wf *WritesFact) bool {
	c := call.Common()
	if _, ok := call.(*ssa.Go); !ok || !b.prog.HandsOver() {
		return b.callFact(c, obj, wf)
	}
	if !c.IsInvoke() {
		if _, entered := b.prog.entryOf(obj); entered {
			return false
		}
		return b.callFact(c, obj, wf)
	}
	targets := b.receiverTargets(c)
	rest := slices.DeleteFunc(slices.Clone(targets), func(t dispatchTarget) bool { return b.prog.enters(t.fullName()) })
	if len(rest) == len(targets) {
		return b.callFact(c, obj, wf)
	}
	return b.ownFact(obj, wf) || b.targetsFact(rest, wf)
}

// fact reports whether fn has a fact of f's type, local or imported, and
// if so copies it into f.
// A call through an interface method takes the facts of its
// implementations (dispatch.go).
func (b *builder) fact(fn *types.Func, f analysis.Fact) bool {
	if b.ownFact(fn, f) {
		return true
	}
	if _, ok := interfaceMethod(fn); ok {
		return b.dispatchFact(fn, f)
	}
	return false
}

// ownFact reports whether fn itself has a fact of f's type, local or
// imported, and if so copies it into f.
func (b *builder) ownFact(fn *types.Func, f analysis.Fact) bool {
	fn = fn.Origin()
	if fn.Pkg() == b.pass.Pkg {
		for _, have := range b.local[fn] {
			if sameFactType(have, f) {
				copyFact(f, have)
				return true
			}
		}
		return false
	}
	if !b.pass.ImportObjectFact(fn, f) {
		return false
	}
	d := factDispatch(f)
	key := d.Type + "." + d.Method + d.Sig
	if impls, ok := b.reachableImpls(d); ok && !b.replacing[key] {
		b.replacing[key] = true
		defer delete(b.replacing, key)
		return b.implFact(impls, f)
	}
	return true
}

// copyFact copies src into dst, two facts of the same type.
func copyFact(dst, src analysis.Fact) {
	switch d := dst.(type) {
	case *WritesFact:
		*d = *src.(*WritesFact)
	case *FencedByParamFact:
		*d = *src.(*FencedByParamFact)
	case *RoleFact:
		*d = *src.(*RoleFact)
	case *TokenFact:
		*d = *src.(*TokenFact)
	case *CallbackParamFact:
		*d = *src.(*CallbackParamFact)
	case *SQLParamFact:
		*d = *src.(*SQLParamFact)
	case *FormatFact:
		*d = *src.(*FormatFact)
	case *SQLTemplateFact:
		*d = *src.(*SQLTemplateFact)
	case *SQLCondFact:
		*d = *src.(*SQLCondFact)
	case *CheckParamFact:
		*d = *src.(*CheckParamFact)
	case *TokenConvFact:
		*d = *src.(*TokenConvFact)
	case *CASFact:
		*d = *src.(*CASFact)
	case *FailsFact:
		*d = *src.(*FailsFact)
	case *ConvergeFact:
		*d = *src.(*ConvergeFact)
	case *LockKeyCtorFact:
		*d = *src.(*LockKeyCtorFact)
	case *NoticeParamFact:
		*d = *src.(*NoticeParamFact)
	case *SessionCtorFact:
		*d = *src.(*SessionCtorFact)
	case *CtxSessionFact:
		*d = *src.(*CtxSessionFact)
	}
}

// sqlWrite classifies SQL sent by call: a write, fenced if every writing
// statement compares a column with the token and the token is passed.
// Reads, lock calls and SQL fencelint cannot read make no Write.
//
// A query read along several paths (sqlTexts) is a write only if it writes
// on every path, and fenced only if it is fenced on every path.
func (b *builder) sqlWrite(w *Write, call ssa.CallInstruction, query ssa.Value, argsAt int) *Write {
	texts, ok := b.queryTexts(call.Common(), query)
	if !ok {
		return nil
	}
	return b.sqlTextsWrite(w, call, texts, argsAt)
}

// stmtsWrite classifies the statements a call passes, as the elements of
// list, to a helper that executes each (SQLParamFact.Each): each element is
// read as a statement of its own, and the call is a write as weak as its
// weakest, named by it. An element that only reads, or that cannot be
// read, makes no write; a list that is not a literal of the caller's is
// not read.
func (b *builder) stmtsWrite(w *Write, call ssa.CallInstruction, list ssa.Value) *Write {
	elems, ok := literalElems(list)
	if !ok {
		return nil
	}
	var worst *Write
	for _, e := range elems {
		texts, ok := b.sqlTexts(e)
		if !ok {
			continue
		}
		alt := *w
		if r := b.sqlTextsWrite(&alt, call, texts, -1); r != nil && (worst == nil || weaker(r, worst)) {
			worst = r
		}
	}
	delete(b.keyed, call) // kept only for the statement that names the call
	if worst == nil {
		return nil
	}
	if len(elems) > 1 {
		worst.bound = nil // one statement's bound says nothing of the others
	}
	if worst.keyed != "" {
		b.keyed[call] = worst.keyed
	}
	return worst
}

// sqlTextsWrite classifies the texts of the SQL sent by call, as sqlWrite.
func (b *builder) sqlTextsWrite(w *Write, call ssa.CallInstruction, texts []sqlText, argsAt int) *Write {
	var worst *Write
	keyed, accumulates, bounded := true, true, true
	for _, text := range texts {
		alt := *w
		r := b.sqlTextWrite(&alt, call, text, argsAt)
		if r == nil {
			return nil
		}
		if worst == nil || weaker(r, worst) {
			worst = r
		}
		keyed = keyed && r.keyed != ""
		accumulates = accumulates && r.accumulates
		bounded = bounded && (r.Fenced || r.bound != nil)
	}
	*w = *worst
	w.accumulates = accumulates
	if !bounded {
		w.bound = nil
	}
	if !keyed {
		w.keyed = ""
		if strings.HasPrefix(w.FencedBy, "a create-if-absent: ") {
			w.FencedBy = ""
		}
	}
	if w.keyed != "" {
		b.keyed[call] = w.keyed
	}
	return w
}

// weaker reports whether a is a worse outcome for a write than b: unfenced
// before unseen before unchecked before fenced.
func weaker(a, b *Write) bool {
	rank := func(w *Write) int {
		switch {
		case w.Fenced:
			return 3
		case w.Unchecked:
			return 2
		case w.Unseen != "":
			return 1
		}
		return 0
	}
	return rank(a) < rank(b)
}

// sqlTextWrite classifies one text of the SQL sent by call.
func (b *builder) sqlTextWrite(w *Write, call ssa.CallInstruction, text sqlText, argsAt int) *Write {
	script := b.parseSQL(text.text, w.System)
	if script.Unknown {
		return nil
	}
	var writes []*sqlscan.Statement
	for i := range script.Statements {
		if script.Statements[i].Writes {
			writes = append(writes, &script.Statements[i])
		}
	}
	if len(writes) == 0 {
		return serverChangeWrite(w, script)
	}
	w.What = fmt.Sprintf("%s (%s)", w.What, describeStatement(writes[0]))
	w.updates = tableUpdates(writes, text)
	if !slices.ContainsFunc(writes, func(st *sqlscan.Statement) bool { return !b.onLeaseTable(st) }) {
		w.LockImpl = true // a lease row's claim, renewal or release (leaserows.go)
		if i := slices.IndexFunc(writes, b.blindRelease); i >= 0 {
			w.BlindRelease = writes[i].Table
		}
		return w
	}
	var args []ssa.Value
	argsKnown := false
	if argsAt >= 0 {
		args, argsKnown = variadic(arg(call.Common(), argsAt))
	}
	w.Fenced, w.Append, w.accumulates = true, true, true
	check := false // some statement relies on the rows-affected count
	cas := false   // some statement's rows-affected count says whether it won
	for _, st := range writes {
		w.Append = w.Append && appendsOnly(st)
		w.accumulates = w.accumulates && (appendsOnly(st) || st.Accumulates)
		if len(writes) == 1 {
			if w.keyed = b.keyedInsert(st, text, args, argsKnown, call); w.keyed != "" {
				w.FencedBy = "a create-if-absent: " + w.keyed
				continue
			}
		}
		if rule, count := b.unfencedOK(st, text, args, argsKnown, call); rule != "" {
			check = check || count == countRequired
			cas = cas || count == countGates
			continue
		}
		if len(writes) == 1 {
			if leaves, what, ok := b.freshKeyInsert(st, text, args, argsKnown, call); ok {
				w.Fenced, w.keyLeaves, w.keyWhat = false, leaves, what
				return w
			}
		}
		if st.Conflict == "DO UPDATE" && st.Converges && len(st.Fences) == 0 {
			if params, ok := b.convergeValues(st, text, args, argsKnown, call); ok {
				w.Fenced, w.Converge = false, params
				return w
			}
		}
		check = true
		tok, fenced := fenceToken(st, text, args, argsKnown)
		if !fenced {
			w.Fenced = false
			if open := text.openHoles(st.Open); len(open) > 0 {
				w.Unseen = "WHERE clause (built at run time)"
				w.cond = b.condFact(w, text, open)
			} else if len(writes) == 1 {
				w.bound = decrementBound(st, text, args, argsKnown)
			}
			return w
		}
		if tok != nil {
			w.Token = tok
		}
	}
	if check && b.uncheckedResult(call) {
		w.Fenced, w.Unchecked = false, true
	}
	w.RowsCAS = w.Fenced && (check || cas)
	w.countFences = check
	return w
}

// parseSQL reads SQL text sent to system, once per text: pgx speaks only
// PostgreSQL, so its queries are read with PostgreSQL's rules; database/sql
// could be any database, so sqlscan picks the dialect.
func (b *builder) parseSQL(text string, system System) *sqlscan.Script {
	dialect := sqlscan.Auto
	if system == Postgres {
		dialect = sqlscan.PostgreSQL
	}
	key := sqlKey{text, dialect}
	if s, ok := b.sqlCache[key]; ok {
		return s
	}
	s := sqlscan.ParseDialect(text, dialect)
	b.sqlCache[key] = s
	return s
}

type sqlKey struct {
	text    string
	dialect sqlscan.Dialect
}

// describeStatement names a statement for a diagnostic: "UPDATE docs".
func describeStatement(st *sqlscan.Statement) string {
	switch {
	case st.Table == "":
		return st.Verb
	case strings.Contains(st.Table, "?"): // a hole: named at run time
		return st.Verb + " " + strings.ReplaceAll(st.Table, "?", "<run-time name>")
	}
	return st.Verb + " " + st.Table
}

// fenceToken reports whether st is fenced, and the Go value passed as its
// token when it can be traced. A fence whose placeholder receives no
// argument, or a constant, fences nothing.
func fenceToken(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool) (ssa.Value, bool) {
	if !st.Fenced() {
		return nil, false
	}
	for _, f := range st.Fences {
		if f.Token.Style == sqlscan.Hole { // the token formatted into the text
			if v := text.holeValue(f.Token); v != nil {
				return v, !isConst(v)
			}
			return nil, true
		}
		if f.Token.IsZero() || !argsKnown {
			return nil, true
		}
		i, name := sqlscan.ArgIndex(f.Token)
		if name != "" {
			if v := namedArg(args, name); v != nil {
				return v, !isConst(v)
			}
			return nil, true
		}
		if i >= 0 && i < len(args) && args[i] != nil && !isConst(args[i]) {
			return args[i], true
		}
	}
	return nil, false
}

// namedArg finds the value passed as sql.Named(name, v) among args.
func namedArg(args []ssa.Value, name string) ssa.Value {
	for _, a := range args {
		p := producer(a)
		if p == nil {
			continue
		}
		if f := calleeFunc(p.Common()); f != nil && f.Pkg() != nil && f.Pkg().Path() == "database/sql" && f.Name() == "Named" {
			if n, ok := constString(arg(p.Common(), 0)); ok && n == name {
				return unwrap(arg(p.Common(), 1))
			}
		}
	}
	return nil
}

// isExec reports whether call is an Exec or ExecContext, whose result
// carries the rows-affected count.
func isExec(call ssa.CallInstruction) bool {
	f := calleeFunc(call.Common())
	if f != nil && isGormDB(recvType(f)) {
		return f.Name() != "Raw" && call.Value() != nil && isGormDB(call.Value().Type()) // a write's *gorm.DB carries RowsAffected
	}
	if f != nil && isGormGeneric(recvType(f)) {
		return gormGenericCounts(f) // (rowsAffected int, err error); Exec returns only an error
	}
	if f != nil && boilerQueryWrite(f) != nil {
		return boilerCounts(f) // sqlboiler's UpdateAll and DeleteAll return the count
	}
	return f != nil && strings.Contains(f.Name(), "Exec") // Exec, ExecContext, sqlx's NamedExec and MustExec
}

// resultUsed reports whether the first result of call (the sql.Result,
// pgconn.CommandTag, *sql.Row or rows) is used: a fenced statement whose
// rows-affected count nobody reads cannot tell the holder it lost.
func resultUsed(call ssa.CallInstruction) bool {
	v, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	if isGormDB(v.Type()) {
		return gormCountRead(v)
	}
	if _, isTuple := v.Type().(*types.Tuple); !isTuple {
		return len(*v.Referrers()) > 0
	}
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 && len(*ex.Referrers()) > 0 {
			return true
		}
	}
	return false
}

// preparedQuery returns the SQL text a prepared statement was made from.
func preparedQuery(stmt ssa.Value) ssa.Value {
	p := producer(stmt)
	if p == nil {
		return nil
	}
	f := calleeFunc(p.Common())
	if f == nil || !strings.HasPrefix(f.Name(), "Prepare") {
		return nil
	}
	if f.Name() == "PrepareContext" {
		return arg(p.Common(), 1)
	}
	return arg(p.Common(), 0)
}

// etcdTxnFenced reports whether the Txn that txn is a step of has an If
// that ties it to the lock or to what it writes: IsOwner(), a compare of
// a key's CreateRevision or LeaseValue (ownership of the lock key), or a
// compare on a key the Txn writes (create-if-absent, compare-and-swap). An
// If on an unrelated key does not fence, nor does one that only checks
// that a key the Txn writes exists (KeyExists, CreateRevision(key) > 0):
// the next holder's write leaves it existing, so a stale holder's update
// still lands. A compare built out of sight is given the benefit of the
// doubt.
func etcdTxnFenced(txn ssa.Value) bool {
	steps := etcdTxnSteps(txn)
	if steps.ifUnseen {
		return true
	}
	written := etcdOpKeys(slices.Concat(steps.thens, steps.elses))
	for _, cmp := range steps.ifs {
		if etcdCmpFences(cmp, written, steps.thens) {
			return true
		}
	}
	return false
}

// txnSteps are the arguments of a Txn's If, Then and Else steps.
type txnSteps struct {
	ifs, thens, elses []ssa.Value
	ifUnseen          bool // an If's compares are built out of sight
	opsUnseen         bool // a Then's or Else's ops are built out of sight
	complete          bool // the chain was followed back to the Txn call that starts it
}

// add records the compares or ops of step, a call of the Txn method name,
// and reports whether name is If, Then or Else.
func (s *txnSteps) add(name string, step *ssa.CallCommon) bool {
	args, known := appendedElems(arg(step, 0))
	switch name {
	case "If":
		s.ifs = append(s.ifs, args...)
		s.ifUnseen = s.ifUnseen || !known
	case "Then":
		s.thens = append(s.thens, args...)
		s.opsUnseen = s.opsUnseen || !known
	case "Else":
		s.elses = append(s.elses, args...)
		s.opsUnseen = s.opsUnseen || !known
	default:
		return false
	}
	return true
}

// etcdTxnSteps walks the builder chain txn ends (Txn(ctx).If(...).Then(...)
// .Else(...)) back to its start. Ops or compares passed as a slice the
// function builds by appending are read (appendedElems); those of a slice
// built elsewhere are left out.
func etcdTxnSteps(txn ssa.Value) txnSteps {
	var s txnSteps
	for v := txn; v != nil; {
		p := producer(v)
		if p == nil {
			break
		}
		f := calleeFunc(p.Common())
		if f == nil || typeName(recvType(f)) != "Txn" {
			if f != nil && f.Name() == "Txn" {
				// Txn is stateful: the steps are every If, Then and Else
				// made on it, also those not chained to the Commit
				// (txn.If(cmp).Then(put); txn.Commit()).
				s = txnStepsFrom(p)
				s.complete = true
			}
			break
		}
		s.add(f.Name(), p.Common())
		v = callRecv(p.Common())
	}
	return s
}

// txnStepsFrom collects the steps made on the Txn that root returns, along
// every chain of If, Then and Else calls that starts at it.
func txnStepsFrom(root ssa.Value) txnSteps {
	var s txnSteps
	work := []ssa.Value{root}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ref := range referrers(v) {
			call, ok := ref.(*ssa.Call)
			if !ok || callRecv(call.Common()) != v {
				continue
			}
			f := calleeFunc(call.Common())
			if f == nil || typeName(recvType(f)) != "Txn" {
				continue
			}
			if s.add(f.Name(), call.Common()) {
				work = append(work, call)
			}
		}
	}
	return s
}

// etcdTxnReads reports whether the Txn that txn is a step of only reads:
// its chain is in sight back to the Txn call that starts it, and every op
// of its Then and Else is a read (OpGet; a Txn of compares alone has
// none). Committing it writes nothing a fence could protect; a Txn is
// how etcd reads several keys at one revision.
func etcdTxnReads(txn ssa.Value) bool {
	s := etcdTxnSteps(txn)
	if !s.complete || s.opsUnseen {
		return false
	}
	for _, op := range slices.Concat(s.thens, s.elses) {
		if !etcdOpReads(op, nil, 0) {
			return false
		}
	}
	return true
}

// etcdOpKeys returns the keys of the OpPut and OpDelete ops among ops.
func etcdOpKeys(ops []ssa.Value) []ssa.Value {
	var keys []ssa.Value
	for _, op := range ops {
		if p := producer(op); p != nil {
			if f := calleeFunc(p.Common()); f != nil && (f.Name() == "OpPut" || f.Name() == "OpDelete") {
				keys = append(keys, arg(p.Common(), 0))
			}
		}
	}
	return keys
}

// etcdCmpFences reports whether one compare of a Txn's If fences it;
// thens are the ops of the Txn's Then.
func etcdCmpFences(cmp ssa.Value, written, thens []ssa.Value) bool {
	p := producer(cmp)
	if p == nil {
		return true // built out of sight
	}
	f := calleeFunc(p.Common())
	if f == nil {
		return true
	}
	switch f.Name() {
	case "IsOwner":
		return true
	case "KeyMissing": // clientv3util: create-if-absent
		return writesKey(written, arg(p.Common(), 0))
	case "KeyExists": // clientv3util: update-if-exists
		return false
	case "Compare":
	default:
		return true
	}
	target := producer(arg(p.Common(), 0))
	if target == nil {
		return true
	}
	tf := calleeFunc(target.Common())
	if tf == nil {
		return true
	}
	if existenceCheck(p.Common()) && writesKey(written, arg(target.Common(), 0)) {
		return false
	}
	switch tf.Name() {
	case "CreateRevision", "LeaseValue":
		return true
	case "ModRevision", "Version", "Value":
		key := arg(target.Common(), 0)
		return writesKey(written, key) && !etcdBlindSwap(p, key, arg(p.Common(), 2), thens)
	}
	return true
}

// etcdTxnBlindSwap reports whether a compare of the Txn that txn is a step
// of makes a blind compare-and-swap of what it writes.
func etcdTxnBlindSwap(txn ssa.Value) bool {
	steps := etcdTxnSteps(txn)
	for _, cmp := range steps.ifs {
		if p, key := etcdVersionCompare(cmp); p != nil && etcdBlindSwap(p, key, arg(p.Common(), 2), steps.thens) {
			return true
		}
	}
	return false
}

// etcdVersionCompare returns the clientv3.Compare call cmp is and the key
// it compares, when it compares a key's ModRevision, Version or Value;
// nil otherwise.
func etcdVersionCompare(cmp ssa.Value) (*ssa.Call, ssa.Value) {
	p := producer(cmp)
	if p == nil {
		return nil, nil
	}
	if f := calleeFunc(p.Common()); f == nil || f.Name() != "Compare" {
		return nil, nil
	}
	target := producer(arg(p.Common(), 0))
	if target == nil {
		return nil, nil
	}
	switch tf := calleeFunc(target.Common()); {
	case tf == nil:
		return nil, nil
	case tf.Name() == "ModRevision" || tf.Name() == "Version" || tf.Name() == "Value":
		return p, arg(target.Common(), 0)
	}
	return nil, nil
}

// etcdBlindSwap reports whether cmp, a compare of key with expected, makes
// a blind compare-and-swap of the op among thens that writes key
// (blindswap.go).
func etcdBlindSwap(cmp *ssa.Call, key, expected ssa.Value, thens []ssa.Value) bool {
	for _, op := range thens {
		p := producer(op)
		if p == nil {
			continue
		}
		f := calleeFunc(p.Common())
		if f == nil || !sameValue(arg(p.Common(), 0), key, 0) {
			continue
		}
		switch f.Name() {
		case "OpPut":
			return blindSwap(cmp, key, expected, arg(p.Common(), 1))
		case "OpDelete":
			return blindSwap(cmp, key, expected, nil)
		}
	}
	return false
}

// existenceCheck reports whether the clientv3.Compare call cmp checks
// only that its key exists: a revision or version compared "> 0" or
// "!= 0".
func existenceCheck(cmp *ssa.CallCommon) bool {
	target := producer(arg(cmp, 0))
	if target == nil {
		return false
	}
	switch tf := calleeFunc(target.Common()); {
	case tf == nil:
		return false
	case tf.Name() != "CreateRevision" && tf.Name() != "ModRevision" && tf.Name() != "Version":
		return false
	}
	op, ok := constString(arg(cmp, 1))
	n, isInt := constInt(arg(cmp, 2))
	return ok && isInt && n == 0 && (op == ">" || op == "!=")
}

// writesKey reports whether key is among the written keys.
func writesKey(written []ssa.Value, key ssa.Value) bool {
	for _, w := range written {
		if sameBuiltKey(w, key) {
			return true
		}
	}
	return false
}

// recvType returns the receiver type of a method, or nil.
func recvType(f *types.Func) types.Type {
	if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil {
		return sig.Recv().Type()
	}
	return nil
}

// s3Conditions are the S3 input fields that make a write conditional.
var s3Conditions = []string{"IfMatch", "IfNoneMatch", "IfMatchLastModifiedTime", "IfMatchSize"}

// s3Fenced reports whether an S3 input struct built here sets a write
// condition; known is false when the input was built elsewhere.
func s3Fenced(input ssa.Value) (fenced, known bool) {
	alloc, ok := unwrap(input).(*ssa.Alloc)
	if !ok {
		return false, false
	}
	fields := storedFields(alloc)
	for _, name := range s3Conditions {
		if _, set := fields[name]; set {
			return true, true
		}
	}
	return false, true
}

// gcsFenced reports whether an object handle (or the destination of a
// Copier or Composer) went through If(Conditions{...}); known is false
// when the handle came from elsewhere.
func gcsFenced(handle ssa.Value) (fenced, known bool) {
	for v := handle; v != nil; {
		p := producer(v)
		if p == nil {
			return false, false
		}
		f := calleeFunc(p.Common())
		if f == nil {
			return false, false
		}
		switch {
		case f.Name() == "If":
			return true, true
		case typeName(recvType(f)) == "BucketHandle":
			return false, true
		}
		v = callRecv(p.Common()) // Generation, Key, CopierFrom, ... keep the handle
	}
	return false, false
}

// hasCheckVersion reports whether a zk Multi's ops include a
// *zk.CheckVersionRequest.
func hasCheckVersion(ops ssa.Value) bool {
	elems, ok := variadic(ops)
	if !ok {
		return true // ops built elsewhere: stay quiet
	}
	for _, e := range elems {
		if e != nil && typeName(e.Type()) == "CheckVersionRequest" {
			return true
		}
	}
	return false
}

// inWatch reports whether fn runs inside a go-redis Watch callback, where
// EXEC aborts if a watched key changed.
func (b *builder) inWatch(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		for _, p := range f.Params {
			if typeName(p.Type()) == "Tx" && strings.Contains(normalizePath(pkgPathOf(p.Type())), "redis") {
				return true
			}
		}
	}
	return false
}

// pkgPathOf returns the import path of t's named type, or "".
func pkgPathOf(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path()
	}
	return ""
}

// touchesLockKey reports whether a Redis write targets the key of a
// hand-rolled lock (the key of a SET NX in the package): deleting or
// expiring the lock key is the lock's own release or renewal.
func (b *builder) touchesLockKey(fn *ssa.Function, c *ssa.CallCommon) bool {
	for _, k := range redisKeyArgs(c) {
		if b.isLockKey(k) || b.isPairedLockKey(fn, k) {
			return true
		}
	}
	return false
}

// isLockKey reports whether v computes the key of a SET NX in the package.
func (b *builder) isLockKey(v ssa.Value) bool {
	return b.isLockKeyAt(v, 0)
}

// isLockKeyAt is isLockKey, which also follows a key handed down (depth
// calls so far): a closure's free variable bound to the lock's key, and a
// helper's parameter that every call of the package passes the lock's key
// (revoke(path) and refresh(path) after SET NX of path): such a helper
// releases or renews the lock, whatever it is called.
func (b *builder) isLockKeyAt(v ssa.Value, depth int) bool {
	for _, lk := range b.lockKeys() {
		if b.sameKey(v, lk) || b.sameKey(v, capturedValue(lk)) {
			return true
		}
	}
	if depth >= 3 {
		return false
	}
	switch x := unwrap(v).(type) {
	case *ssa.UnOp:
		if val := capturedValue(x); val != x {
			return b.isLockKeyAt(val, depth+1)
		}
	case *ssa.FreeVar:
		if bound := boundTo(x); bound != nil {
			return b.isLockKeyAt(bound, depth+1)
		}
	case *ssa.Parameter:
		fn := x.Parent()
		i := slices.Index(fn.Params, x)
		ix := b.tokens.index()
		if i < 0 || ix.escapes[fn] || len(ix.callSites[fn]) == 0 {
			return false
		}
		for _, site := range ix.callSites[fn] {
			args := site.Common().Args
			if i >= len(args) || !b.isLockKeyAt(args[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// capturedValue returns, for a load of a variable that closures capture
// (a parameter Go moves to the heap: *path), the one value stored into it;
// v otherwise.
func capturedValue(v ssa.Value) ssa.Value {
	load, ok := unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	if alloc, ok := boundTo(load.X).(*ssa.Alloc); ok {
		if val := storedOnce(alloc); val != nil {
			return val
		}
	}
	return v
}

// sameKey reports whether two Redis keys are the same: a key is rebuilt
// where it is renewed or released by the same calls on the same operands
// (fmt.Sprintf("lock:%s", job), "job:"+id.Hex()), so calls are compared
// too, not only in pipeline steps.
func (b *builder) sameKey(v, key ssa.Value) bool {
	steps := b.steps
	if steps == nil {
		steps = map[*ssa.Function]int{}
	}
	return sameValueIn(v, key, 0, steps)
}

// redisKeyArgs returns the key arguments of a go-redis command: the second
// argument (after ctx), or all of a Del/Unlink/Exists ...string list.
func redisKeyArgs(c *ssa.CallCommon) []ssa.Value {
	if isRedigo(c) {
		return redigoKeys(c)
	}
	if isRueidis(c) {
		return rueidisKeys(c)
	}
	k := redisArg(c, 1)
	if k == nil {
		return nil
	}
	if elems, ok := variadic(k); ok {
		return elems
	}
	return []ssa.Value{k}
}

// isRedigo reports whether c calls into redigo, whose commands are named
// by a string argument and take their key as the first of the rest.
func isRedigo(c *ssa.CallCommon) bool {
	f := calleeFunc(c)
	return f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgRedigo
}

// redigoWatches reports whether fn sends a redigo WATCH: its writes are
// then queued in the MULTI/EXEC that the watched keys' change aborts, the
// optimistic transaction go-redis's Watch callback is.
func redigoWatches(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !isRedigo(call.Common()) {
				continue
			}
			if _, at := redigoArgs(call.Common()); at >= 0 {
				if cmd, ok := constString(arg(call.Common(), at)); ok && strings.EqualFold(cmd, "WATCH") {
					return true
				}
			}
		}
	}
	return false
}

// redigoKeys returns the key arguments of a redigo command: the first
// argument after the command, or all of a DEL's or UNLINK's.
func redigoKeys(c *ssa.CallCommon) []ssa.Value {
	args, at := redigoArgs(c)
	if at < 0 || len(args) == 0 || args[0] == nil {
		return nil
	}
	if cmd, _ := constString(arg(c, at)); strings.EqualFold(cmd, "DEL") || strings.EqualFold(cmd, "UNLINK") {
		return args
	}
	return args[:1]
}

// lockKeys returns the keys of every SET NX in the package, once.
func (b *builder) lockKeys() []ssa.Value {
	if b.keys != nil {
		return *b.keys
	}
	keys := []ssa.Value{}
	b.findingKeys = true
	defer func() { b.findingKeys = false }()
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		if k := b.redisLockKey(call.Common()); k != nil {
			keys = append(keys, k)
		} else if k := b.redisWrapperKey(call.Common()); k != nil {
			keys = append(keys, k)
		}
		return true
	})
	b.keys = &keys
	return keys
}

// redisLockKey returns the Redis key a call locks: the key of SET NX, of
// bsm/redislock's Obtain, or the name of a redsync mutex (redsync uses the
// name as the key). Writing that key is tampering with the lock itself
// (tests fake a lost lock that way), not a write the lock protects.
func (b *builder) redisLockKey(c *ssa.CallCommon) ssa.Value {
	if callee, ok := b.resolve(c); ok && callee.api != nil && callee.api.System == Redis && callee.role.Has(RoleTryAcquire) {
		if callee.api.Fence == RedisScript {
			return b.scriptLockKey(c, callee.api)
		}
		if isRedigo(c) {
			if keys := redigoKeys(c); len(keys) > 0 {
				return keys[0]
			}
			return nil
		}
		return redisArg(c, 1)
	}
	f := calleeFunc(c)
	if f == nil || f.Pkg() == nil {
		return nil
	}
	switch pkg := CanonicalPath(f.Pkg().Path()); {
	case pkg == pkgRedislock && f.Name() == "Obtain" && receiverName(f) != "":
		return arg(c, 1)
	case pkg == pkgRedislock && f.Name() == "Obtain":
		return arg(c, 2)
	case pkg == pkgRedsync && f.Name() == "NewMutex":
		return arg(c, 0)
	}
	return nil
}

// sameValue reports whether a and b compute the same value: the same SSA
// value, equal constants, or the same operation on the same operands
// ("lock:"+job written twice).
func sameValue(a, b ssa.Value, depth int) bool {
	return sameValueIn(a, b, depth, nil)
}

// sameValueIn is sameValue that, given steps (non-nil, possibly empty: the
// parameters of pipeline steps, which all receive the same argument), also
// takes the same parameter of two steps of one pipeline for one value, and
// two calls of
// one function on the same arguments (GetRedisKey(lockTmpl, ctx.DevEUI) in
// the step that locks and in the step that releases) for one key.
func sameValueIn(a, b ssa.Value, depth int, steps map[*ssa.Function]int) bool {
	a, b = unwrap(a), unwrap(b)
	if a == b {
		return true
	}
	if depth > 8 {
		return false
	}
	same := func(x, y ssa.Value) bool { return sameValueIn(x, y, depth+1, steps) }
	switch x := a.(type) {
	case *ssa.Const:
		y, ok := b.(*ssa.Const)
		return ok && x.Value != nil && y.Value != nil && x.Value.ExactString() == y.Value.ExactString()
	case *ssa.BinOp:
		y, ok := b.(*ssa.BinOp)
		return ok && x.Op == y.Op && same(x.X, y.X) && same(x.Y, y.Y)
	case *ssa.UnOp:
		y, ok := b.(*ssa.UnOp)
		return ok && x.Op == y.Op && same(x.X, y.X)
	case *ssa.FieldAddr:
		y, ok := b.(*ssa.FieldAddr)
		return ok && x.Field == y.Field && same(x.X, y.X)
	case *ssa.Field:
		y, ok := b.(*ssa.Field)
		return ok && x.Field == y.Field && same(x.X, y.X)
	case *ssa.Convert: // string(kv.Key) written out twice
		y, ok := b.(*ssa.Convert)
		return ok && types.Identical(x.Type(), y.Type()) && same(x.X, y.X)
	case *ssa.IndexAddr: // resp.Kvs[0] read twice
		y, ok := b.(*ssa.IndexAddr)
		return ok && same(x.X, y.X) && same(x.Index, y.Index)
	case *ssa.Index:
		y, ok := b.(*ssa.Index)
		return ok && same(x.X, y.X) && same(x.Index, y.Index)
	case *ssa.Parameter:
		y, ok := b.(*ssa.Parameter)
		return ok && steps != nil && sameStepParam(x, y, steps)
	case *ssa.Call:
		y, ok := b.(*ssa.Call)
		return ok && steps != nil && sameCall(x.Common(), y.Common(), same)
	case *ssa.Slice:
		y, ok := b.(*ssa.Slice)
		return ok && steps != nil && sameElems(x, y, same)
	}
	return false
}

// sameStepParam reports whether p and q are the same parameter of two
// steps of one pipeline.
func sameStepParam(p, q *ssa.Parameter, steps map[*ssa.Function]int) bool {
	pf, qf := p.Parent(), q.Parent()
	pi, qi := slices.Index(pf.Params, p), slices.Index(qf.Params, q)
	id, ok := steps[pf]
	return ok && steps[qf] == id && pi == qi && types.Identical(p.Type(), q.Type())
}

// sameCall reports whether two calls invoke one function on the same
// arguments.
func sameCall(x, y *ssa.CallCommon, same func(a, b ssa.Value) bool) bool {
	fx, fy := x.StaticCallee(), y.StaticCallee()
	if fx == nil || fx != fy || len(x.Args) == 0 || len(x.Args) != len(y.Args) {
		return false
	}
	for i := range x.Args {
		if !same(x.Args[i], y.Args[i]) {
			return false
		}
	}
	return true
}

// sameElems reports whether two ...T slices built at their call sites hold
// the same values.
func sameElems(x, y *ssa.Slice, same func(a, b ssa.Value) bool) bool {
	ex, okx := variadic(x)
	ey, oky := variadic(y)
	if !okx || !oky || len(ex) != len(ey) {
		return false
	}
	for i := range ex {
		if ex[i] == nil || ey[i] == nil || !same(ex[i], ey[i]) {
			return false
		}
	}
	return true
}

// fieldOf returns the value stored in field name of a struct argument built
// at the call site (F(ctx, Params{Fence: tok})), or nil.
func fieldOf(v ssa.Value, name string) ssa.Value {
	switch x := unwrap(v).(type) {
	case *ssa.UnOp: // a struct literal is built in a local and loaded
		if x.Op == token.MUL {
			return storedFields(x.X)[name]
		}
	case *ssa.Alloc:
		return storedFields(x)[name]
	}
	return nil
}

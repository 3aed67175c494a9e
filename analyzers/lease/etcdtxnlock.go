package lease

import (
	"go/types"
	"path"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An etcd lock taken by hand is a transaction that puts the lock key,
// bound to a lease, only if the key does not exist (cronsun's job lock):
//
//	lease, _ := cli.Grant(ctx, ttl)
//	resp, err := cli.Txn(ctx).
//		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
//		Then(clientv3.OpPut(key, id, clientv3.WithLease(lease.ID))).
//		Commit()
//	if err != nil || !resp.Succeeded { return }
//
// Its Commit is a try-acquire: the lock is held while resp.Succeeded is
// true (or while the bool a wrapper returns from it is), until the lease
// expires (its TTL) or is revoked, or the key is deleted. Both conditions
// are required: a create-if-absent whose OpPut carries no lease is a
// create, not a lock (nothing makes it lapse, so no one waits it out), and
// a leased put under any other compare is a plain conditional write. The
// key's absence may also be told by clientv3util.KeyMissing(key) (the
// same compare), and other compares may join it (spqr's operation lock
// requires the key range to exist too). Beside the leased put, the Then
// may only read other keys (what the lock guards, read in the same
// revision); a transaction that serves the caller's own op on the claimed
// key alongside the claim (etcd's leasing KV, which takes ownership of a
// key it caches) records who caches the key, not a lock around the work
// that follows. The lock is let go by a Delete of its key, or by a Txn
// whose Then only deletes it (spqr's UnlockKeyRangeOps).
//
// The queue recipe is a lock too. etcd's Mutex and read-write mutex put a
// key of the caller's own under the lock's prefix (prefix/<lease ID>),
// with its lease, if absent (CreateRevision or Version = 0), and hold the
// lock once no key under the prefix was put before theirs: they read the
// prefix for the first-created key (WithFirstCreate, in the claim's Then,
// as the Mutex does) or for the last one below their own revision
// (WithMaxModRev, WithMaxCreateRev), and wait while there is one.
// Applications copy it (vitess's lock.go, and the vearch master's
// DistLock after it; agola's Mutex with a TryLock). Alone, such a put
// excludes no one (a member's key in a list, a barrier's waiter), so it
// is read as a claim only where the function that makes it reads who
// came before, or every function that calls it does (queued): the claim
// is then the lock's try-acquire, and the function that waits out the
// queue or gives up (deleting its key or revoking its lease) the lock's
// acquire, as the wrapper rules find it.

// etcdLockClaim returns the key a Txn's Commit claims as a hand-rolled
// lock, or nil if call is no such claim. txn is the Commit's receiver.
func (b *builder) etcdLockClaim(txn ssa.Value) ssa.Value {
	steps := etcdTxnSteps(txn)
	var key ssa.Value
	for _, op := range steps.thens {
		if k := b.leasedPutKey(op); k != nil && key == nil {
			key = k
		}
	}
	if key == nil {
		return nil
	}
	queued := b.queued(txn.Parent())
	for _, op := range steps.thens {
		if b.leasedPutKey(op) == nil && !b.readsOtherKey(op, key) && !(queued && b.readsFirstCreated(op)) {
			return nil
		}
	}
	for _, cmp := range steps.ifs {
		if absent, unique := absenceCompare(cmp); absent != nil && sameBuiltKey(absent, key) && (!unique || queued) {
			return key
		}
	}
	return nil
}

// predecessorOptions are the etcd read options a queue lock asks who came
// before it with: the first-created key under its prefix, or the keys
// below its own revision.
var predecessorOptions = []string{"WithFirstCreate", "WithMaxCreateRev", "WithMaxModRev"}

// queued reports whether fn, the function that makes a leased put of a
// key unique to its caller, takes a place in a lock's queue: it reads who
// came before, or every function of the package that calls it does
// (directly, or through a function of the package it calls). A put only
// some callers wait behind is a member's key elsewhere (etcd's recipes
// put a barrier's waiters and a read-write mutex's queue entries with one
// helper).
func (b *builder) queued(fn *ssa.Function) bool {
	if q, ok := b.queueClaims[fn]; ok {
		return q
	}
	if b.queueClaims == nil {
		b.queueClaims = make(map[*ssa.Function]bool)
	}
	b.queueClaims[fn] = false // a cycle through fn asks no further
	q := b.readsPredecessors(fn, 0)
	if !q {
		var callers []*ssa.Function
		b.calls(func(caller *ssa.Function, call ssa.CallInstruction) bool {
			if call.Common().StaticCallee() == fn && caller != fn && !inTestFile(b.pass.Fset, call.Pos()) {
				callers = append(callers, caller)
			}
			return true
		})
		q = len(callers) > 0 && !slices.ContainsFunc(callers, func(c *ssa.Function) bool { return !b.readsPredecessors(c, 0) })
	}
	b.queueClaims[fn] = q
	return q
}

// readsPredecessors reports whether fn calls one of predecessorOptions,
// itself or through the functions of the package it calls (three deep).
func (b *builder) readsPredecessors(fn *ssa.Function, depth int) bool {
	if depth > 3 || fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != b.pass.Pkg {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if f := calleeFunc(call.Common()); f != nil && b.isEtcdFunc(f) && slices.Contains(predecessorOptions, f.Name()) {
				return true
			}
			if callee := call.Common().StaticCallee(); callee != nil && callee != fn && b.readsPredecessors(callee, depth+1) {
				return true
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if b.readsPredecessors(anon, depth+1) {
			return true
		}
	}
	return false
}

// readsFirstCreated reports whether op is an OpGet of the first-created
// key under a prefix: the Mutex recipe's read of the lock's holder, made
// in the claim's transaction.
func (b *builder) readsFirstCreated(op ssa.Value) bool {
	p := producer(op)
	if p == nil {
		return false
	}
	if f := calleeFunc(p.Common()); f == nil || f.Name() != "OpGet" || !b.isEtcdFunc(f) {
		return false
	}
	opts := producer(arg(p.Common(), 1))
	if opts == nil {
		return false
	}
	f := calleeFunc(opts.Common())
	return f != nil && f.Name() == "WithFirstCreate" && b.isEtcdFunc(f)
}

// readsOtherKey reports whether op is an OpGet of one key other than key,
// with no options. A read of a range beside the put (the first-created key
// under the lock's prefix: etcd's Mutex recipe, copied) makes the put a
// place in a queue, which readsFirstCreated tells where it is queued.
func (b *builder) readsOtherKey(op, key ssa.Value) bool {
	p := producer(op)
	if p == nil {
		return false
	}
	f := calleeFunc(p.Common())
	if f == nil || f.Name() != "OpGet" || !b.isEtcdFunc(f) {
		return false
	}
	opts, ok := variadic(arg(p.Common(), 1))
	return ok && len(opts) == 0 && !sameBuiltKey(arg(p.Common(), 0), key)
}

// leasedPutKey returns the key of op, an OpPut with a WithLease option,
// or nil.
func (b *builder) leasedPutKey(op ssa.Value) ssa.Value {
	p := producer(op)
	if p == nil {
		return nil
	}
	if f := calleeFunc(p.Common()); f == nil || f.Name() != "OpPut" || !b.isEtcdFunc(f) {
		return nil
	}
	opts, _ := variadic(arg(p.Common(), 2))
	for _, o := range opts {
		if q := producer(o); q != nil {
			if f := calleeFunc(q.Common()); f != nil && b.isEtcdWithLease(f) {
				return arg(p.Common(), 0)
			}
		}
	}
	return nil
}

// absenceCompare returns key if cmp is Compare(CreateRevision(key), "=",
// 0), Compare(Version(key), "=", 0) or clientv3util.KeyMissing(key): the
// key does not exist. unique says it was Version: etcd's recipes put a key
// unique to the caller so, which is a lock only where it is queued.
func absenceCompare(cmp ssa.Value) (key ssa.Value, unique bool) {
	p := producer(cmp)
	if p == nil {
		return nil, false
	}
	f := calleeFunc(p.Common())
	if f != nil && f.Name() == "KeyMissing" && f.Pkg() != nil && path.Base(f.Pkg().Path()) == "clientv3util" {
		return arg(p.Common(), 0), false
	}
	if f == nil || f.Name() != "Compare" {
		return nil, false
	}
	if op, ok := constString(arg(p.Common(), 1)); !ok || op != "=" {
		return nil, false
	}
	if n, ok := constInt(arg(p.Common(), 2)); !ok || n != 0 {
		return nil, false
	}
	target := producer(arg(p.Common(), 0))
	if target == nil {
		return nil, false
	}
	switch f := calleeFunc(target.Common()); {
	case f == nil:
		return nil, false
	case f.Name() == "CreateRevision":
		return arg(target.Common(), 0), false
	case f.Name() == "Version":
		return arg(target.Common(), 0), true
	}
	return nil, false
}

// isEtcdFunc reports whether fn is a package-level function of the etcd
// client (any import path the catalog knows for it).
func (b *builder) isEtcdFunc(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Signature().Recv() == nil && b.ix.canonical(fn.Pkg().Path()) == pkgEtcd
}

// etcdLockKeyDeleted reports whether key, the key of a KV.Delete, is the
// key of one of the package's hand-rolled etcd locks: the same value, or
// a key built from the same prefix (a field, a package variable or a
// constant that the lock key starts with: conf.Config.Lock + id). Deleting
// it gives the lock up.
func (b *builder) etcdLockKeyDeleted(key ssa.Value) bool {
	if key == nil {
		return false
	}
	root := keyRoot(key)
	for _, k := range b.etcdLockKeys() {
		if sameValue(k, key, 0) || root != nil && root == keyRoot(k) {
			return true
		}
	}
	return false
}

// etcdTxnReleasesLock reports whether txn, the receiver of a Commit, only
// deletes keys of the package's hand-rolled etcd locks: Txn(ctx).
// If(owned(key)).Then(OpDelete(key)) gives the lock up.
func (b *builder) etcdTxnReleasesLock(txn ssa.Value) bool {
	s := etcdTxnSteps(txn)
	if !s.complete || s.opsUnseen || len(s.thens) == 0 || len(s.elses) > 0 {
		return false
	}
	for _, op := range s.thens {
		p := producer(op)
		if p == nil {
			return false
		}
		f := calleeFunc(p.Common())
		if f == nil || f.Name() != "OpDelete" || !b.isEtcdFunc(f) || !b.etcdLockKeyDeleted(arg(p.Common(), 0)) {
			return false
		}
	}
	return true
}

// etcdLockKeys returns the keys the package's hand-rolled etcd locks
// claim, found once.
func (b *builder) etcdLockKeys() []ssa.Value {
	if b.etcdLocks != nil {
		return *b.etcdLocks
	}
	var keys []ssa.Value
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				f := calleeFunc(call.Common())
				if f == nil || f.Name() != "Commit" {
					continue
				}
				if api := b.ix.lookupFunc(f); api == nil || api.System != Etcd {
					continue
				}
				if k := b.etcdLockClaim(callRecv(call.Common())); k != nil {
					keys = append(keys, k)
				}
			}
		}
	}
	b.etcdLocks = &keys
	return keys
}

// keyRoot names what a key string starts with: the field, package
// variable or constant on the left of its concatenations, or the key
// builder that spells the whole key (taskLockPath(id)); nil if none.
func keyRoot(v ssa.Value) any {
	return keyLead(v, true)
}

// keyLead is keyRoot; inside a key builder (callsBuilders false) it reads
// path.Join's or filepath.Join's first element as the key's start, and no
// call as a builder of its own.
func keyLead(v ssa.Value, callsBuilders bool) any {
	for depth := 0; depth < 8; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.BinOp:
			v = x.X
			continue
		case *ssa.Const:
			if s, ok := constString(x); ok && s != "" {
				return s
			}
			return nil
		case *ssa.UnOp:
			if g, ok := x.X.(*ssa.Global); ok {
				return g.Object()
			}
		case *ssa.Call:
			if !callsBuilders {
				if first := joinedFirst(x.Common()); first != nil {
					v = first
					continue
				}
				return nil
			}
			// The whole key, not a prefix: lockPath(id)+"/owner" is
			// another family than lockPath(id).
			if fn := x.Call.StaticCallee(); depth == 0 && namespacedBuilder(fn) {
				return fn
			}
			return nil
		}
		if fv := loadedField(v); fv != nil {
			return fv
		}
		return nil
	}
	return nil
}

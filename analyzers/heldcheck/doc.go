// Package heldcheck defines an Analyzer that reports lease-validity checks
// used to guard writes the store does not fence: is-held-then-write, a
// time-of-check to time-of-use race.
//
// # Analyzer heldcheck
//
// heldcheck: report lease-validity checks (IsLeader, Valid, TTL) that guard an unfenced write
//
// A lease-validity check asks whether this process still holds a lease:
// redsync Mutex.Valid, ValidContext and Until, bsm/redislock Lock.TTL,
// leaderelection LeaderElector.IsLeader (or GetLeader() == our identity),
// raft State() == raft.Leader, VerifyLeader().Error() == nil and
// LeaderWithID() compared with our ID, etcd Lease.TimeToLive's remaining
// TTL (not its error: etcd answers a lease that is gone with a TTL of -1;
// nor its GrantedTTL) and Election.Leader compared with our value, Consul Session.Info and a KV Get
// of the lock key compared with the holder's session, ZooKeeper Conn.State
// where a lock is held (a connection that is up vouches for no lease the
// code does not hold: a readiness check at start-up is none) and Exists on
// the lock node, go-redis TTL or PTTL of a SET NX lock key,
// gocron Elector.IsLeader, a leadership notice received from raft (the
// bool Raft.LeaderCh or the application's own channel handed to raft as
// Config.NotifyCh delivers, kept in a field or variable of the package:
// case isLeader := <-a.leaderCh: if isLeader { a.leaderLoop() }) or from
// the application's own election (a bool it sends on a channel kept in a
// field while it holds a lease, received in its package or in the one that
// handed it the channel: election.New(cli, c.signal)), a
// leader flag that an OnStartedLeading callback
// sets (leading.Store(true), isLeader = true, or through a setter of the
// package: l.setLeader(true)) or that is set where a lease
// is held (lost, err := lock.Lock(stop); m.isLeader = true; <-lost;
// m.isLeader = false, or after Election.Campaign returned), or, in a
// standalone run, that another package's code sets, through the flag's
// setter or directly, where it holds a lease (main's election callback
// calling wheel.SetLeader(true) through the wheel's interface, or
// pump.Leading.Store(true)): a bool field,
// package variable or atomic.Bool, or an integer raised atomically to a
// constant (atomic.StoreInt32(&c.leading, 1), an atomic.Int64's Store(1),
// read as atomic.LoadInt32(&c.leading) == 1 or != 0, and == 0 for the
// other branch), whose name is about leading (lead,
// elect, active, primary, master, lease, holder, owner) and that nothing
// sets to true where no lease is held (read where the lease is held, it is
// the holder's own flag and no check), or a pointer so named that holds
// what the leader runs and nil otherwise (c.setOwner(newOwner()) after
// Campaign, c.setOwner(nil) once it returns: c.owner != nil asks whether
// it leads) and that nothing sets to a value that is not nil where no
// lease is held, read directly or through a getter
// that returns it (func (l *Elector) IsLeader() bool { return l.isLeader },
// func (c *Capture) IsOwner() bool { return c.owner != nil }, with or
// without a deferred unlock; the getters of flags the package sets under
// its own lease are checks in the package), a function marked
// //fencelint:check or one that wraps such a call and answers with it
// (returns its result, or false or an error whenever it says the lease is
// lost), and a hand-written comparison of the clock with a lease's deadline
// (time.Now().Before(lease.ExpiresAt), time.Until(l.expiry) > 0).
//
// The answer is true when it is computed, and says nothing about any later
// moment. Code that checks and then writes has a window between the two,
// and a pause can stretch that window past the lease's expiry:
//
//	t0  worker A: le.IsLeader() returns true (the lease runs until t10)
//	t1  A stops before its write: a GC pause, CPU throttling, a page
//	    fault on a swapped-out heap, a VM migration, a slow DNS lookup
//	t10 the lease expires; worker B becomes leader and writes the row
//	t12 A resumes after the check it already passed and writes:
//	    B's write is lost
//
// Some checks are weaker still: leaderelection's IsLeader and raft's State
// read a cached value with no network round trip, so they can be wrong
// before any pause; redislock's TTL returns 0 and no error once the lock is
// lost; redsync's Until is an estimate on the local clock. A leader ID an
// election's Observe loop caches in a field, compared with the node's own,
// is as stale; so is a check in an HTTP middleware whose continuation
// (gin's c.Next(), next(c) or next.ServeHTTP(w, r) in an echo, chi,
// gorilla/mux or net/http middleware) runs the writing handlers it wraps.
// Checking twice, checking closer to the write, or a longer TTL only makes
// the window smaller: pauses have no upper bound, so no check can make an
// unfenced write safe. The store must reject the stale write itself, by
// comparing a fencing token that increases with every lease:
//
//   - SQL (database/sql, pgx): UPDATE t SET ..., fence = $n WHERE id = $k
//     AND fence < $n with the lease's token, then check RowsAffected.
//   - etcd: Txn(ctx).If(mutex.IsOwner()).Then(clientv3.OpPut(k, v)).Commit()
//     and check Succeeded; under an election, compare
//     CreateRevision(election.Key()) with election.Rev(); under a bare lease,
//     LeaseValue of a key put WithLease(leaseID) with the lease's ID; for other
//     stores, the mutex's Header().Revision or the election's Rev() is the
//     token. The message gives the form that fits the check's lease, and
//     for a store whose own lock the check is not (a redsync Valid before
//     an etcd Put) the store-side compare of a token it keeps.
//   - Redis (redsync, redislock, SET NX): no library hands out a token; keep
//     a fence key and write with a Lua script that compares it, or WATCH it
//     and write in MULTI/EXEC, with a token issued by the same script that
//     takes the lock.
//   - Consul: KV.CAS with the pair's ModifyIndex, or a Txn with a
//     check-session op on the lock key.
//   - ZooKeeper: Set with the version read, or Multi with a
//     CheckVersionRequest on your own lock node.
//   - raft: write through raft.Apply; the log commits only under the
//     current term.
//   - S3 and Cloud Storage: IfMatch with the ETag read, or
//     obj.If(storage.Conditions{GenerationMatch: gen}).
//   - Kubernetes leader election: leaderelection says itself that it gives no
//     fencing; fence the store the work writes to, as above.
//
// heldcheck reports at the check and names the first unfenced write it
// guards; when that write is a call that reaches several, it lists each,
// as unfencedwrite does (lease.Write.SitesNote). The other writes the
// check guards, and the writes those calls reach, are its related
// positions. A write is guarded when it runs only after the check said the
// lease is held: in the then-branch of an if, after an early return
// (if !ok { return }), in a loop whose condition is the check, behind &&
// (including a boolean assigned from one), or in a closure made there. A
// write after the if/else that runs whichever way the check went is not
// guarded, nor is one on the branch where the check says the lease is
// lost.
//
// A SQL statement that has a fence but whose rows-affected count is never
// read counts as unfenced: the store refuses the stale write, but the
// holder never learns and carries on as if it had written.
//
// A check that guards only fenced writes, reads, logging or metrics is fine,
// and so is a check whose result is only logged or returned. A write fenced
// with a token that is not monotonic is weaktoken's to report, not
// heldcheck's. A guarded write that is also made under an acquired lease
// (m.Lock(); if ok, _ := m.Valid(); ok { write }) is reported twice, for
// two mistakes: here the check that cannot help, and by unfencedwrite the
// missing fence at the write. A comparison of the clock with a deadline
// (time.Now().Before(d), time.Until(d) > 0, time.Now().UnixMilli() < d)
// counts as a lease check only when d is a lease's: its expression names
// holding (lease, lock, leader, held, acquired, as whole words), or it is a
// field named only as a deadline (expiry, ExpiresAt, ValidUntil, TTL) of a
// struct about holding (its type, or another of its fields, names holding:
// a lease row with its Holder, a worker that keeps its lease and expiry
// side by side; also when copied into a local first), or it was returned
// by a call that acquires or renews, or computed as now plus a duration
// right after one. A retry loop's deadline is not, nor is a business
// record's own (a payment's ExpiredAt, a coupon's ValidUntil): that check
// says whether the record is still good. Nor does a comparison guard a write
// that stores the very deadline it compared (if newLockedTill < now+5m {
// refuse } ... SET locked_till = $1): it validates the deadline a claim or
// an extension asks for.
//
// When the write is safe without a token (it is idempotent, or a last
// writer wins by design), say so on the check's line:
// //fencelint:ignore REASON.
package heldcheck

// Package weaktoken defines an Analyzer that reports writes fenced with a
// value that is not a fencing token: it does not grow with every lease, or it
// is drawn after the lease is taken.
//
// # Analyzer weaktoken
//
// weaktoken: report writes fenced with a value that is not a monotonic token issued with the lease
//
// A fenced write makes the store compare a token with the one it last saw
// (UPDATE ... WHERE fence < $2) so that a holder whose lease expired while it
// was paused loses. That works only if every new holder's token is larger
// than every earlier holder's. Values that look like tokens but are not:
//
//   - random or caller-chosen values: redsync's Mutex.Value(), redislock's
//     Lock.Token() and Metadata(), UUIDs, math/rand and crypto/rand numbers;
//   - identities: etcd lease IDs (Session.Lease(), LeaseGrantResponse.ID,
//     which are made per cluster member from a clock and a counter), Consul
//     session IDs, ZooKeeper session IDs, host names and process IDs;
//   - per-key counters that restart: etcd KeyValue.Version and ZooKeeper
//     Stat.Version (reset when the key or node is recreated), Consul
//     LockIndex once the lock key can be deleted (Lock.Destroy, a session
//     with Behavior "delete"), and client-go's LeaderTransitions (it does
//     not move when the same identity acquires again, and restarts when the
//     Lease object is recreated);
//   - clocks, in any form (time.Now().UnixNano(), Unix, UnixMilli), and
//     snowflake IDs (Sonyflake.NextID, snowflake's Node.Generate), which are
//     a clock reading with a node number and a counter: holders' clocks
//     disagree, and a paused holder stamps its write with the time it read
//     before the pause.
//
// With such a value the store compares numbers that say nothing about the
// order of the leases, so a stale holder's write is accepted whenever its
// value happens to be larger:
//
//	t0  worker A locks and reads its token: 7f3a... (random)
//	t1  A stops: a GC pause, CPU throttling, a VM migration
//	t11 the lease expires; worker B locks, gets 12c9..., and writes with it
//	t12 A resumes and writes with 7f3a...: 7f3a > 12c9, the store accepts it
//	    and B's write is lost
//
// A counter is monotonic but is a token only if it is issued in the same
// step that grants the lease. Drawn in a separate step after acquiring (SQL
// nextval, an UPDATE ... RETURNING, Redis INCR), also when it is carried in
// a field of a work item that a helper then writes with, or read back later
// without checking that it is this holder's (Consul's LockIndex from a KV
// Get that does not compare the pair's Session with this holder's session
// ID; pair.Session != "" only says that someone holds the lock), it can go
// the wrong way:
//
//	t0  A acquires the lock
//	t1  A stops before drawing its token
//	t11 the lease expires; B acquires, draws 41 and writes with 41
//	t12 A resumes, draws 42 and writes with 42: the store accepts it
//
// A longer TTL only narrows these windows; pauses have no upper bound.
//
// Writes through fencegen's generated API are judged the same way: the
// Token passed to a generated fenced method (Fenced.UpdateDoc and the like)
// is followed back through TokenOf to the number converted, so
// db.TokenOf(int64(session.Lease())), db.TokenOf(time.Now().UnixNano()), a
// sequence drawn after acquiring, or NextToken called after acquiring are
// reported at the write, and so is a constant (db.TokenOf(1)) where a lease
// is held: every holder passes the same value, so the fence refuses nobody.
// db.TokenOf(m.Header().Revision), a Consul LockIndex read with the
// session compared, and the token AcquireLease hands out are real tokens.
// When the generated package has AcquireLease (fencegen -leases), the
// advice names its token beside the lock library's own.
//
// weaktoken follows each fenced write's token back through assignments,
// conversions, struct fields, parameters, results and closures (and across
// packages through facts) to the call or field that produced it, and reports
// the write when that source is one of the above. A write fenced through a
// helper's parameter is reported at the call in the lease region. Values of
// unknown origin are trusted. A lock library's own value (a lock value, a
// lease or session ID, LockIndex, LeaderTransitions) is reported wherever it
// fences a write; a clock or random value only where a lease is held, at the
// write or where its function is called, since outside a lease comparing
// timestamps is last-writer-wins by design. A random value used as the
// lock's own value, to release or extend only one's own lock, is not a
// fencing token and is fine; so is a timestamp stored in a column the fence
// does not compare, or only logged.
//
// Real tokens, issued with the grant, per library:
//
//   - etcd: the revision at which the Mutex was acquired, m.Header().Revision,
//     or e.Rev() for an Election; a key's CreateRevision or ModRevision.
//   - Redis (redsync, redislock, SET NX): a Lua script that sets the lock key
//     and increments a fence key in one step and returns the fence; neither
//     library hands out a token.
//   - Consul: the lock key's ModifyIndex, or its LockIndex read from a pair
//     whose Session is compared with yours, as long as the key is never
//     deleted; or fence the write itself with a Txn that checks the lock
//     key's session.
//   - ZooKeeper: the Czxid of your own lock node (Stat.Czxid), a global zxid.
//   - Kubernetes leader election: there is no token; keep the lease in a
//     store that issues one.
//   - raft: r.CurrentTerm() captured when leadership was won, or apply the
//     write through the log with r.Apply.
//   - SQL: a lease row whose acquiring statement hands out the token,
//     UPDATE leases SET holder = $1, token = token + 1, expires_at = now() +
//     interval '10 seconds' WHERE name = $2 AND expires_at < now() RETURNING
//     token, or nextval in the statement that takes the lock.
//
// A write fenced with a weak token is reported only here, not by
// unfencedwrite or heldcheck, so each bug is reported once.
package weaktoken

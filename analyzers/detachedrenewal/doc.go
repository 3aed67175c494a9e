// Package detachedrenewal defines an Analyzer that reports leases kept
// alive while the work they protect would not stop if they were lost.
//
// # Analyzer detachedrenewal
//
// detachedrenewal: report lease renewal and lost-signals that never reach the work the lease protects
//
// A lease is renewed so that long work can keep it: a goroutine extends a
// redsync or bsm/redislock lock every few seconds, renews a Consul session,
// sends etcd keepalives, or the library does it for you (an etcd Session,
// Consul's Lock, client-go's leader election). Renewal fails sooner or
// later: the lock service is unreachable, the process was paused past the
// TTL, another holder took the lock. What matters then is whether the work
// hears of it. When it does not, it goes on writing as the holder while
// someone else holds the lock:
//
//	t0  worker A locks "import" (TTL 8s) and starts a goroutine that
//	    calls Extend every 2s; the import loop starts inserting rows
//	t4  the Redis node is partitioned away: Extend fails, the goroutine
//	    logs "extend failed" and returns
//	t8  the lock expires; worker B locks "import" and starts the same job
//	t9  A's import loop, which was never told, keeps inserting:
//	    both workers now write, and rows are imported twice
//
// A longer TTL or more frequent renewal only moves the window; a failure
// the work never hears of lasts until the work ends. Hearing of it does not
// make the writes safe either (a pause can still fall between the moment the
// lease expires and the moment the signal is noticed, so the writes still
// need a fencing token: see unfencedwrite), but a worker that keeps writing
// for minutes without the lease turns a rare race into a certain one.
//
// detachedrenewal reports:
//
//   - a go statement whose goroutine renews again and again (redsync Extend
//     and ExtendContext, bsm/redislock Refresh, etcd KeepAliveOnce, Consul
//     Session.Renew and RenewPeriodic, a function marked //fencelint:renew or
//     one that wraps a renewal, in this package or, through facts, in
//     another) where a failed renewal does not reach the
//     work: its error is ignored, the loop continues, or it logs and returns
//     from a goroutine nobody waits on. go s.RenewPeriodic(...) is one: the
//     go statement drops the error RenewPeriodic returns when the session is
//     gone, unless a Consul lock taken on that session (in the function
//     that renews it or in one that calls it) has its lost channel read:
//     Lock watches the session and closes the channel when it is gone. So
//     is a function handed to wait.Until or wait.Forever that returns on
//     failure: they call it again. A renewal is reported once, at the go
//     statement that starts it, not again at goroutines that reach it.
//     A goroutine helper of the application's counts as a go statement:
//     a function that runs a func parameter (one that returns nothing) in
//     a goroutine it does not wait for, by go f(), by a goroutine's
//     closure that calls f, by keeping f in a struct field that a
//     goroutine it starts calls (safego.RunWithRestart(f), whose
//     Execution.run starts go func() { defer recover...; exec.f() }()),
//     or by handing f on to such a helper, in this package or another
//     (the lease model exports a GoParamFact). Such a renewal is reported
//     at the helper's call ("the goroutine safego.RunWithRestart starts
//     here renews ..."). A helper that calls f in the caller's goroutine
//     is not one. The renewal may be a call through an interface of the
//     application's (LockExtender.Extend) whose implementations renew: in
//     the package, or in a standalone run anywhere in the program; under
//     go vet, implementations in packages the renewing package does not
//     import are not seen.
//   - a goroutine, started while a MySQL GET_LOCK or a PostgreSQL session
//     advisory lock (pg_advisory_lock, pg_try_advisory_lock) is held, that
//     takes the same lock again on a timer (in a loop that sleeps or waits
//     on a Ticker, time.After or time.Tick) with the same call that took it:
//     the same helper of the package on the same lock object, or the same
//     SQL on the same connection. A session lock dies with its connection
//     (the server's wait_timeout after a pause, a network drop, a killed
//     session), and taking it again both keeps the connection busy and
//     says whether the lock still lives. When that fails and the goroutine
//     only logs, reconnects and tries again, the work goes on while
//     another holder takes the lock. There, a failure reaches the work as
//     above, except that a store counts only when it records the failure
//     (an error, a flag or a constant state in a field, or in a variable
//     that code outside the goroutine reads after starting it): storing a
//     new connection, or an error the retry tests, tells nobody. Reported
//     at the go statement. An exported method that takes its own
//     receiver's lock again that way (Lock.KeepAlive calling l.take(ctx),
//     or GET_LOCK on l.conn) is reported where another package runs it
//     with go on a value whose lock it holds (lk.Lock(ctx); go
//     lk.KeepAlive(ctx)): the method's package exports that as a fact. A
//     loop that retries until the lock is taken is acquisition, not
//     renewal: the lock is not held when it starts, or the loop ends once
//     the lock is taken. A keep-alive that does not take the lock again
//     (SELECT 1, PingContext) is not read as renewal, nor is a loop that
//     takes another lock.
//   - an etcd concurrency.Session whose Done() nothing waits on and whose
//     Ctx() nothing uses, or an etcd KeepAlive channel that is discarded
//     (if _, err := cli.KeepAlive(ctx, id); err != nil) or only drained,
//     while an etcd lock held in the same function (for a KeepAlive in a
//     helper, in its callers) guards an unfenced write; reported at
//     NewSession or KeepAlive. A session made on that lease
//     (concurrency.WithLease) is the same bug: one finding, at KeepAlive.
//     A KeepAlive in an acquire wrapper of a hand-rolled etcd lock (a key
//     put with the lease only if missing) whose channel is only drained
//     (logged) is reported whatever its callers write: they may be in
//     other packages, and they cannot hear of a channel they never see.
//   - a session kept in a struct field (w.session = s) and used for
//     mutexes or elections in another function: reported at NewSession
//     when nothing in the package watches it and a lock made from that
//     field guards an unfenced write. When another package opened the
//     session and keeps it in a field (or returns it from a method), and
//     neither package watches it, the lock made from it is reported where
//     it is made (concurrency.NewMutex(st.Session, pfx)), naming where the
//     session was opened: the package that locks is where the work runs.
//   - a ZooKeeper connection whose event channel zk.Connect returns is
//     discarded or only drained (no zk.WithEventCallback either) while a
//     zk.Lock taken on it guards an unfenced write: when the session
//     expires the lock node vanishes and another client takes the lock.
//     Reported at Connect, or, for a connection another package opened
//     and keeps in a field, at the zk.NewLock made from it.
//   - the channel Consul's Lock.Lock or Semaphore.Acquire returns (it closes
//     when the lock is lost) discarded, or never read (a nil check is not a
//     read), while the lock guards an unfenced write in the same function
//     or, for a lock taken in an acquire helper, in the helper's callers.
//     Reported at the call. A lock whose work writes nothing (it only keeps
//     two callers from queueing the same job) loses nothing when it is lost.
//   - a leaderelection OnStartedLeading callback whose work runs on
//     context.Background() or context.TODO(), or that never uses its ctx
//     (it runs on an outer ctx). The callback's ctx is cancelled when
//     leadership is lost; the suggested fix replaces context.Background()
//     and context.TODO() in the callback with it. An OnStoppedLeading
//     installed with it that stops the work (closes its stop channel,
//     cancels its context) delivers the signal too; then only an
//     OnStoppedLeading that does not wait for the work to return
//     (WaitGroup.Wait, a receive from a done channel) is reported, since a
//     write already in flight lands after another leader starts.
//     Nor is a callback whose process ends with the term: LeaderElector.Run
//     (and RunOrDie) returns once renewal has failed for RenewDeadline,
//     before the lease runs out, so when the election is the last thing the
//     program does (nothing after it but logging, returning and exiting, up
//     through the package's callers to main or a cobra command's Run/RunE,
//     or an os.Exit, log.Fatal or panic on every path) the work ends with
//     the process. Not when the config sets ReleaseOnCancel (Run then gives
//     the lease up while the process still runs) or is not built in the
//     function that runs the election (its ReleaseOnCancel is not seen),
//     when OnStoppedLeading does more than log, exit, cancel or close (it
//     runs before Run returns), or when anything else runs after the
//     election: a loop that campaigns again, a shutdown, a wait, a deferred
//     call that does work, or a caller in another package, which is not
//     seen (an exported function called from nowhere in its package is
//     judged as if its caller went on).
//
// The failure, or the lost-signal, reaches the work when the code that runs
// then cancels a context (a CancelFunc or CancelCauseFunc, also in a
// deferred call), closes or sends on a channel, sets a field, a captured
// variable or an atomic flag, calls a callback the code was given, stops
// something (Shutdown, Stop, Kill), exits or panics (log.Fatal, os.Exit),
// or returns the error to a caller in the goroutine that does one of these.
// A goroutine that renews and does the writes itself stops the work by
// returning. None of that is reported.
//
// An etcd lease that no lock is made from is not judged: one whose ID
// (followed through the struct fields and package variables it is kept in,
// the Grant responses it comes from, and the package's own functions'
// parameters and results) only rides on keys put unconditionally
// (KV.Put with clientv3.WithLease, directly or through a function of the
// package that hands its options on to such Puts), and is never handed to
// concurrency.WithLease, to a transaction's OpPut (the lock by hand: put
// the key with the lease if its CreateRevision is 0) or to other code. Such
// a lease keeps a node's registration or a record of running work alive:
// when its keep-alive loop gives up, the keys lapse, and no holder was kept
// out by them. A wrapper that renews the lease it is handed is judged by
// its callers' leases.
//
// A renewal goroutine whose failure reaches nobody is reported even when
// every write under the lease is fenced, with a message that says so: the
// fence keeps the data safe, but the work goes on after the lease is gone
// and every write it makes is refused, so the cost is wasted work, not lost
// data. A lost-signal (a session, a channel, a callback's ctx) nothing acts
// on is not reported when the writes are fenced.
//
// How to connect renewal to the work, per library:
//
//   - redsync, bsm/redislock, Consul Session.Renew, etcd KeepAliveOnce:
//     derive the work's context with context.WithCancelCause and call
//     cancel(err) when a renewal fails (for redsync, also when Extend returns
//     false; for Session.Renew, also when the entry is nil), then stop the
//     renewal goroutine when the work's context is done.
//   - Consul RenewPeriodic: go func() { cancel(s.RenewPeriodic(ttl, id, nil,
//     ctx.Done())) }(), so the work's end stops renewal and renewal's end
//     cancels the work. Or use api.Lock, and select on the channel Lock
//     returns (check it for nil first: Lock returns a nil channel when it
//     gives up without the lock).
//   - etcd: run the work on session.Ctx(), or on a context cancelled when
//     session.Done() closes; for a raw lease, keep the KeepAlive channel,
//     drain it, and cancel the work when it closes.
//   - client-go leader election: run the work on the ctx OnStartedLeading
//     receives, and return when it is done.
//
// A go statement that starts another package's function which renews in a
// loop and tells nobody when renewal fails (go keeper.KeepExtending(m)) is
// reported too: the function's package exports that as a fact.
//
// The check does not follow a lost-signal channel stored in a struct and
// read in another function, or renewal started through a func value it
// cannot resolve, or through a helper whose func returns something
// (errgroup's func() error: what waits for the goroutine may hear the
// error); it assumes those reach the work. Under go vet, goroutine helpers
// of the standard library and other modules are read as the
// application's are; a standalone run reads only your own modules'. ZooKeeper ephemeral nodes used
// as hand-made locks are not lock regions, so their connection's events
// are not judged.
package detachedrenewal

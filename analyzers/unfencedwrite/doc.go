// Package unfencedwrite defines an Analyzer that reports writes made under a
// distributed lock that the store cannot reject from a stale holder.
//
// # Analyzer unfencedwrite
//
// unfencedwrite: report store writes made while a lease is held that carry no fencing token
//
// A distributed lock (etcd, Redis SET NX or redsync, Consul, ZooKeeper,
// Kubernetes leader election, a PostgreSQL advisory lock) is a lease: the
// permission expires on the lock service's clock, and nobody tells the holder
// when it does. A holder can be frozen past the expiry and then write:
//
//	t0  worker A acquires the lease (TTL 10s)
//	t1  A reads the row and starts its update
//	t2  A stops: a GC pause, CPU throttling, a slow disk, a VM migration
//	t11 the lease expires; worker B acquires it and writes the row
//	t12 A resumes, still "holding" the lease as far as it knows, and writes:
//	    B's write is lost, and the data is now a mix of A's and B's work
//
// A longer TTL only moves the window: pauses have no upper bound. Checking
// that the lease is still held right before the write does not help either
// (the pause can fall between the check and the write; see heldcheck), nor
// does renewing it in the background (see detachedrenewal). The only safe
// designs are for the store to reject a stale holder, using a fencing token
// that increases with every lease and is compared on every write, or to make
// the write idempotent.
//
// unfencedwrite finds each write to a shared store made while a lease is held
// and reports it when the store would apply it whatever the holder's token:
// database/sql and pgx statements that write (UPDATE, INSERT, DELETE, MERGE,
// COPY) without a predicate comparing a column with the token parameter, or
// whose rows-affected result is never read, and MySQL's replication
// commands (CHANGE MASTER, START and STOP SLAVE, RESET MASTER, SET GLOBAL
// read_only), which the server applies whoever sends them (a failover
// controller paused past its lease makes a second primary); etcd Put, Delete,
// Do and Txns without an If (a Put bound to the holder's session lease,
// clientv3.WithLease(session.Lease()), is fenced: etcd refuses it once the
// lease, and with it the lock, is gone), and an STM's Put and Del
// (concurrency.NewSTM) unless the STM reads the lease's key and gives up
// when it is gone (its commit checks
// only the keys it read, not the lease), or makes them only where the key
// it writes, read in the STM, holds one value and gives up otherwise (a
// create where it is absent, a move from one state), only where it is
// absent, or where another key the STM creates with it is absent, or
// draws a counter's next value from the key and hands it out (an ID
// generator's n+1); go-redis commands outside WATCH/MULTI or a fence-comparing
// script (but not a draw from a counter whose number the program reads:
// INCR, or a script whose every write steps the number at one key, such as
// an ID generator's GET, then SET of the value plus a step: a late draw
// takes the next number and overwrites nothing), and SLAVEOF or
// REPLICAOF, which no condition can fence (a stale holder re-points a
// server's replication after the next holder healed it);
// S3 PutObject, DeleteObject, CopyObject and uploads without IfMatch
// or IfNoneMatch; Cloud Storage writers, updates and deletes without If; Consul
// KV Put and Delete and Txns without a check-session, check-index or cas op
// (or a check-not-exists op in a Txn that deletes nothing);
// ZooKeeper Set and Delete with version -1, sequential Creates, and Multi
// without a CheckVersionRequest; Kubernetes objects updated (Update and
// UpdateStatus of client-go's typed and dynamic clients, of the clientsets
// client-gen generates, and of controller-runtime's client) with an object
// built afresh, as a literal or by a constructor of the application's,
// that carries no resourceVersion, or one copied from an object the
// function has just read (desired.ResourceVersion =
// stored.ResourceVersion, a blind swap whose compare always passes), also
// when a helper of the application's sends the object its caller built or
// gave a copied version (CreateOrUpdate copies, UpdateStatefulSet sends): the
// API server applies it whatever is stored, where an object read from the
// server (a Get, a lister, a List item, a DeepCopy of one) carries the
// version it was read at and its update fails once the next leader wrote
// (a compare-and-set), as does a version the caller passes in. Kubernetes
// Creates fail on an existing name; Patches and Deletes are not judged. A call, made while the lease is held, to a function
// (in this package or another) that makes such a write is reported at the
// call and names the inner write; when the call reaches several (those
// its constant arguments do not rule out, as for the write it names), it
// lists each where the application makes it nearest the store (a
// call through an interface at that call, unless several implementations
// write one store and the receiver is a value the function is handed or
// ranges over, not a field's configured dependency: then each one's
// writes, "through N implementations", so that the workers a leader
// starts through one interface are all named; and the writes that call
// reaches when it is a function's one write and one implementation
// writes: a periodic worker whose Work only calls its service), leaving out the writes that
// only add rows when another replaces data, and names first one that
// replaces data; each is a related position too, in another package as
// well, when the run parsed its file (a standalone run does; go vet, which
// analyzes one package at a time, has only the message's list). Calls of one such function made from one function under
// one lease (a helper that records a status, called on every way out) are
// one finding, at the first, which says how many more there are and lists
// them as related positions: the fix is in the helper. A call silenced by
// a directive stays out of its group: the directive silences its own line. A write that the function makes only for
// some values of its parameters (under `if fix {`, after `if dryRun {
// return }`, for `ttl < 0`, with a non-nil counter, also in a closure it
// runs) is not the call's when a constant argument rules that path out
// (fix false, a positive TTL, nil, or a variable set to nil on the branch
// of a flag passed false); the call then names the first write its
// arguments leave, and is not reported when none is left.
// A function's writes made under a lock of its own on every path to them
// are its own, reported there and not at its callers; one that takes its
// lock on some paths only (if c.sync { lock(); defer unlock() }, or a
// closure it hands to a lock helper when synchronized and calls directly
// otherwise, as a cache with a NoSync option does) writes unlocked on the
// others, and a call to it made while the caller's lease is held is
// reported too.
//
// A lease is held in more places than between a Lock call and its Unlock
// in one function:
//
//   - Functions called only under it. An unexported function of the package
//     that is called only where a lease is held (a leader's loop, the step
//     the loop calls, the helper the step calls), each call under the same
//     lease, runs all of it under that lease: its writes are reported where
//     it makes them, naming the function that takes the lease ("line 49, in
//     Controller.Run, under which every call of Controller.runOnce is
//     made"), and not at the region's call, which would name one of them at
//     a line far from all. Such a function's unfenced writes under one lease
//     are one finding, at the first that replaces data (else the first),
//     listing the others as related positions: it does unfenced work under
//     the lease, fixed in its body. A function also called where no lease is held,
//     or under another lease, deferred, kept as a value, or that an
//     interface of the package may call by its name keeps the rule above:
//     its writes are reported at each call made under a lease. So do the
//     writes its callers decide on: one fenced by a token, a lease key or an
//     object they pass, one through a connection or transaction they pass
//     (the lock's session, maybe), one whose key or bound comes from them.
//     Calls from _test.go files do not count.
//   - Pipelines of steps. A slice literal of functions that a runner calls
//     in order (for _, step := range steps { if err := step(ctx); ... })
//     runs every step after one that takes a lock and keeps it (SET NX with
//     a TTL that only expires) under that lock, until a step releases it;
//     an element that is a call of the package's own combinator
//     (forClass(mode, lockDevice, setTX)) stands for the steps it is handed.
//     Such a lease guards the steps' writes to the lock's own store (the
//     Redis state next to a Redis lock): their other writes often go through
//     a handle the runner's caller passes in, such as a transaction that
//     holds the rows it changes.
//   - Functions handed over. A method value handed over to run under a
//     lease (OnStartedLeading: c.Start, a lock helper's callback, a gocron
//     task kept in a field of the application's own task struct that a
//     locked scheduler runs) runs under it; so does one that a region hands
//     to a function of the application's that runs it, in a goroutine it
//     starts or before it returns, even through an interface (a
//     dispatcher's Run(ctx, c.startSequence) that keeps the func in a field
//     its polling goroutine calls). Its writes are reported in its body,
//     where the fix goes. When it is declared in another package, that
//     takes a standalone run over both packages: the hand-over is recorded
//     in the handing package, and the method's own package, analyzed again
//     with the program's summary, starts it with the lease; under go vet
//     -vettool, or when the method's package is not among the patterns,
//     the hand-over is reported where it is made, naming the write it
//     reaches. A method value handed to a catalogued spawner (g.Go(c.flush),
//     wait.Until) is reported at that call. A function that holds no lease
//     itself and hands a method value to a helper that calls it (a
//     controller worker's processNextItem(c.queue, c.syncHandler), which
//     calls the handler from a func literal it calls) writes what the
//     handler writes, so the worker started with wait.Until under the
//     leader's lease is reported at that call, naming the handler and
//     listing each write it reaches. A go statement that starts a
//     function of another package, or through an interface of the
//     application's its implementations in other packages
//     (go workers[i].Start(ctx)), hands that function over the same way,
//     and so does a function so handed over for the go statements it makes
//     in turn: a leader callback's go event.StartEventWorker(ctx), whose
//     workers' Start methods write, is reported in each worker. A call of
//     a func value writes what the functions it may be write: one chosen
//     among method values in branches (h := s.create; if gone { h =
//     s.delete }), or an element of a slice literal the function builds
//     and loops over, a func (for _, step := range []func(context.Context)
//     error{s.a, s.b}) or a func field of a struct (an operator's named
//     phases, []phase{{name: "init", run: r.init}, ...} run as p.run(ctx));
//     the loop runs them all, so the finding lists each one's writes.
//   - Lock-holding objects. A type whose method returns still holding a
//     lease it took and records it in the receiver (c.info = info after
//     pg_try_advisory_lock), and whose other method releases it reading that
//     field, holds the lease between the two calls (a state client's Lock,
//     Put, Unlock): its other methods' writes are made under the lease and
//     are reported in them. A method that locks and defers its release, or
//     a lock whose key and token the caller carries (LockRoom(name) returning
//     a token for UnlockRoom(name, token)), makes no such object. In a
//     standalone run, a method that only tests call (from _test.go files,
//     or from a function taking a *testing.T, *testing.B, *testing.F or
//     testing.TB, such as a shared conformance helper) runs under the lock
//     for nobody and is not judged; a call through an interface counts for
//     every method of that name and signature. Callers are seen in the
//     packages the run loads (run it over ./...); under go vet -vettool
//     none are, and every method of the object counts.
//
// And in fewer: a call of the func value an acquire returns beside its
// error (unlock, err := locker.LockBranch(ctx, ...); defer unlock(), or a
// deferred closure that calls it: defer func() { _ = unlock(ctx) }()) lets
// that lease go, so a function that locks and defers it holds nothing when
// it returns. A goroutine that takes the lock its creator holds (a job
// started in a goroutine the scheduler's loop does not wait for, which
// locks again for its completion write) was written to run outside its
// creator's hold of that lock; one that takes no lock, or another lock, runs
// under its creator's lease. A lock handed over with a value runs the
// receiver under it: a region that stores its lock object in a field of a
// value and sends the value on a channel, holding the lock at both, where
// some function of the package releases a lock it reads from that field
// (a dispatcher's execution, let go by the worker that runs it), starts
// the lease at every receive of a value of that type. Work sent on a
// channel runs under the lease its every send is made under: a leader
// that picks the due jobs and sends them to workers a constructor started
// (for j := range s.jobs { s.store.MarkRun(j) }) has the workers write for
// it, and a job a stale leader sent is still written after its lease has
// gone. What a receive of such a value dominates (a range loop's body, the
// code after v := <-ch, a select's case) is made under that lease, and
// nothing before or after it; the channel must be one the package sees
// all of (an unexported field or package variable it makes, sent on,
// received from, closed or passed only to its own functions), carrying
// work, not a signal (struct{}, bool, error). An acquire run in a
// goroutine and awaited (go func() { errc <- lock.Lock() }(), then err :=
// <-errc beside ctx.Done()) holds the lease from that receive on, a test
// of the value received telling success from failure. A library's lock
// handed out as an interface of the package's own (*zk.Lock returned as
// its Lock) plays, through that interface, the roles of the library
// methods behind it, where the package converts it. A call of a method of an object the function
// built itself (a constructor's result such as NewTaskLogger(task.ID, ...),
// a composite literal such as &TaskCloser{Task: task}, or a local variable
// that only ever holds that one object) is not judged under a lease when
// the same function also makes that same write (one reaching the same
// inner write) through that same object where the lease is not held:
// before taking it, or on the path where taking it failed.
// The program writes that object's data unlocked by design (a task's own
// log, its status record), so the lease is not what guards it, and a fence
// would belong to every one of those writes, not to the region. Writes
// after the lease is released do not count (any store is written unlocked
// once the work is done), nor do writes through a store handle the
// function was given (a parameter, a field, a global), a different object
// of the same type, or an object made by a method call (a transaction, a
// connection) or by a catalogued library's constructor. Other writes
// through that object stay judged: a store wrapper the function builds
// from a handle (q := db.New(conn)) that appends an audit row before the
// lock says nothing about the row it updates under it.
//
// A goroutine started at most once is not work handed over under the lease that happens to be held when it starts (a
// getter that lazily starts a destination's streaming workers, which write
// for the life of the process): one started inside sync.Once.Do, or behind
// a flag the code tests and sets (if !started { started = true; go ... },
// atomic.Bool or go.uber.org/atomic's Bool Load, CompareAndSwap(false,
// true), atomic.CompareAndSwapInt32(&n, 0, 1)) that is unexported and never
// reset (no Store(false), no started = false on stop). The flag must be the
// package's or the object's whose method starts it, and that object one
// the region did not make (&worker{}, a constructor's result) and that no
// code replaces after it is made (a field assigned outside a constructor):
// otherwise the start happens again per lease and stays reported. A write
// made once but synchronously (sync.Once.Do(func() { db.Exec(...) })) is
// made under the lease and stays reported.
//
// A lease row in a table of the application's own is a lock fencelint
// reads only in part. A statement that sets a time column only where its
// old value has passed (INSERT INTO task_lock ... ON CONFLICT DO UPDATE SET
// lock_until = $2, locked_by = $4 WHERE task_lock.lock_until < $3; UPDATE
// leader SET holder = $1, expires_at = now() + interval '15s' WHERE name =
// $2 AND (expires_at < now() OR holder = $1)), in a table or on a column
// named for a lock (lock, lease, leader, mutex, election, semaphore),
// claims the row; its statements on that table are the lock's own, not
// writes it guards. One is judged: a release that deletes the row by its
// key alone (DELETE FROM task_lock WHERE task_name = $1) deletes whoever's
// row is there, so a holder paused past lock_until deletes the row the
// next holder took, and a third takes the lock while the second still
// works. It is reported where it is made, and fixed by holding a column
// the claim wrote (the holder, the expiry, a token) to this holder's
// value. A DELETE of the expired rows only (lock_until < $1) is a sweep,
// no release. The claim opens no lease region: the writes made while such
// a row is held are not judged (on the real-world set they were mostly
// idempotent deletes of dead objects).
//
// How to fence, per store:
//
//   - SQL: UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2,
//     then check RowsAffected: 0 rows means a newer holder wrote first, so
//     abort. Use <= when one holder writes several times with one token; in
//     an upsert, ON CONFLICT (id) DO UPDATE SET ... WHERE docs.fence < EXCLUDED.fence.
//     fencegen generates these queries and typed wrappers from a schema.
//     Writes in the transaction that holds pg_advisory_xact_lock, or through
//     the connection that holds a session advisory lock, are fenced by it,
//     also through a store the acquire returns bound to that connection
//     (locked, release, err := store.Lock(ctx); locked.Save(...)), handed
//     down into callbacks of the same package.
//   - etcd: Txn(ctx).If(mutex.IsOwner()).Then(clientv3.OpPut(k, v)).Commit(),
//     then check Succeeded; for an external store use the mutex's revision,
//     m.Header().Revision, as the token. In an STM, read the lease's key and
//     give up when it is gone: if stm.Rev(m.Key()) == 0 { return errLost }.
//   - Redis: a Lua script that reads the stored fence, refuses an older token
//     and writes in one step, or WATCH the fence key and write in MULTI/EXEC.
//   - S3: PutObject with IfMatch set to the ETag read earlier (or IfNoneMatch
//     "*" to create only); a 412 means someone else wrote.
//   - Cloud Storage: obj.If(storage.Conditions{GenerationMatch: gen}), and
//     check the error of Writer.Close.
//   - Consul: KV.CAS with the pair's ModifyIndex, or a Txn whose first op
//     checks the lock key's session (KVCheckSession).
//   - ZooKeeper: Set(path, data, version) with the version read, or Multi
//     with a CheckVersionRequest on your own lock node.
//   - raft: apply the write through the log (raft.Apply); it commits only
//     under the current leader's term.
//   - MongoDB: put the fence in the filter, coll.UpdateOne(ctx, bson.M{"_id":
//     id, "fence": bson.M{"$lt": tok}}, bson.M{"$set": bson.M{"body": b,
//     "fence": tok}}), then check MatchedCount (ErrNoDocuments from a
//     FindOneAndUpdate's Err or Decode): 0 means a newer holder wrote first.
//
// A compare-and-swap whose version is read afresh right before it and that
// is retried with the same value when the compare fails overwrites whatever
// is there: an etcd Get, then Txn If(Compare(ModRevision(key), "=", rev))
// .Then(OpPut(key, data)) in a loop until Succeeded, or a ZooKeeper Get,
// then Set(path, data, stat.Version) again on ErrBadVersion, where data was
// made before the loop (the caller's copy). It is reported, the message
// saying "its revision read afresh on every retry": compare the version
// read when the write was decided, and give up on a conflict. A loop that
// decodes the value it read, or looks at it before writing, decides again
// on every turn and is taken as fenced.
//
// SQL is read however the program builds it: constants, + and fmt.Sprintf
// around constant fragments (a value formatted into the text, such as the
// token in "fence <= %d", counts as a placeholder), printf-like formatters
// of any package read the same way (TiDB's sqlescape.EscapeSQL with its %n
// and %? verbs, Sprintf wrappers: a function taking a format and ...any that
// copies the format into the text it returns, or returns another
// formatter's result), package-level variables,
// struct fields and maps of named queries assigned constants, files embedded
// with //go:embed (named queries in "-- name: X" blocks too; the standalone
// fencelint reads them, go vet does not list them to analyzers), and the
// application's own helpers that pass a parameter on as the statement
// (func (s *Store) exec(ctx, q string, args ...any)), formatted or not,
// also from a closure they run (a retry or transaction helper's func), or
// that execute each element of a list parameter (stmts ...string, ranged
// over: each statement a call passes is judged on its own, and the call is
// reported for the weakest, naming it), or that complete a
// statement with a condition their callers pass (a WHERE fragment, a
// squirrel Sqlizer such as sq.Lt{"expires_at": cutoff}): each call is read
// with its own arguments. Advisory locks taken
// with such SQL are leases like the constant form. When the verb and table
// are seen but the WHERE clause is built at run time ("... WHERE " + cond),
// the finding says that the WHERE clause could not be seen rather than
// guessing; a statement whose text cannot be seen at all is not judged.
//
// fencegen's output is known by its header: a call of a generated method
// that takes a Token (Fenced.UpdateDoc, the fenced versions of your own sqlc
// queries) is a fenced write, whose token weaktoken judges; the lease
// table's AcquireLease, RenewLease and ReleaseLease and NextToken are not
// your data's writes; and a query you told fencegen to leave unfenced
// (-- fencegen:unfenced <reason>) is taken at your word.
//
// Query builders and ORMs are read as the SQL they send: squirrel, sqlx,
// goqu, bun, GORM and ent chains are written out (Model, Table, Set, Where, Or,
// conflict clauses) and judged like text, so Where("fence < ?", tok),
// sq.LtOrEq{"fence": tok} or goqu.C("fence").Lt(tok) fences, and the
// result's rows-affected count must be read (GORM: the RowsAffected field;
// reading Error alone is not enough). Their own rules:
//
//   - Query text or a builder chain chosen in branches (q := a; if x { q =
//     b }, q = q.Where(...) in an if or a loop) is read along each path: the
//     call is a write only if it writes on every path, and fenced only if it
//     is fenced on every path.
//   - GORM's Save without Select runs its UPDATE and, when that matches no
//     row (which is what a fence does to a stale holder), inserts the row
//     over the existing one (ON CONFLICT DO UPDATE SET every column): a fence
//     in its Where rejects nothing. Chain Select("*") before Save, or use
//     Updates. Clauses(clause.OnConflict{DoNothing: true}).Create, bun's
//     On("CONFLICT ... DO NOTHING") and Ignore(), and goqu's
//     OnConflict(goqu.DoNothing()) are inserts if absent; an OnConflict
//     whose Where compares the stored fence (clause.Lt{Column: "fence",
//     Value: tok}, clause.Expr{SQL: "fence < ?"}) is a fenced upsert.
//   - GORM's generics API (gorm.G[Job](db).Where(...).Update(ctx, ...)) is
//     read like the *gorm.DB chain: the table is the type argument's,
//     gorm.G's options are its clauses, and the count is the finisher's
//     first result.
//   - Conditions added out of sight (GORM Scopes and clause expressions,
//     bun Apply and WhereGroup) make the WHERE clause unseen.
//   - ent's generated client (entgo.io/ent) ends every write in sqlgraph
//     (CreateNode, BatchCreate, UpdateNode, UpdateNodes, DeleteNodes),
//     called from the generated builders; the write facts carry it to the
//     application's call (client.Doc.UpdateOneID(id).SetBody(b).Save(ctx),
//     reported as "ent.DocUpdateOne.Save (UPDATE docs)"), where the chain is
//     written out: Where(doc.FenceLT(tok)) fences when the holder reads the
//     outcome (UpdateOne's and DeleteOne's error, a *NotFoundError when no
//     row matches; Update's and Delete's count; Update's Exec drops it), a
//     keyed state predicate is a state transition, OnConflict(...).
//     DoNothing() or Ignore() makes a Create insert-if-absent, and any other
//     OnConflict an upsert. A predicate fencelint cannot read (And, Or, a
//     custom one) or a builder handed in from elsewhere leaves the WHERE
//     clause unseen.
//   - MongoDB (mongo-driver v1 and v2, and mongo-go-driver v0.x): a
//     Collection's InsertOne, InsertMany, UpdateOne, UpdateMany, UpdateByID,
//     ReplaceOne, DeleteOne, DeleteMany, FindOneAndUpdate, FindOneAndReplace,
//     FindOneAndDelete and BulkWrite are read as the SQL they amount to, from
//     the filter and update documents written as literals at the call
//     (bson.M, bson.D, primitive.M, map[string]any): {"fence": {"$lt": tok}}
//     is "fence < tok", {"version": v} with {"$inc": {"version": 1}} is an
//     optimistic version, and the outcome that must be read is the result's
//     MatchedCount (any *Count field, or the result handed on) or, for
//     FindOneAnd*, the SingleResult's Err or Decode. An upsert (SetUpsert(true))
//     whose update only has $setOnInsert is an insert if absent; an update
//     that only $sets counts the function read with CountDocuments is a
//     recount, derived from other documents. A filter built elsewhere, $or,
//     $expr or an operator not read leaves the filter unseen; BulkWrite's
//     models are not read (unseen).
//   - dotsql runs a named query from a file: the query is read from the
//     package's embedded files; when the file is read from disk at run time
//     (LoadFromFile), an Exec under a lease is reported as a write whose
//     statement could not be seen, and a Query is not judged.
//
// Some writes need no token, by these rules:
//
//   - Insert if absent: INSERT ... ON CONFLICT DO NOTHING, INSERT IGNORE and
//     INSERT ... SELECT ... WHERE NOT EXISTS (SELECT ... FROM the same table
//     WHERE a column equals the value inserted into it) only create a row
//     that is not there; a stale holder's copy changes nothing. A NOT EXISTS
//     on another table or on columns the INSERT does not set is no such rule.
//   - Optimistic concurrency: UPDATE ... SET version = version + 1 WHERE id =
//     $1 AND version = $2, or SET version = :version ... WHERE id = :id AND
//     version = :version - 1 (the next version passed in, as sqlx stores
//     bind a row struct), is a compare-and-set when the version is one the
//     writer read and RowsAffected is checked: a holder paused past its
//     lease comes back with the version it read before the pause, which no
//     longer matches once another holder wrote. The version counts as read
//     when it was read in the same function while the lease was held (Scan,
//     a row returned by a call) or passed in by the caller (a parameter, the
//     row struct the caller read and edited, a copy of it or what a function
//     of the package maps it to), as a store's Update(ctx, row) is called
//     with the row its caller found. An unchecked result, a version that is
//     compared but not moved (SET version = :version WHERE version =
//     :version), or one from neither a read nor the caller (a field the
//     holder keeps) is reported.
//   - State transitions: UPDATE volumes SET state = 'created' WHERE id = $1
//     AND state IN ('creating', 'created') (or state = $2, or state = $2 OR
//     state = $3, as query builders write) moves the row only from the
//     states the holder saw: once another holder moved it on, a stale
//     holder's transition matches nothing. It counts as a compare-and-set
//     when a key pins the rows the holder saw (id = $1) and either the
//     state is the only column set (setting the state a row already holds
//     changes nothing), or the state set is a constant that none of the
//     required states equals (SET state = 'running', worker = $2 WHERE id =
//     $1 AND state = 'pending'), or the state set is a constant and every
//     other column set is stamped with the store's clock, whatever state
//     is required (SET status = 'AVAILABLE', updated_at = now() WHERE id =
//     $1 AND status = $2, with the status the holder read: a row still in
//     the state set gets only a newer stamp). A DELETE of one table whose
//     WHERE clause only holds a key to values the holder binds and a
//     column to constant states whose names end a row's life (DELETE FROM
//     service WHERE id = $1 AND status = 'PENDING_DELETE'; names with
//     delete, remove, purge, expired, cancel, abort, terminated, finished,
//     completed, done, succeeded, failed, dead, archived, obsolete,
//     tombstone, revoked, closed) is the transition out of every state:
//     every holder deletes such a row and none changes it.
//     These assume rows move forward, never back into a state they left.
//     The transition is safe by itself whether or not RowsAffected is read:
//     a 0-row no-op means the row was moved on, which is what the holder
//     wanted or later. Only a checked count fences the writes after it
//     (see "Committed with a compare-and-swap"); an unchecked one leaves them
//     to be judged on their own. Without a key (UPDATE payouts SET state =
//     'sent' WHERE state = 'approved', DELETE ... WHERE status =
//     'PENDING_DELETE') it also moves the rows that entered the state after
//     a stale holder looked, and is reported, unless its other conditions
//     select rows only by age against a time (SET status = 'offline' WHERE
//     status = 'online' AND last_heartbeat < $1, or now() - interval '5
//     minutes'): a stale holder's older bound moves only rows older still,
//     which the next holder moves too, and a row that entered the state
//     since is younger. Reported too is a transition that also
//     overwrites other columns of a row already in the target state (WHERE
//     state IN ('pending', 'running'), or a state the holder read with
//     other values than the clock), a state set that is not a constant, an
//     open condition (state <> 'done', NOT IN), a condition on a column the
//     UPDATE does not set, or a DELETE pinned to a state the holder read,
//     to a live state (status = 'ACTIVE') or to a category (kind = 'x'):
//     those delete on the holder's own, possibly stale, judgement.
//   - Derived from other rows: a set-based UPDATE over other tables (JOIN,
//     FROM) that binds no value, sets only literals, the other tables'
//     columns or the store's clock, and filters the other tables' rows by
//     their own columns (UPDATE workers JOIN ip_addresses ON workers.id =
//     ip_addresses.worker_id SET workers.active = TRUE WHERE
//     ip_addresses.active = TRUE AND workers.active = FALSE) carries nothing
//     from the holder's memory: the rows it changes and what it writes
//     follow from the rows as they are when it runs, so a stale holder's
//     copy does what the next holder's would. A value bound from Go, a
//     relative SET (n = n + x), a filter on the target's own columns only
//     (every row in a state, also those that entered it after the holder
//     looked), a condition on a column it does not qualify, and INSERT ...
//     SELECT are reported.
//   - A reset of counters: an UPDATE of every row (no WHERE clause, no JOIN
//     or FROM, no LIMIT) that binds no value and sets each column to 0
//     (UPDATE users SET usage_count = 0, sms_count = 0; a MongoDB UpdateMany
//     with an empty filter that $sets counters to 0) neither picks rows nor
//     carries a value: a stale holder's copy is the same reset made late.
//     Other constants stay reported: a stale SET owner = NULL of every row
//     undoes what the next holder assigned.
//   - Create only: a ZooKeeper Create whose mode is not sequential
//     (persistent, ephemeral, container, TTL) fails with ErrNodeExists when
//     the node is there, so it creates what is absent and nothing more. A
//     sequential Create adds a node on every call and is reported, as is a
//     Create whose mode fencelint cannot read.
//   - Messages: a Redis PUBLISH or SPUBLISH reaches the channel's
//     subscribers of the moment and is not stored, and an XADD appends an
//     entry under a new ID (consumer groups already redeliver entries, so
//     consumers handle one seen twice): neither overwrites what another
//     holder wrote, so neither is reported (the state stored beside them
//     is; XDEL and XTRIM are writes). Where subscribers apply what is
//     published as state, last message wins, a stale leader's message does
//     replace a newer one: put the lease's token in the message for them
//     to compare, and declare the publishing function //fencelint:write to
//     have its calls reported.
//   - Queue pushes: an LPUSH or RPUSH (LPUSHX, RPUSHX) made in a method of
//     a type whose methods also take from a list with a blocking pop
//     (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP): the application's own
//     queue, an Enqueue beside a Dequeue. Its workers take each entry once,
//     so a push appends a message, as an XADD does, and a stale holder can
//     add a duplicate, which a queue's consumers already meet (a job
//     retried after a crash). A push anywhere else stays a write (a list
//     whose readers fencelint does not see may be state read whole), and
//     so does one in a function that also trims, pops or rewrites the
//     list: a bounded history, not a queue.
//   - A DEL of such a list, in a method of the type that waits on it: a
//     signal list emptied of stale wake-ups before the work the method
//     then waits for (delete the done key, enqueue the fetch, BLPOP the
//     done key). A stale holder's delete drops a wake-up, a message; the
//     key deleted must be built as the popped one is (the same function,
//     or the same concatenation, on the same constants).
//   - A Redis EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT that sets a key's
//     TTL again (rdb.Expire(ctx, "history:"+user, 24*time.Hour) after the
//     LPUSH it follows): every holder runs the same code and sets the same
//     TTL, so a stale holder's overwrites no data. An EXPIRE of 0, which
//     deletes the key, and PERSIST, which keeps it for good, are judged.
//   - A new Redis key under a fresh ID: id := uuid.NewString();
//     rdb.Set(ctx, "job:"+id, body, ttl) names a key no other holder can
//     know, so a stale holder's write to it overwrites nothing; the write
//     that links the new key into shared state (LPUSH jobs:queue id) is
//     reported. The ID must be drawn by a random generator (google/uuid's
//     New, NewString, NewRandom, NewV7, gofrs' NewV4, NewV7, pborman/uuid's
//     New, NewRandom, HashiCorp's GenerateUUID, crypto/rand.Text; the
//     README lists them all) in the writing function, in a caller that passes
//     it to the writing helper (not through an interface), or in the
//     function whose TxPipelined/Pipelined closure writes, and reach the
//     key whole (String, uuid.Must, +, fmt.Sprintf without a precision, a
//     key-building helper of the package; other parts may be shared:
//     chat:<id>:stream:<fresh>), the command must touch that one key (not
//     RENAME, SMOVE, MSET), and nothing else may see the ID before the
//     write (a store into a struct, another call, the previous round of a
//     loop). A part of a UUID (16 bits of it), an ID read from a context, a
//     field or the store, a key built by another package's helper, a
//     time-based UUID, a snowflake ID, and SQL rows are not counted: a row under a fresh
//     ID is still found by its other columns (a stale holder's INSERT after
//     the next holder's check-then-insert is a second payment, whatever the
//     primary key). Readers that find keys by pattern (SCAN MATCH job:*)
//     are assumed not to exist.
//   - A cache fill under a stampede lock: rdb.Set(ctx, key, v, time.Minute)
//     made only when rdb.Get(ctx, key) in the same function missed (a
//     branch on err == redis.Nil, errors.Is(err, redis.Nil), Get's error
//     not nil, an empty value, or a wrapper's found flag false leads only
//     there, and none on a hit does). A stale holder's late fill is what it
//     loaded from the source of truth, older by the pause at most, and
//     lives until the entry's TTL: a cache's staleness, not data the lock
//     protects. The write must set an expiry (go-redis Set or SetEx with a
//     TTL) or go through a method, receiver type or package named for a
//     cache (cache.Store.Set after cache.Store.Get of the same key), and
//     the read must share the key with it (the same value) on a receiver
//     of the same type. A write made when the read hit, a
//     read-modify-write, and a first-use create with no expiry (default
//     settings written when absent, then changed by the next holder) are
//     reported.
//   - An atomic drain: in the function handed to go-redis's TxPipelined, a
//     DEL (or UNLINK) of one key after a read of that key whole (LRANGE or
//     ZRANGE 0 -1, SMEMBERS, HGETALL, GET) takes the key's contents as
//     GETDEL does: MULTI/EXEC makes it one step, so every element goes to
//     exactly one caller and a stale holder deletes only what it took. A
//     partial range, a Pipelined (not atomic) drain or a DEL after a read
//     made outside the transaction is still reported; what the holder does
//     with what it took is judged where it writes.
//   - Delete by age: a DELETE whose WHERE clause only selects rows older
//     than a time (expires_at < now(), created_at < now() - interval '7
//     days', finished_at < $1 with a time.Time) is idempotent: what expired
//     stays expired. So is one that deletes the keys of such rows taken
//     from a subquery or a WITH query (WITH rows AS (SELECT id FROM t WHERE
//     expires_at < $1 LIMIT 1000) DELETE FROM t WHERE id IN (SELECT id FROM
//     rows)). So is a delete below a PostgreSQL snapshot's xmin (the oldest
//     transaction still running, which never goes backwards either). So is
//     one among the rows it pins to values (WHERE key = $1 AND expires_at
//     IS NOT NULL AND expires_at < now()): the server deletes a row only if
//     it is still expired when the statement runs. ANDed with anything
//     else (a range, attempts > $1), NOT IN, or a bound that is neither a
//     time nor a snapshot (another transaction ID, a number) it is not. A soft
//     delete by age counts the same: UPDATE t SET deleted_at = now() WHERE
//     deleted_at IS NULL AND finished_at < $1, which is what bun sends for
//     a delete of a model with a soft_delete column and GORM for a Delete
//     of a model with a gorm.DeletedAt field (ForceDelete or Unscoped make
//     them real DELETEs). Without the IS NULL test it restamps rows already
//     deleted, and is reported.
//   - Tombstone: an UPDATE that only sets soft-delete flags to true
//     (is_deleted, deleted) on the rows its keys pin (UPDATE queue SET
//     is_deleted = $1 WHERE queue_name = $2 AND item = $3, $1 true): a row
//     marked deleted is not marked live again, so a stale holder's copy
//     changes nothing. A DELETE that holds such a flag true among its keys
//     (WHERE object_key = $1 AND is_deleted = TRUE) deletes only rows
//     already tombstoned, a state transition. Other flags are judged:
//     archived = true is undone by an unarchive, done = true can cover a
//     retry the next holder started, and purged = true is often set on
//     rows added since the holder looked.
//   - Upsert of a constant definition: INSERT ... ON CONFLICT (k) DO
//     UPDATE SET ... WHERE t.a <> EXCLUDED.a OR t.b <> :b (each ORed
//     condition compares a column with the value inserted into it, by <>,
//     != or IS DISTINCT FROM) changes nothing when the row already holds
//     what is inserted. When every compared value is a constant (a literal,
//     a Go constant, a field a struct literal sets to one or leaves zero,
//     sqlx's :name placeholders read by db tag, through the application's
//     helpers and interfaces: the values are followed to the caller's
//     arguments), every holder writes the same definition, so a stale
//     holder's copy changes nothing. A compared value computed at run time
//     (a time, a value read from the store or from configuration), an
//     upsert without that WHERE, or one ANDed with anything else, is
//     reported.
//   - Bounded decrement: UPDATE t SET c = c - $n WHERE ... AND c >= $n,
//     with the same value subtracted and bounded (GORM's Where("stocks >=
//     ?", n).UpdateColumn("stocks", gorm.Expr("stocks - ?", n))), under a
//     lock its own function takes, when every branch between the acquire
//     and the write, and the amount, depend only on the function's
//     parameters and constants, the lock's own calls, the write's result,
//     and the bound: a read row's field named as the column compared with
//     the amount (inv.Stocks < n), and that read's error. The store
//     repeats the check where it applies the decrement, and decrements
//     commute, so a stale holder takes only what it was asked to take and
//     never below zero. A decrement decided on other state read under the
//     lock (an order still pending) is reported: a stale holder that read
//     it takes twice. So is one without the bound, as an increment is.
//   - Server configuration: a write to a schema the database server keeps
//     for itself (MySQL's performance_schema, mysql and sys, PostgreSQL's
//     pg_catalog), such as turning on a performance_schema instrument,
//     sets up the server, not data the lease guards.
//   - Committed with a compare-and-swap: a write in a transaction (a func
//     literal returning an error, handed to a function or method whose name
//     contains Tx or Transaction: WithTx, RunInTx) that cannot return nil
//     without a checked compare-and-swap succeeding after the write is
//     rolled back when a stale holder's CAS fails; an INSERT that only adds
//     rows, reached only after such a CAS succeeded, records what this
//     holder's CAS did. A CAS is a call that returns an error and sends a
//     request holding an Old and a New value (git's reference update from
//     the expected SHA), such a transaction, or a function that returns no
//     nil error before one succeeded. A fenced SQL write (a token, version
//     or state compared in its WHERE clause) is a CAS where its
//     RowsAffected is checked (n == 0 fails; n != 0, n > 0, n == 1 win):
//     a store's Update that returns ErrVersionConflict when no row matched
//     returns no nil error before its compare-and-set won, so a call of it
//     is a CAS too (through the application's interface when every
//     implementation with lease facts is one). Functions that never return
//     a nil error (error wrappers: return fmt.Errorf("%s: %w", msg,
//     translate(err))) are seen as such across packages. After an SQL CAS
//     in the same transaction, any write commits with it: the row the CAS
//     won stays locked until the transaction ends, so the next holder's CAS
//     of it waits, then fails. An UPDATE, upsert or DELETE after another
//     CAS (git's, whose reference no transaction locks) is still reported,
//     and so is a write in a closure that is not a transaction, or before
//     a CAS whose error is only logged.
//   - Node-local SQLite: in a standalone run, the SQL writes of a program
//     whose only SQL drivers are SQLite's (mattn/go-sqlite3, modernc.org's,
//     GORM's, glebarez's, ...) and that imports no driver of a shared
//     database (PostgreSQL, MySQL, SQL Server, ClickHouse, libSQL, rqlite,
//     ...): each holder writes a file of its own node, which no other
//     holder writes (a raft leader recording its view of the cluster). go
//     vet sees one package at a time, cannot know that no other package
//     opens a shared database, and reports them.
//   - Claimed in the store: a write in a transaction after it locked a row
//     (SELECT ... FOR UPDATE, FOR NO KEY UPDATE or FOR SHARE; a GORM
//     finder after Clauses(clause.Locking{Strength: "UPDATE"})), compared
//     a column it read with a constant (if o.Status != pending { return
//     nil }) and went on, when every path on updates that column of that
//     table through the same transaction. The row lock orders the holders:
//     the next one reads the state this one moved, and gives up. The read,
//     the comparison and the update must be in one function, on the
//     transaction a runner's func literal is given or on a transaction
//     value (*sql.Tx, sqlx's *Tx, pgx's and bun's Tx, GORM's Begin). A
//     bound (if a.Pending < amount) is no claim: the next holder finds
//     enough left too, and takes again; nor is a flag the transaction never
//     moves, or a write before the comparison or through another handle.
//   - Create if absent, decided by the schema: an INSERT that only adds
//     rows, or a call of a function whose every unfenced write is one,
//     whose error is tested for a unique-key conflict (a predicate named
//     IsConflict, IsDuplicate, IsUniqueViolation, ...; errors.Is with
//     ErrDuplicate, ErrConflict, ErrAlreadyExists; a driver error whose
//     Code is "23505" or whose Number is 1062) expects the table's unique
//     key to refuse a second row: it creates the one row with that key or
//     fails, as INSERT ... ON CONFLICT DO NOTHING does. A conflict handled
//     for an upsert, or another error tested, is no such rule.
//   - Create if absent, read from the schema: a plain INSERT (no ON
//     CONFLICT, ON DUPLICATE KEY UPDATE, IGNORE or REPLACE) whose error is
//     returned or compared with nil (an INSERT ... RETURNING sent by
//     QueryRow: its Scan's), into a table that the SQL migrations
//     embedded (//go:embed *.sql) by the package, a dependency or, in a
//     standalone run, any package of the program give a natural key: a
//     primary key or unique constraint or index (partial only over rows
//     where columns are NULL, WHERE deleted_at IS NULL, and then only for
//     an INSERT that leaves those columns, none with a DEFAULT, out; an
//     index on a constant, ((TRUE)) WHERE ended_at IS NULL, has no
//     columns: it admits one such row) whose columns
//     the INSERT's column list names and gives a placeholder or literal in
//     every row, all NOT NULL, none filled by the database
//     (AUTO_INCREMENT, SERIAL, identity, generated, a gen_random_uuid() or
//     nextval() default, SQLite's INTEGER PRIMARY KEY), none of a type
//     that can hold a freshly drawn ID (text, uuid, binary or varchar of 12
//     or more, 64-bit integers), and none bound to time.Now() or a fresh
//     UUID drawn in the function. A GORM Create (whose Error is returned
//     or compared with nil) gives a column the field of its row that GORM
//     maps to it: a row built in the function must set each key field once,
//     and a row handed in must have key fields of types that cannot hold a
//     fresh ID (time.Time, a small integer). The table is the one
//     Table(...) names, else the model's: its TableName, also one declared
//     in another package that returns a constant. A stale holder's duplicate fails on the
//     key, so the INSERT creates the one row or fails, and only its creator
//     gets past it: the writes that replace no value (appends, updates that
//     add to a column's own value, n = n + $1) reached only after it
//     succeeded (in its function, or after a call of a function that
//     returns no nil error before one did) are fenced too; an overwrite
//     after it is still reported, since the next holder, past its own
//     INSERT of another key, may write that row first. Migrations
//     are applied per directory in file-name order (numbers as numbers,
//     down migrations and goose/sql-migrate/dbmate down sections left
//     out); a table a migration changes in a way fencelint cannot read
//     (or a schema with a DO block running DDL other than creating
//     partitions, CALL or EXECUTE) has no key, definitions that disagree
//     keep only the keys they share, and a
//     key that a migration in another directory drops (by name, the
//     primary key, or a column of it dropped, renamed or redefined) is not
//     trusted. The standalone fencelint also reads SQL files the code does
//     not embed: those -schema names, and the *.sql files under the main
//     modules' directories and the git checkout they sit in; and it hands
//     every package the migrations any package of the program embeds, so
//     a store whose migrations only main embeds knows its keys in calls
//     through interfaces too. go vet lists no embedded files to analyzers
//     and reads no other file: there no schema is read.
//   - Create if absent by the lease's own key: a key with a column that
//     can hold a freshly drawn ID (text, uuid, a 64-bit integer), else
//     as above, makes a plain INSERT a create-if-absent when every value
//     given to its columns is built only from constants and from what the
//     key of a lease held there is built from (fmt.Sprintf with a constant
//     format, +, strings.Join with a constant separator): under a SET NX
//     lock on "inflight-commit:"+id, an INSERT of work_id =
//     fmt.Sprintf("%s_shadow_commit", id) is the same row for every
//     holder, and the second fails. The lease's key is that of SET NX,
//     bsm/redislock's Obtain or a redsync mutex's name, or of the
//     application's acquire wrapper (its parameter, or its receiver's
//     field as the lock object's constructor or struct literal set it).
//     Values built from the writing function's parameters (or their
//     fields) are judged at each call with the caller's arguments, also
//     through the application's interfaces; the error of Scan on the row
//     of an INSERT ... RETURNING counts as heeded. A key built from
//     anything else (a fresh UUID, a reference the caller passes that the
//     lock key is not built from, a value read under the lock) or an
//     upsert (ON CONFLICT DO UPDATE: an overwrite) is still reported.
//   - Create if absent, read from a goctl model: goctl (go-zero's model
//     generator) writes a FindOneBy<Fields> method only for a unique index
//     of the table, in files that start with "// Code generated by goctl.
//     DO NOT EDIT.". A call of such a model's Insert (directly or through
//     the model's interface, every writing implementation agreeing) whose
//     every unfenced write is a plain INSERT binding the key's fields of
//     the row, and whose error is returned or compared with nil, is fenced
//     when the caller builds the row in its function and sets each key
//     field once to a value not drawn there (a fresh ID, the current time);
//     a key field that can hold a fresh identifier (text, bytes, 64-bit
//     integers) must hold the value the caller looked the row up by with
//     the same model's finder (find, then create the first row). Like an
//     INSERT a schema's key makes a create-if-absent, it gates the writes
//     that replace no value reached only after it succeeded. A
//     hand-written FindOneBy, an Insert edited into an upsert, or one that
//     leaves the key column to the database says nothing.
//
// Writes that only implement a hand-rolled lock (the DEL or PEXPIRE of the
// SET NX key, or, in a function named for taking a lock, a write to a key
// built as its SET NX key is but for string constants, such as a
// read-writer lock's readers hash) are not protected writes and are not
// reported. A write that is
// reached only through a validity check (if le.IsLeader()) is reported by
// heldcheck, and a write fenced with a value that is not monotonic by
// weaktoken, so each bug is reported once.
//
// When a write is safe without a token (it is idempotent, or last writer
// wins by design), say so: //fencelint:ignore REASON on the line.
package unfencedwrite

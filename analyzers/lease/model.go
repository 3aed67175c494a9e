package lease

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A Model is what the lease analyzer learns about one package: where leases
// are held, which store writes happen while they are, which checks guard
// them, and where tokens come from. Every fencelint analyzer reads it; none
// re-derives it.
type Model struct {
	// Leases lists every lease region in the package, in source order.
	Leases []*Lease
	// Writes lists every store write in the package (direct, or a call to a
	// function whose WritesFact says it writes), in source order, whether or
	// not a lease is held there.
	Writes []*Write
	// Checks lists every lease-validity check in the package.
	Checks []*Check
	// Renewals lists every manual renewal call in the package.
	Renewals []*Renewal
	// Signals lists every lost-signal the package obtains (etcd session,
	// KeepAlive channel, Consul lock channel, OnStartedLeading's ctx).
	Signals []*Signal
	// Goroutines lists every go statement in the package with what its
	// function does.
	Goroutines []*Goroutine
	// Loopers lists the package's exported functions that renew a lease
	// again and again, each described as if a go statement started it (its
	// Go is nil): another package may start one with go.
	Loopers []*Goroutine
	// Problems lists malformed, misplaced and unused fencelint directives.
	Problems []Problem

	// answers holds what the checks ask about writes, computed by build:
	// the checks run concurrently on one Model, so nothing in it is
	// computed or cached after build returns, and it keeps no reference to
	// the builder (or its SSA program's caches) alive.
	answers          answers
	directives       *directives
	reportSuppressed bool // the -suppressed flag, read once per package
}

// A Kind says how a lease region starts.
type Kind uint8

const (
	Acquired   Kind = iota // a call that acquires (Mutex.Lock, SET NX, pg_advisory_lock)
	InCallback             // a function the library runs while the lease is held (OnStartedLeading, gocron job)
	Checked                // code guarded by a positive validity check (if le.IsLeader())
	Declared               // a function marked //fencelint:acquire or a wrapper whose fact says it acquires
)

// A Lease is one lease region.
type Lease struct {
	Kind   Kind
	System System
	What   string    // how the lease is named in diagnostics: "the etcd Mutex", "the PostgreSQL advisory lock"
	Pos    token.Pos // the acquiring call, callback or check
	Fn     *ssa.Function
	Call   ssa.CallInstruction // the acquiring call, if Kind is Acquired or Declared
	Holder ssa.Value           // the lock object (Mutex, Lock, sql.Conn), when known
	// Session is true for PostgreSQL session advisory locks and MySQL
	// GET_LOCK: the lease dies with the connection that holds it.
	Session bool
	// From is the struct field (or the method that returns one) whose
	// value the lock object was made from (concurrency.NewMutex(w.session,
	// pfx), zk.NewLock(r.conn, ...)): the lease lives as long as what that
	// field holds.
	From types.Object
	// OwnStore marks a lease carried into a function by a pipeline of
	// steps (pipelines.go): it guards only writes to the store the lock
	// lives in.
	OwnStore bool
	// Claim says how the lock was taken, where that changes how a write
	// under it is fenced (a hand-rolled etcd lock has no Mutex to ask).
	Claim Claim
	// Sent names the channel for the lease under which the work received
	// from it is done, every send on it being made under the lease
	// (chanwork.go); it is a copy of that lease.
	Sent string
}

// FenceAdvice says how to fence w where l is held: as w's store advises,
// unless how l was taken changes that (Claim.FenceAdvice) or l is a lock
// of another system than the store's own lock the advice names.
func (l *Lease) FenceAdvice(w *Write) string {
	return fenceAdvice(l.System, l.Claim, w)
}

// fenceAdvice says how to fence w under a lease of system taken as claim.
func fenceAdvice(system System, claim Claim, w *Write) string {
	if w.Advice == stmAdvice {
		return w.Advice // the fence goes inside the STM, whatever took the lease
	}
	if a := claim.FenceAdvice(w.System); a != "" {
		return a
	}
	if system != w.System && w.Advice == w.System.FenceAdvice() {
		if a := w.System.foreignLockAdvice(); a != "" {
			return a // the store's advice names its own lock, which this lease is not
		}
	}
	return w.Advice
}

// A Write is one write to a shared store.
type Write struct {
	Call   ssa.CallInstruction
	Pos    token.Pos
	Fn     *ssa.Function
	System System
	What   string // "ExecContext (UPDATE docs)", "Put", "PutObject"
	// Note says why a write that looks fenced is not ("its revision read
	// afresh on every retry"), or is empty.
	Note string
	// Fenced says the store rejects the write from a stale holder.
	Fenced bool
	// Entered lists the leases of Held that Fn holds only because every
	// call of it is made under them (leaseonly.go): the lease is taken in
	// another function, which a diagnostic names.
	Entered []*Lease
	// Unchecked marks a SQL write that has a fence but whose rows-affected
	// count is never read: the holder cannot learn that it lost.
	Unchecked bool
	// Outcome names, for an Unchecked write, the result that says it
	// matched no row, when it is not the rows-affected count ("error").
	Outcome string
	// RowsCAS marks a fenced SQL write whose rows-affected count says
	// whether it won (a token, version or state compared in its WHERE
	// clause): a compare-and-set, once the count is checked (casfence.go).
	RowsCAS bool
	// Converge marks an unfenced upsert that changes nothing when the
	// definition it writes is the same (sqlconverge.go): it is fenced at
	// a call where these parameters of its function are constants.
	Converge []ParamField
	// Token is the value the store compares, for a fenced write whose
	// token travels as a Go value (SQL parameter, ZooKeeper version).
	Token ssa.Value
	// TokenField is set when the token is a field of Token, a struct (or a
	// pointer to one) handed to a helper that writes with that field: the
	// token is whatever the program fills the field with.
	TokenField *types.Var
	// Unseen names the part of a SQL write that is out of fencelint's
	// sight, and why ("WHERE clause (built at run time)"), when the
	// visible text has no fence: the write may or may not be fenced.
	Unseen string
	// Via is set when the write is a call to a function that writes: it
	// describes the inner write ("UpdateDoc writes with ExecContext at store.go:41").
	Via string
	// Sites lists, for a call of a function that makes more than one
	// unfenced write, each of them the call can reach, where the program
	// makes it nearest the store (WritesFact.Sites: it may list one, when
	// the others only add rows or its arguments rule them out); nil
	// otherwise.
	Sites []Site
	// Dispatch is set when the write was found through an interface call
	// resolved to another package's implementation.
	Dispatch Dispatch
	// LockImpl marks a write that implements a hand-rolled lock (SET NX's
	// key deleted or expired): not a protected write.
	LockImpl bool
	// BlindRelease names, for a LockImpl write that lets a lease row go,
	// the lock table when the write does not check the row is still its
	// holder's (DELETE FROM task_lock WHERE task_name = $1): a holder
	// paused past the row's expiry deletes the next holder's row
	// (leaserows.go).
	BlindRelease string
	// Held lists the leases held where the write happens (empty outside
	// every lease region).
	Held []*Lease
	// heldOwn says one of Held is held on every path to the write
	// (paths.go): the write is made under its function's own lease, and
	// so is no write of its callers. A write Held on some paths only is
	// both: reported under that lease, and its callers' where they hold
	// theirs.
	heldOwn bool
	// Guards lists the validity checks the write is control-dependent on.
	Guards []*Check
	// Advice says how to fence a write to this store, for diagnostics.
	Advice string
	// TokenSource names a token source the writing package offers
	// (fencegen's AcquireLease), for diagnostics; "" if none.
	TokenSource string

	// Append marks an SQL INSERT that only adds rows (no ON CONFLICT DO
	// UPDATE, ON DUPLICATE KEY UPDATE or REPLACE), or a call of a function
	// whose every unfenced write is one.
	Append bool
	// FencedBy names the compare-and-swap that fences a write made in its
	// transaction or appended after it (casfence.go), when that is what
	// makes the write Fenced.
	FencedBy string

	// freshParams marks an unfenced Redis write whose key is built from
	// each of these parameters of Fn (as WritesFact.FreshKeys): it writes a
	// new key where a caller passes a fresh identifier in any of them.
	freshParams uint64
	// keyParams marks an unfenced Redis write whose every key is built
	// from one of these parameters of Fn and constants (as
	// WritesFact.KeyParams): a caller that passes a lock's key there
	// writes the lock itself.
	keyParams uint64
	// keyExists is the parameter of Fn whose key's existence a Txn's If
	// requires (If(clientv3util.KeyExists(leaderKey))): the write is fenced
	// when the caller passes the holder's own election or mutex key
	// (etcdleasekey.go); nil otherwise.
	keyExists ssa.Value
	// sessionLease is the parameter of Fn that a put binds its key to
	// (clientv3.WithLease(lease)): the write is fenced when the caller
	// passes an etcd session's Lease() (sessionlease.go); nil otherwise.
	sessionLease ssa.Value
	// kubeObject is the parameter of Fn whose object a fenced Kubernetes
	// Update sends with the resourceVersion the caller gave it
	// (kubeobjects.go): the write is fenced when the caller's object was
	// read from the API server, not built afresh or given a version copied
	// from a read just before; nil otherwise.
	kubeObject ssa.Value
	// outsideOf names a lease the write is not made under even where it
	// is held: the write is in a goroutine that takes that lease itself.
	outsideOf string
	// continues marks a middleware's call of the handlers it wraps
	// (middleware.go): made when the handler a decorator returns runs,
	// not when the decorator is called, so no write of its maker.
	continues bool
	// cond is what callers learn of an Unseen write whose open holes the
	// function's parameters fill (sqlconds.go).
	cond *SQLCondFact
	// keyed says how the write is an INSERT a unique key makes a
	// create-if-absent (suppliedKey: a natural key of its table,
	// schema.go, or a goctl model's key, goctl.go), or "".
	keyed string
	// updates holds the write's UPDATE and DELETE statements, for the
	// claims of rows that transactions lock (rowclaim.go).
	updates []tableUpdate
	// accumulates marks a write that replaces no value: every statement
	// appends rows or adds to a column's own value (sqlscan's
	// Accumulates), or a call of a function whose every unfenced write
	// does (WritesFact.Accumulates).
	accumulates bool
	// bound is set on an unfenced bounded decrement (sqlbounds.go).
	bound *boundedDecrement
	// countFences marks a RowsCAS write that is fenced only when its
	// rows-affected count is read (a token or version compared); a state
	// transition alone is safe whether or not it is (sqlidem.go).
	countFences bool
	// spawned marks a write made in a goroutine Fn starts (a go statement,
	// a Spawner's goroutine, a call whose WritesFact is Spawned); once says
	// how often that goroutine is started (oncestart.go).
	spawned bool
	once    onceKind
	// keyLeaves are, for an INSERT under a unique key that can hold a
	// fresh identifier (or a call of a function whose ConvergeFact is
	// marked LeaseKey), the values its key is built from, and keyWhat
	// names the key (leasekeys.go); judgeFreshKeys decides it. tiedTo
	// names the lease whose key it is built from, and leaseKey marks
	// Converge as parameters that a caller's lease key may give.
	keyLeaves []keyLeaf
	keyWhat   string
	tiedTo    string
	leaseKey  bool
	// cases lists, for a call of a function whose WritesFact has Cases,
	// the cases the call can reach, on outermost(Fn)'s parameters
	// (paramconds.go); the first is the one Via names. casesMet says
	// the call's constant arguments meet every condition of that first
	// case: the call makes its write as surely as a call of a function
	// without cases (Upsert(seq, nil) where nil picks the update).
	cases    []WriteCase
	casesMet bool
	// sitesOf is, for a call whose Sites come from a declared function's
	// WritesFact, that function (refreshSites reads it again), and
	// sitesArgs the call whose arguments are its (nil: a helper runs it
	// with its own), which Sites are bound by (bindSites).
	sitesOf   *types.Func
	sitesArgs ssa.CallInstruction
	// implSites, when 2 or more, says Sites takes in the writes of that
	// many implementations of an interface method, not only writes every
	// call makes (WritesFact.Implementations); eachImpl, that the call
	// itself runs one of them and Sites lists each one's
	// (WritesFact.EachImpl).
	implSites int
	eachImpl  bool
	// steps are, for a call of an element of a slice literal of func
	// values in a loop, the functions the literal holds: Sites lists each
	// one's writes (stepSites).
	steps []*ssa.Function
	// session is, for a call of a function that writes through a database
	// session its caller hands it (WritesFact.Session, SessionField), that
	// session at the call (sessions.go); nil: the call's receiver.
	session ssa.Value
	// fencedBySession: Fenced only because the write goes through the
	// session that holds the lock, so a later round that changes session
	// judges it again.
	fencedBySession bool
	// handedUnder is, for the write of a method of another package handed
	// over as a value to run under a lease (handedMethodWrites), that
	// lease: the write is recorded where the method value is handed over.
	handedUnder *Lease
}

// A Check is a lease-validity check: a call whose result says the lease is
// (still) held (IsLeader, Valid, TTL, State() == raft.Leader, a deadline
// comparison, a //fencelint:check function).
type Check struct {
	Call   ssa.CallInstruction // nil for a hand-written deadline comparison
	Pos    token.Pos
	Fn     *ssa.Function
	System System
	What   string // "IsLeader", "Valid", "time.Now().Before(deadline)"
	// Guarded lists the writes whose execution depends on the check.
	Guarded []*Write
	// End is the end of the checking expression, for diagnostic ranges.
	End token.Pos

	// Claim says how the lease checked was taken, where that changes how
	// a write it guards is fenced (an etcd Election's Leader).
	Claim Claim

	held    []branch // the branches taken when the check says the lease is held (checks.go)
	inLease bool     // the check vouches for a lease only where one is held (HeldRule InLease)
	// deadline is, for a hand-written deadline comparison, the deadline
	// compared with the clock.
	deadline ssa.Value
}

// FenceAdvice says how to fence w, a write c guards: as for a write under
// the lease c checks (Lease.FenceAdvice).
func (c *Check) FenceAdvice(w *Write) string {
	return fenceAdvice(c.System, c.Claim, w)
}

// A Renewal is a manual renewal call (Extend, Refresh, KeepAliveOnce,
// Session.Renew, RenewPeriodic, a //fencelint:renew function).
type Renewal struct {
	Call   ssa.CallInstruction
	Pos    token.Pos
	Fn     *ssa.Function
	System System
	What   string
	// InLoop reports whether the call sits in a loop of Fn.
	InLoop bool
	// Periodic reports whether the call renews again and again by itself
	// until it fails or is stopped (Consul RenewPeriodic).
	Periodic bool
	// Reacquire marks a session advisory lock (GET_LOCK, pg_advisory_lock)
	// taken again on a timer by a goroutine started while it is held:
	// that keeps the lock's connection alive and tells whether it lives
	// (reacquire.go). Goes lists those go statements: in another
	// goroutine the same call holds no lease to renew.
	Reacquire bool
	Goes      []ssa.CallInstruction
	// Method is, for a Reacquire, the exported method that takes its own
	// receiver's lock again, which another package may run in a goroutine
	// (go lk.KeepAlive(ctx)).
	Method *ssa.Function
	// Notifies reports whether the code that runs when the renewal fails
	// (its error, false or nil result) tells the work: it cancels a
	// context, closes or sends on a channel, sets a shared flag, calls a
	// callback, exits or panics (directly, in a deferred call, or in a
	// function of the package it calls).
	Notifies bool
	// Returns reports whether a failure makes Fn return: with the failure
	// as its result, or ending a function that returns nothing.
	Returns bool
	// ErrorUsed reports whether the failure reaches anyone: it Notifies,
	// or it Returns to a caller that can see it (Fn is not only started
	// by go statements, which drop results).
	ErrorUsed bool
	// Liveness reports, for an etcd renewal, that the lease it keeps alive
	// is no lock: it only rides on keys put unconditionally (a registration,
	// a record of running work), and no session or transaction makes a lock
	// of it (liveness.go).
	Liveness bool
	// LeaseFromCaller reports, for an etcd renewal, that the lease it keeps
	// alive is a parameter of Fn: a wrapper that renews what it is handed.
	LeaseFromCaller bool
}

// A Signal is a lost-signal a lease hands out.
type Signal struct {
	Call   ssa.CallInstruction // the call that returned it (NewSession, KeepAlive, Lock.Lock); nil for a callback ctx
	Pos    token.Pos
	Fn     *ssa.Function
	System System
	What   string
	// Value is the signal itself: a session, a channel, a context.
	Value ssa.Value
	// Carrier is the struct field the signal's carrier is stored in (the
	// etcd session, or the ZooKeeper connection whose events the signal
	// is), or for a signal from another package the field or accessor
	// method its fact is on. Locks made from it anywhere (Lease.From), also
	// in other packages, run under this signal.
	Carrier types.Object
	// Origin, for a signal obtained in another package and reached here
	// through Carrier, says where it was made ("concurrency.NewSession at
	// store.go:12"); Call is then the call that makes a lock from Carrier.
	Origin string
	// OnGrantedLease reports, for an etcd session, that it runs on a lease
	// granted beforehand and handed to it (concurrency.WithLease): whoever
	// keeps that lease alive holds its lost-signal too.
	OnGrantedLease bool
	// Callers lists the package's functions that call Fn, and their
	// callers, a few calls up: the lease a helper keeps alive
	// (KeepAlive in keepAlive(ctx, id)) may guard the work of its caller.
	Callers []*ssa.Function
	// KeepsLock names, for a KeepAlive in an acquire wrapper of a
	// hand-rolled etcd lock (spqr's LockKeyRangeOps), the wrapper: the
	// lease it keeps is its callers' lock, whatever package they are in.
	KeepsLock string
	// Observed reports whether the program ever waits on, selects on,
	// reads from or derives a context from the signal.
	Observed bool
	// Relayed reports, for a callback's ctx, whether its cancellation is
	// passed on: waiting on ctx.Done() leads to a cancel, close or send,
	// or context.AfterFunc(ctx, ...) is called.
	Relayed bool
	// StoppedBy names, for a callback's ctx, the library's callback for a
	// lost lease installed with it (OnStoppedLeading) when that one tells
	// the work (closes its stop channel, cancels its context): the lost
	// signal reaches the work that way too.
	StoppedBy string
	// Awaited reports, when StoppedBy is set, whether that callback also
	// waits for the work to return (WaitGroup.Wait, a receive from a done
	// channel), so nothing the work started is still writing after it.
	Awaited bool
	// EndsProcess reports, for a callback's ctx, that losing the lease
	// ends the process: the election (RunOrDie) is the last thing the
	// program does before it exits, without ReleaseOnCancel, and the
	// callback for a lost lease returns at once (electionexit.go). Work
	// that never hears of the loss ends with the process.
	EndsProcess bool
}

// A Goroutine is a go statement and what its body does.
type Goroutine struct {
	// Go is the go statement, or the call of a goroutine helper of the
	// application's (GoParamFact: safego.RunWithRestart(func() {...}))
	// that starts Fn.
	Go  ssa.CallInstruction
	Pos token.Pos
	Fn  *ssa.Function // the function the go statement calls, when static
	// Helper is the goroutine helper that starts Fn, nil for a go
	// statement.
	Helper *types.Func
	// Funcs lists the package's functions the goroutine runs: Fn, the
	// functions and closures it calls, and the closures they create. It,
	// Loops and Works are computed only in packages that renew a lease.
	Funcs []*ssa.Function
	// Renewals lists the renewal calls in Funcs, and the go statement's
	// own call when it is a renewal (go s.RenewPeriodic(...)).
	Renewals []*Renewal
	// Loops lists the Renewals that run again and again: in a loop, in a
	// function called in a loop, or periodic by themselves.
	Loops []*Renewal
	// Repeated lists the functions of Funcs that the goroutine hands to a
	// function that runs them again and again (wait.Until, wait.Forever):
	// returning from one is a retry, not news for anyone.
	Repeated []*ssa.Function
	// RecvLeases lists, for a go statement that runs a method of another
	// package, the MySQL and PostgreSQL leases held there that were taken
	// through the same receiver (go lk.KeepAlive(ctx) after lk.Lock(ctx)).
	RecvLeases []*Lease
	// Works reports whether the goroutine does more than renew: it writes
	// to a store or calls something besides renewals, the lock library,
	// logging, metrics, timers and contexts. Such a goroutine is (part of)
	// the work, and returning from it stops that work.
	Works bool
}

// An Origin says where a value used as a token comes from.
type Origin struct {
	Kind OriginKind
	Pos  token.Pos // the source call or field read
	What string    // "Mutex.Header().Revision", "redsync Mutex.Value()", "time.Now()"
	Note string    // why it is (not) a token
	// System is the library the source belongs to ("" for clocks, random
	// numbers, UUIDs and host facts), so a diagnostic can name a real token
	// source for it.
	System System
}

// OriginKind classifies a token's origin.
type OriginKind uint8

const (
	Unknown    OriginKind = iota // nothing is known: assume the author knows better
	Monotonic                    // issued with the lease and increasing: a real token
	NotOrdered                   // not monotonic (random, clock, per-key counter, lease ID)
	LateDrawn                    // monotonic but drawn in a separate step after acquiring
)

// WriteTokenOrigin reports where the token of w, a fenced write of
// m.Writes, comes from. It follows assignments, conversions, struct fields,
// parameters (through facts), returns and closures.
func (m *Model) WriteTokenOrigin(w *Write) Origin {
	if m == nil || w == nil {
		return Origin{}
	}
	return m.answers.origins[w]
}

// LeaseAround returns a lease held where w, one of m.Writes, is made: one
// of w.Held, or, for a write in a function of the package that holds none
// itself, a lease held where the package calls that function (up to a few
// calls up). It is nil when no lease is seen.
func (m *Model) LeaseAround(w *Write) *Lease {
	if m == nil {
		return nil
	}
	return m.answers.around[w]
}

// Guarding returns the leases of w.Held, one of m.Writes, that guard it:
// all of them, except a lease its function also writes the same object
// without, for a write through an object the function built itself
// (ownobject.go): the program writes that object's data unlocked too.
func (m *Model) Guarding(w *Write) []*Lease {
	if m == nil || w == nil {
		return nil
	}
	if kept, ok := m.answers.guarding[w]; ok {
		return kept
	}
	return w.Held
}

// answers holds the token-flow answers for a package's writes.
type answers struct {
	origins  map[*Write]Origin
	around   map[*Write]*Lease
	guarding map[*Write][]*Lease // only where it differs from Write.Held
}

// answer computes, for every write, what the checks ask: its token's
// origin, the lease around it, the leases that guard it.
func (b *builder) answer() answers {
	a := answers{
		origins: make(map[*Write]Origin),
		around:  make(map[*Write]*Lease),

		guarding: b.ownObjectLeases(),
	}
	for _, w := range b.model.Writes {
		switch {
		case w.Token != nil && w.TokenField != nil:
			a.origins[w] = b.tokens.fieldOrigin(w.Token, w.TokenField, w.Pos)
		case w.Token != nil:
			a.origins[w] = b.tokens.origin(w.Token)
		}
		if l := b.tokens.leaseAround(w); l != nil {
			a.around[w] = l
		}
	}
	return a
}

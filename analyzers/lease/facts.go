package lease

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
)

// Facts exported for functions, so that a call to a function declared in
// another package is understood as what it does. Each fact is about one
// *types.Func.

// WritesFact: calling the function writes to a shared store without a fence
// the caller's lease could rely on.
type WritesFact struct {
	System System
	What   string // "ExecContext (UPDATE docs) at store.go:41"
	// Dispatch is set when the write was found through an interface call
	// resolved to another package's implementation (dispatch.go).
	Dispatch Dispatch
	// OutsideOf names the lease (as Lease.What) of a goroutine the function
	// starts that takes that lease itself: its writes are not made under a
	// caller's hold of it (goroutines.go).
	OutsideOf string
	// Advice says how to fence the write named, when its store's usual
	// advice does not fit it (an STM's write, a SLAVEOF); "" otherwise.
	Advice string
	// Append: every unfenced write of the function only adds rows.
	Append bool
	// Accumulates: every unfenced write of the function adds rows or adds
	// to a column's own value (SET n = n + $1), replacing no value.
	Accumulates bool
	// FreshKeys: every unfenced write of the function is a Redis write to
	// a key built from each of these parameters (bit i: parameter i,
	// receiver excluded), kept whole and seen by nothing before it
	// (freshkey.go); a call that passes a fresh identifier in any of them
	// writes only new keys.
	FreshKeys uint64
	// KeyParams: every unfenced write of the function is a Redis write to
	// a key built from one of these parameters (bit i: parameter i,
	// receiver excluded) and constants only (lockhelpers.go): a call that
	// passes the key of a lock the caller takes renews or lets go of that
	// lock (cache.Expire(masterKey, ttl)), which is no write it guards.
	KeyParams uint64
	// Spawned: every unfenced write of the function is made in a
	// goroutine it starts (oncestart.go).
	Spawned bool
	// OnceRecv: the function's unfenced writes are made in a goroutine it
	// starts at most once per receiver (a flag or sync.Once of the
	// receiver's guards the start): a call on an object the caller did not
	// make starts nothing new (oncestart.go).
	OnceRecv bool
	// Keys: the function is a goctl model's Insert whose every unfenced
	// write is a plain INSERT binding these unique keys' fields of the row
	// it is handed (goctl.go): SchemaKeys spelled "FindOneByX=col1,col2",
	// joined by ";" (formatKeys; a string keeps the fact comparable).
	Keys string
	// BoundColumn, when set, says every unfenced write of the function is
	// a bounded decrement of that column (SET c = c - $x WHERE ... AND c
	// >= $x) by its parameter BoundParam (receiver excluded; sqlbounds.go).
	BoundColumn string
	BoundParam  int
	// Cases lists the function's unfenced writes with the values of its
	// parameters that reach each, in order, when the first does not reach
	// on every call (paramconds.go): a call whose constant arguments rule
	// every case out writes nothing, and one that rules out the first
	// names the first case left. nil: every call reaches What.
	Cases []WriteCase
	// Session, when not 0, says every unfenced write of the function goes
	// through the database session (a connection or transaction) its
	// parameter Session-1 holds (receiver excluded); SessionField, when
	// set, that it goes through the one its receiver's field so named
	// holds (sessions.go). A caller that holds an advisory lock on that
	// session writes under its own lock.
	Session      int
	SessionField string
	// Sites lists, when the function makes more than one unfenced write,
	// each of them where the program makes it nearest the store, in
	// order: "StateStore.SaveCursor at syncer.go:94" (writesites.go),
	// with what the function's parameters must be to reach it (Needs,
	// as Cases has them); those that only add rows are left out when
	// another, made on every call, replaces data. nil: What is the only
	// one.
	Sites []Site
	// Site is the write What names, where the program makes it nearest
	// the store, as a Site: a call through an interface that several
	// implementations answer lists each one's (dispatchSites).
	Site Site
	// Implementations, when 2 or more, says Sites takes in the writes of
	// that many implementations of an interface method (a call in the
	// function carried EachImpl), not only writes every call makes.
	Implementations int
	// EachImpl lists, for a call through an interface that several
	// implementations answer with writes to one store, each one's writes,
	// and EachImplOf how many implementations; Sites stays the named
	// one's. A call on a value it is handed or ranges over carries
	// EachImpl; one on a field's configured dependency, Sites
	// (reachSites).
	EachImpl   []Site
	EachImplOf int
}

// sameWritesFact reports whether x and y say the same.
func sameWritesFact(x, y *WritesFact) bool {
	return x.System == y.System && x.What == y.What && x.Advice == y.Advice && x.Dispatch == y.Dispatch && x.OutsideOf == y.OutsideOf &&
		x.Append == y.Append && x.Accumulates == y.Accumulates && x.FreshKeys == y.FreshKeys && x.KeyParams == y.KeyParams && x.Session == y.Session && x.SessionField == y.SessionField && x.Spawned == y.Spawned &&
		x.OnceRecv == y.OnceRecv && x.Keys == y.Keys && x.BoundColumn == y.BoundColumn && x.BoundParam == y.BoundParam &&
		sameCases(x.Cases, y.Cases) && sameSites(x.Sites, y.Sites) && sameSite(x.Site, y.Site) && x.Implementations == y.Implementations && sameSites(x.EachImpl, y.EachImpl) && x.EachImplOf == y.EachImplOf
}

// A Dispatch names the implementation that a fact was learned from through
// a call on an interface value: the method of a type of the program that
// the call was resolved to. A package that converts a type of its own to
// that interface knows better which implementation its calls reach
// (reachableImpl).
type Dispatch struct {
	Type   string // the implementing named type: "example.com/app/pgstore.Store"
	Method string // "InsertRun"
	Sig    string // the method's signatureKey
}

// FencedByParamFact: the function's write is fenced by the token passed as
// parameter Param (0-based, receiver excluded). Called with a token there, it
// is a fenced write; called with anything else, it is unfenced.
type FencedByParamFact struct {
	System System
	Param  int
	Field  string // the token is this field of the parameter (sqlc's arg.Fence), or ""
	What   string
	// Dispatch: as in WritesFact.
	Dispatch Dispatch
	// TokenSource names a token source of the writing package for
	// diagnostics (fencegen's AcquireLease), or "".
	TokenSource string
	// LeaseKey says the parameter is no token but a key whose existence
	// the write requires: it is fenced when the caller passes the
	// holder's own election or mutex key (etcdleasekey.go).
	LeaseKey bool
	// SessionLease says the parameter is no token but the lease a put
	// binds its key to: it is fenced when the caller passes an etcd
	// session's Lease() (sessionlease.go).
	SessionLease bool
	// KubeObject says the parameter is no token but the Kubernetes object
	// an Update sends: the write is fenced when the caller's object carries
	// the resourceVersion it was read at (kubeobjects.go).
	KubeObject bool
}

// RoleFact: the function acts as a lock API with these roles (from a
// directive, or because it wraps a catalog call: a wrapper of Mutex.Lock
// that returns holding the lock acquires).
type RoleFact struct {
	Role   Role
	System System
	What   string
	// Held is, for a check, which uses of its result say the lease is
	// held: InLease for a wrapper of connection-state checks only.
	Held HeldRule
	// Dispatch: as in WritesFact.
	Dispatch Dispatch
	// Key is, for an acquire that locks one key, the parameter (Param,
	// receiver excluded) or the receiver's field (Param -1, Field) that
	// key is, when KeyKnown (leasekeys.go).
	Key      ParamField
	KeyKnown bool
	// Claim says, for an acquire, how the lock is taken, where that
	// changes how a write under it is fenced.
	Claim Claim
	// Session is, for an acquire of a database advisory lock, the
	// parameter (1-based, receiver excluded) whose connection or
	// transaction holds it; 0 when it is not one of them (sessions.go).
	Session int
	// Returns says, for a getter of a leader flag, what it returns, for
	// its checks' diagnostics: the getter's name says nothing of a lease
	// ("the leader flag leader, set by SetLeader(true) at main.go:73
	// while ... is held").
	Returns string
	// WritesFirst is, for a release, that it writes under the lease it
	// is handed before it lets go (on every path back to its caller): a
	// call of it is a write as well as the region's end.
	WritesFirst bool
	// LockParam is, for a release, the parameter (1-based, receiver
	// excluded) whose lock it lets go, when that is all it lets go of: a
	// call that passes nil there releases nothing.
	LockParam int
}

// CallbackParamFact: the function values passed as these parameters
// (receiver excluded) run while a lease is held: the function locks and
// calls them, or hands them to a library callback such as OnStartedLeading.
type CallbackParamFact struct {
	Params []int
	System System
	What   string
}

func (*CallbackParamFact) AFact() {}
func (f *CallbackParamFact) String() string {
	return fmt.Sprintf("callback params %v: %s", f.Params, f.What)
}

// NoticeParamFact: the function keeps the channels passed as these
// parameters (receiver excluded) and sends on them, while a lease is held,
// whether this node holds it: an election of the application's own that
// tells its owner "you lead" on the owner's channel. A receive from such a
// channel is a leadership notice (leadernotice.go).
type NoticeParamFact struct {
	Params []int
	System System
	What   string // the lease, "the etcd lock taken by Election.Campaign"
	Claim  Claim
}

func (*NoticeParamFact) AFact() {}
func (f *NoticeParamFact) String() string {
	return fmt.Sprintf("notice params %v: %s", f.Params, f.What)
}

// LostSignalFact: the struct field holds a lease's carrier (an etcd
// session, a ZooKeeper connection) whose lost-signal its package never
// watches. Importers that make locks from the field and do not watch it
// either run their work under a lease nobody hears of losing.
type LostSignalFact struct {
	System System
	What   string // "concurrency.NewSession at store.go:12"
}

func (*LostSignalFact) AFact() {}
func (f *LostSignalFact) String() string {
	return fmt.Sprintf("unwatched %s lost-signal: %s", f.System, f.What)
}

// TokenFact: the function returns a value with this origin. Counter marks
// a monotonic counter the function draws each time it is called (SQL
// nextval, Redis INCR): whether it is a token depends on the leases held
// where it is called, so the importer judges it at the call.
type TokenFact struct {
	Origin  Origin
	Counter bool
}

// TokenConvFact: the function converts the value passed as parameter Param
// (0-based, receiver excluded) into a token (fencegen's TokenOf): its
// result has the origin of the argument.
type TokenConvFact struct {
	Param int
}

func (*TokenConvFact) AFact() {}
func (f *TokenConvFact) String() string {
	return fmt.Sprintf("converts param %d into a token", f.Param)
}

func (*WritesFact) AFact()        {}
func (*FencedByParamFact) AFact() {}
func (*RoleFact) AFact()          {}
func (*TokenFact) AFact()         {}

func (f *WritesFact) String() string {
	if f.OnceRecv {
		return "writes once per receiver " + f.What
	}
	return "writes " + f.What
}
func (f *FencedByParamFact) String() string {
	if f.Field != "" {
		return fmt.Sprintf("fenced by param %d field %s: %s", f.Param, f.Field, f.What)
	}
	return fmt.Sprintf("fenced by param %d: %s", f.Param, f.What)
}
func (f *RoleFact) String() string { return "lock role " + f.Role.String() }
func (f *TokenFact) String() string {
	if f.Counter {
		return "token counter " + f.Origin.What
	}
	return "token " + f.Origin.Kind.String() + " " + f.Origin.What
}

func factTypes() []analysis.Fact {
	return append([]analysis.Fact{new(WritesFact), new(FencedByParamFact), new(RoleFact), new(TokenFact), new(PackageFact), new(CallbackParamFact), new(LostSignalFact), new(SQLParamFact), new(FormatFact), new(SQLCondFact), new(SQLTemplateFact), new(CheckParamFact), new(TokenConvFact), new(CallbackFieldFact), new(CASFact), new(FailsFact), new(ConvergeFact), new(SchemaFact), new(GoParamFact), new(LookupFact), new(LockKeyCtorFact), new(ScriptFact), new(NoticeParamFact), new(RunParamFact), new(SessionCtorFact), new(CtxSessionFact), new(TextFact), new(HandOffsFact), new(LeaderSetsFact), new(KubeNewFact), new(BoilerQueryFact)},
		ctrlflow.Analyzer.FactTypes...) // controlFlow runs ctrlflow within the lease pass
}

var roleNames = []string{"acquire", "try-acquire", "release", "renew", "auto-renew", "check", "lost",
	"token", "not-token", "write", "fenced", "callback", "elect", "grant", "counter", "locker", "on-lost", "on-lease", "event-callback", "observe"}

// String lists the roles, as in "acquire|auto-renew".
func (r Role) String() string {
	var names []string
	for i, name := range roleNames {
		if r&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "|")
}

func (k OriginKind) String() string {
	switch k {
	case Monotonic:
		return "monotonic"
	case NotOrdered:
		return "not-ordered"
	case LateDrawn:
		return "late-drawn"
	}
	return "unknown"
}

// PackageFact marks a package that exported lease facts, so that importers
// know to build their model.
type PackageFact struct{}

func (*PackageFact) AFact()         {}
func (*PackageFact) String() string { return "lease facts" }

// exportFacts exports the facts learned about the package's functions.
func (b *builder) exportFacts() {
	exported := b.exportCallbackFields()
	for fn, facts := range b.local {
		for _, f := range facts {
			b.pass.ExportObjectFact(fn, f)
			exported = true
		}
	}
	if exported {
		b.pass.ExportPackageFact(&PackageFact{})
	}
}

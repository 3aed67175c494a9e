// Package lease computes the lease model that every fencelint check reads.
//
// # Analyzer lease
//
// lease: find lease regions, store writes, validity checks, renewals and fencing tokens
//
// A distributed lock is a lease: permission that expires on the granter's
// clock. The lease analyzer finds, in each function, where a lease is held:
// from a successful acquisition (etcd Mutex.Lock, redsync Mutex.Lock, SET NX,
// pg_advisory_lock, Consul Lock.Lock, a ZooKeeper Lock, a //fencelint:acquire
// function or a wrapper that acquires) to its release or the end of the
// function, on every path; inside callbacks the library runs while the lease
// is held (leaderelection OnStartedLeading, gocron jobs scheduled with a
// distributed locker or elector); and in code guarded by a positive validity
// check (if le.IsLeader()). It lists the store writes (database/sql, pgx,
// etcd, go-redis, S3, Cloud Storage, Consul KV, ZooKeeper) made there and
// whether the store itself rejects a stale holder (a fence), and it follows
// fencing tokens from the sources that issue them (etcd revisions, Consul
// indexes, zxids, //fencelint:token functions) through assignments, fields,
// parameters, returns and closures.
//
// Facts carry this across packages: a function that writes, acquires,
// releases, renews, checks, returns a token, or writes fenced by one of its
// parameters is known as such wherever it is called; a struct field that
// holds an etcd session or ZooKeeper connection whose lost-signal its
// package never watches (LostSignalFact) is known to the packages that make
// locks from it.
//
// A call through an interface does what the implementations of that
// interface do: those declared in the package, in the packages of its
// module it imports, and, in a standalone run over a whole program, in any
// package of the user's modules. One implementation that writes makes the
// call a write; test doubles declared in _test.go files and fakes that
// write nothing do not count. A directive on the interface method says
// what every implementation does.
//
// The analyzer reports nothing itself. The checks built on it are
// unfencedwrite, heldcheck, detachedrenewal and weaktoken.
//
// # Directives
//
// Directives use Go's directive form, with no space after the slashes. On a
// function's or an interface method's doc comment:
//
//	//fencelint:acquire  the function acquires a lease and returns holding it
//	//fencelint:release  the function releases a lease
//	//fencelint:renew    the function renews a lease
//	//fencelint:check    the function reports whether the lease is still held
//	//fencelint:token    the function returns a fencing token
//	//fencelint:write    the function writes to a shared store
//	//fencelint:fenced   the function's writes are fenced
//
// On a line, or on the line before a statement:
//
//	//fencelint:ignore REASON
//
// silences every fencelint finding on that line; the reason is required, and
// an ignore directive that covers nothing fencelint looks at is reported.
// A //nolint:NAME comment (golangci-lint's form) naming a fencelint analyzer,
// or //nolint:fencelint, silences that analyzer on its line too.
package lease

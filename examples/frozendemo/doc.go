// Command frozendemo shows the frozen-worker bug with real parts, and the
// fences that stop it.
//
// It starts an etcd server (embedded, on loopback), Debian's redis-server
// and a throwaway PostgreSQL cluster (the installed initdb and postgres), then
// plays each variant with two workers as separate OS processes: worker A
// takes the lease and is stopped with SIGSTOP for longer than the lease's
// TTL, as a long GC pause or CPU throttling would; worker B takes the lease
// and writes the balance it computed; A gets SIGCONT and writes its own,
// older balance. For each variant it prints the timeline (time, worker,
// event, token, rows affected) and the final row:
//
//	etcd-unfenced     an etcd mutex around a plain UPDATE: B's write is lost
//	redsync-unfenced  a redsync mutex around a plain UPDATE: B's write is lost
//	etcd-fenced       the mutex's revision as the token of fencegen's
//	                  UpdateBalance: A is refused with store.ErrStale
//	redis-late-token  a redsync mutex, then nextval drawn after acquiring as
//	                  the token: A draws a newer token than B, B's write is lost
//	lease-table       fencegen's lease table, which hands out the token in the
//	                  acquiring statement: A is refused
//
// Run it from this directory (it needs redis-server, and PostgreSQL's initdb
// and postgres; as root, a postgres user):
//
//	go run .
//	go run . -soak 1000 -variant etcd-fenced,lease-table
//
// -soak N plays N rounds per variant with random pauses and counts stale
// writes accepted, rejections and failed rounds. The workers are registered
// with github.com/fencelint/fencelint/fencetest, which the tests use too.
//
// The store package is fencegen's output for schema.sql:
//
//go:generate go run -C ../.. ./cmd/fencegen -config examples/frozendemo/fencegen.yaml -no-version
package main

import "embed"

// schemaFiles are the SQL files the demo applies to its fresh database.
//
//go:embed schema.sql store/fence_tokens.sql store/fence_leases.sql
var schemaFiles embed.FS

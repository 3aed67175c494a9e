// Command frozenworker reproduces the frozen-worker bug: a worker that holds
// a distributed lock, pauses, loses the lock without knowing it, and then
// overwrites the work of the worker that took the lock after it.
//
// Each worker recomputes an account's balance from its ledger and stores it
// in the balances table. Two modes show the bug and its fix:
//
//	-mode=advisory  a PostgreSQL session advisory lock (pg_try_advisory_lock
//	                on a pinned *sql.Conn), then a plain UPDATE through the
//	                pool: unfenced, and fencelint reports it
//	-mode=lease     a lease row that hands out a fence with each grant; the
//	                UPDATE only applies if no newer fence has written
//	                (WHERE id = $1 AND fence <= $2) and the worker checks
//	                RowsAffected: fenced, and fencelint is quiet
//
// See what fencelint says about it:
//
//	go run ./cmd/fencelint ./examples/frozenworker
//
// The program uses database/sql only, so that it builds with the standard
// library; to run it against PostgreSQL, link a driver in (for example a file
// with `import _ "github.com/jackc/pgx/v5/stdlib"`) and pass -driver=pgx
// -dsn=postgres://... -init.
//
// # Timeline of the bug (-mode=advisory)
//
//	t0   worker A: pg_try_advisory_lock(42) on its pinned connection: true.
//	t1   worker A: sums the ledger of account 42: balance 100.
//	t2   worker A stops: a long GC pause, a swapped-out heap, a VM migrated
//	     or SIGSTOPped. Nothing in A runs, so nothing in A notices the rest.
//	t3   A's session dies: the server ends the idle backend (TCP keepalive,
//	     idle_session_timeout, a failover, pg_terminate_backend), and with it
//	     every session advisory lock it held. The client is not told.
//	t4   worker B: pg_try_advisory_lock(42): true. A new ledger entry has
//	     arrived; B computes 150 and writes it.
//	t5   worker A resumes where it stopped and writes balance 100 through the
//	     pool, on another, healthy connection: the UPDATE succeeds. B's 150 is
//	     lost, and A's unlock later returns false with a WARNING nobody reads.
//
// A longer timeout, a shorter pause or a validity check before the write
// only narrows the window: the pause can fall between the check and the
// write. Only the store can refuse A's write, and it can only do so if the
// write carries something that says A's lease is older than B's.
//
// # Timeline with a fence (-mode=lease)
//
//	t0   worker A takes the lease row for account 42 and gets fence 7.
//	t2   A stops; its lease expires.
//	t4   B takes the expired lease and gets fence 8 from the same statement;
//	     B writes 150 WHERE id = 42 AND fence <= 8, storing fence 8.
//	t5   A resumes and writes 100 WHERE id = 42 AND fence <= 7: no row
//	     matches, RowsAffected is 0, A learns it lost the lease and stops.
package main

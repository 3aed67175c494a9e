package lease

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Many services keep their locks in a table of their own: a row per lock,
// taken over once its time has run out. Ente's task lock is
//
//	INSERT INTO task_lock(task_name, lock_until, locked_at, locked_by) VALUES($1, $2, $3, $4)
//	ON CONFLICT ON CONSTRAINT task_lock_pkey DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4
//	WHERE task_lock.lock_until < $3
//
// and its release DELETE FROM task_lock WHERE task_name = $1. Precisely, a
// statement takes a lease row when it sets a column whose old value its
// condition requires to be below a bound other than the new value
// (sqlscan's Claims: a fence, which writes the value it compares, is
// none), the column is named for a time (until, expires, deadline,
// heartbeat, ..., or ending in at, time, ts), and the column or the table
// is named for a lock (lock, lease, leader, mutex, election, semaphore).
// Every statement on such a table in the package is the lock's own, no
// write it guards; and a DELETE of the table, other than a sweep of
// expired rows, that holds none of the columns the claims set (the
// holder, the expiry, a token) to a value lets go of whoever's row is
// there: a holder paused past lock_until deletes the row the next holder
// took (Write.BlindRelease, which unfencedwrite reports).
//
// The claim opens no lease region. Read as an acquire (won where its
// RowsAffected says a row changed, through the application's wrappers),
// it found ente's three mailers' unfenced history inserts, but 15 false
// findings beside them on the same application, idempotent deletes of
// dead objects and queue items mostly, with 7 debatable ones: the commit
// that added it (64c7633) has the region rules.

// leaseRowClaim reports whether st takes over a row of a lock table.
func leaseRowClaim(st *sqlscan.Statement) bool {
	table := lastPathPart(st.Table)
	return slices.ContainsFunc(st.Claims, func(col string) bool {
		return timeColumn(col) && (lockName(col) || lockName(table))
	})
}

// lastPathPart returns a qualified name's last part: "app.task_lock" gives
// "task_lock".
func lastPathPart(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}

// lockName reports whether a table or column is named for a lock.
func lockName(name string) bool {
	return hasWordPrefix(name, "lock", "lease", "leader", "mutex", "election", "semaphore")
}

// timeColumn reports whether a column is named for a point in time.
func timeColumn(col string) bool {
	if hasWordPrefix(col, "until", "expir", "deadline", "heartbeat", "timeout", "valid") {
		return true
	}
	w := words(col)
	if len(w) == 0 {
		return false
	}
	last := w[len(w)-1]
	return last == "at" || last == "time" || last == "ts" || last == "hb" || last == "timestamp"
}

// leaseTables returns the tables some SQL of the package takes lease rows
// of, each with the columns its claims write (the holder, the expiry),
// read once.
func (b *builder) leaseTables() map[string]map[string]bool {
	if b.leaseRowTables != nil {
		return b.leaseRowTables
	}
	tables := make(map[string]map[string]bool)
	b.leaseRowTables = tables
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		api := b.ix.lookupFunc(calleeFunc(call.Common()))
		if !sendsSQL(api) {
			return true
		}
		texts, _ := b.callTexts(call.Common(), api)
		for _, text := range texts {
			for _, st := range b.parseSQL(text.text, api.System).Statements {
				if leaseRowClaim(&st) {
					addClaimColumns(tables, &st)
				}
			}
		}
		return true
	})
	return tables
}

// addClaimColumns notes the lock table of the claim st with the columns
// its SET writes (the holder, the expiry; not the row's key).
func addClaimColumns(tables map[string]map[string]bool, st *sqlscan.Statement) {
	table := strings.ToLower(st.Table)
	cols := tables[table]
	if cols == nil {
		cols = make(map[string]bool)
		tables[table] = cols
	}
	for _, c := range st.Claimed {
		cols[strings.ToLower(c)] = true
	}
}

// onLeaseTable reports whether st writes a table the package takes lease
// rows of: the lock's own statement.
func (b *builder) onLeaseTable(st *sqlscan.Statement) bool {
	return st.Writes && st.Table != "" && b.leaseTables()[strings.ToLower(st.Table)] != nil
}

// blindRelease reports whether st lets a lease row go by its key alone:
// its WHERE clause holds no column the claims write (the holder, the
// expiry, a token) to a value, so it deletes whoever's row is there.
func (b *builder) blindRelease(st *sqlscan.Statement) bool {
	if !b.releasesLeaseRow(st) || st.Where == nil {
		return false
	}
	written := b.leaseTables()[strings.ToLower(st.Table)]
	return !slices.ContainsFunc(st.Where, func(p sqlscan.Pin) bool { return written[strings.ToLower(p.Column)] })
}

// releasesLeaseRow reports whether st lets a lease row go: a DELETE from
// a lease table, other than a sweep of expired rows.
func (b *builder) releasesLeaseRow(st *sqlscan.Statement) bool {
	return st.Verb == "DELETE" && !st.Expiry && b.onLeaseTable(st)
}

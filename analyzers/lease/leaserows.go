package lease

import (
	"go/constant"
	"go/token"
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
// with `return rowsAffected == 1, nil`, and its release a DELETE of the row.
// Such a row is a lease like any other: a holder paused past lock_until
// loses it to the next one and goes on writing. Precisely, a statement
// takes a lease row when it sets a column whose old value its condition
// requires to be below a bound other than the new value (sqlscan's
// Claims: a fence, which writes the value it compares, is none), the
// column is named for a time (until, expires, deadline, heartbeat, ...,
// or ending in at, time, ts), and the column or the table is named for a
// lock (lock, lease, leader, mutex, election, semaphore). The claim is won
// when a row was changed: its RowsAffected compared with 0 or 1, or (with
// RETURNING) a row scanned. In the package of the claim, a DELETE of that
// table, not one of expired rows only, lets the lease go, and every
// statement on the table is the lock's own, no write it guards. Across
// packages the wrappers carry it (RoleFact, its Claim SQLRowClaim), as
// they do any lock. A job queue that claims rows by a locked_until column
// takes a lease on the job the same way, and is read so.

// leaseRow is what sqlLocks records for a statement that takes a lease row.
const leaseRow = "lease row"

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

// leaseRowLease returns the lease a lease-row claim opens, once per call
// site. It lives in the table, not in the session: a write through the
// connection that claimed it is fenced by nothing.
func (b *builder) leaseRowLease(call *ssa.Call, table string) *Lease {
	if l := b.regions.byCall[call]; l != nil {
		return l
	}
	l := b.addLease(&Lease{Kind: Acquired, System: SQL, Pos: call.Pos(), Fn: call.Parent(), Call: call,
		What: "the lease row in " + table + " taken by " + shortCallName(call.Common()), Claim: SQLRowClaim})
	b.regions.byCall[call] = l
	return l
}

// shortCallName names the function call invokes ("ExecContext"), or "a
// call" where it is dynamic.
func shortCallName(call *ssa.CallCommon) string {
	if f := calleeFunc(call); f != nil {
		return f.Name()
	}
	return "a call"
}

// failedRowClaim reads a comparison of a lease-row claim's RowsAffected
// with a constant (n == 1, n > 0, n == 0, n != 1): the claim failed
// where no row was changed. It returns the lease and the successor taken
// then.
func (b *builder) failedRowClaim(x *ssa.BinOp) (*Lease, int, bool) {
	switch x.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return nil, 0, false
	}
	v, k := x.X, x.Y
	if _, ok := k.(*ssa.Const); !ok {
		v, k = x.Y, x.X
	}
	c, ok := k.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return nil, 0, false
	}
	l := b.acquiredBy(v)
	if l == nil || l.Claim != SQLRowClaim {
		return nil, 0, false
	}
	zero := constant.MakeInt64(0)
	op := x.Op
	if v != x.X {
		op = mirrored(op)
	}
	none, one := constant.Compare(zero, op, c.Value), constant.Compare(constant.MakeInt64(1), op, c.Value)
	switch {
	case none == one:
		return nil, 0, false // the test does not tell a claim from none
	case none:
		return l, 0, true
	}
	return l, 1, true
}

// mirrored returns the operator that holds for (b, a) when op holds for
// (a, b).
func mirrored(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

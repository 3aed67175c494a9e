package lease

import (
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Applications keep leases as rows of a table of their own, claimed by an
// upsert that takes a row over only once its lease has run out, and let go
// by deleting it (ente's task_lock):
//
//	INSERT INTO task_lock (task_name, lock_until, locked_at, locked_by) VALUES ($1, $2, $3, $4)
//	ON CONFLICT (task_name) DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4
//	WHERE task_lock.lock_until < $3
//	...
//	DELETE FROM task_lock WHERE task_name = $1
//
// Such a claim (sqlscan's LeaseClaim) into a table whose name says it
// holds locks or leases (task_lock, leases, leader_election) acquires a
// lease, as pg_try_advisory_lock does: the function that sends it becomes
// a try-acquire for its callers, and what they write after it is under
// the lease. Every statement of the package on a table it claims leases
// in is a lock operation, not a protected write: a DELETE lets the lease
// go, an UPDATE extends it. The name is asked for because an upsert that
// takes a row over once a time has passed is also how caches and
// schedules refresh expired entries, which guard nothing.

// rowLeaseFunc is the name sqlLocks gives a lease row's claim and release.
const rowLeaseFunc = "lease row"

// leaseTableName reports whether a table's name says it holds locks or
// leases: one of its words (split at underscores and case changes) is
// lock, lease, leader, election, mutex or semaphore, singular or plural.
func leaseTableName(table string) bool {
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = table[i+1:]
	}
	for _, w := range tableWords(table) {
		switch strings.TrimSuffix(strings.TrimSuffix(w, "es"), "s") {
		case "lock", "leas", "lease", "leader", "leadership", "election", "mutex", "semaphor", "semaphore":
			return true
		}
	}
	return false
}

// tableWords splits a table name into its lower-case words.
func tableWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '"' || r == '`':
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// claimsLeaseRow reports whether st claims a lease row (see above).
func claimsLeaseRow(st *sqlscan.Statement) bool {
	return st.LeaseClaim && leaseTableName(st.Table)
}

// leaseTables returns the tables the package claims lease rows in, read
// once from every SQL text it sends.
func (b *builder) leaseTables() map[string]bool {
	if b.rowLeaseTables != nil {
		return b.rowLeaseTables
	}
	b.rowLeaseTables = make(map[string]bool)
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		c, ok := b.resolve(call.Common())
		if !ok || !sendsSQL(c.api) {
			return true
		}
		texts, _ := b.callTexts(call.Common(), c.api)
		for _, text := range texts {
			script := b.parseSQL(text.text, c.api.System)
			for i := range script.Statements {
				if st := &script.Statements[i]; claimsLeaseRow(st) {
					b.rowLeaseTables[normalTable(st.Table)] = true
				}
			}
		}
		return true
	})
	return b.rowLeaseTables
}

// onLeaseTable reports whether st writes a table the package claims lease
// rows in, or claims one itself: a lock operation.
func (b *builder) onLeaseTable(st *sqlscan.Statement) bool {
	return st.Writes && (claimsLeaseRow(st) || b.leaseTables()[normalTable(st.Table)])
}

// normalTable is a table's name as leaseTables keys it.
func normalTable(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, `"`, ""))
}

// rowLeaseWhat names the lease a row of table holds.
func rowLeaseWhat(table string) string {
	return "the lease row in " + table
}

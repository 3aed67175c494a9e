package lease

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Advisory locks are taken with SQL in every form a write is: constant
// text, text folded from fragments, text chosen in branches (q :=
// "SELECT pg_try_advisory_lock($1)"; if mysql { q = "SELECT GET_LOCK(?, 10)"
// }), named queries of embedded files (dotsql's Exec(db, "lock-job", id)),
// builder chains. sqlLocksOf reads a call's SQL once, along each path.

// sqlLocks is what the SQL a call sends does to advisory locks.
type sqlLocks struct {
	// acquire is the lock function the text calls on every path
	// ("pg_try_advisory_lock", "get_lock"), or "" when some path takes
	// none: a lease is held after the call only if every path takes one.
	acquire string
	// releases are the unlock functions some path calls: after the call
	// the lease may be gone.
	releases []string
	// writes says some path writes table data, other than the lease
	// rows of a lock table (leaserows.go).
	writes bool
}

// sqlLocksOf reads the SQL that c, a call of a SQL API, sends.
func (b *builder) sqlLocksOf(c *ssa.CallCommon, api *API) sqlLocks {
	if l, ok := b.sqlLockCache[c]; ok {
		return l
	}
	var l sqlLocks
	texts, ok := b.callTexts(c, api)
	every := ok
	for _, text := range texts {
		script := b.parseSQL(text.text, api.System)
		if script.Unknown {
			every = false
			continue
		}
		acquire := ""
		for _, st := range script.Statements {
			if b.onLeaseTable(&st) {
				continue // a lease row's claim, renewal or release (leaserows.go)
			}
			l.writes = l.writes || st.Writes
			for _, fc := range st.Calls {
				switch fc.Name {
				case "pg_advisory_lock", "pg_try_advisory_lock", "get_lock", "pg_advisory_xact_lock", "pg_try_advisory_xact_lock":
					if acquire == "" {
						acquire = fc.Name
					}
				case "pg_advisory_unlock", "pg_advisory_unlock_all", "release_lock", "release_all_locks":
					if !slices.Contains(l.releases, fc.Name) {
						l.releases = append(l.releases, fc.Name)
					}
				}
			}
		}
		if acquire == "" {
			every = false
		} else if l.acquire == "" {
			l.acquire = acquire
		}
	}
	if !every {
		l.acquire = ""
	}
	b.sqlLockCache[c] = l
	return l
}

// callTexts returns the SQL texts a call of a SQL API may send, one per
// path through the branches that choose it; a named query is looked up
// among the package's embedded files.
func (b *builder) callTexts(c *ssa.CallCommon, api *API) ([]sqlText, bool) {
	if api.Fence == SQLNamed {
		name, ok := constString(arg(c, api.Arg))
		if !ok {
			return nil, false
		}
		text, ok := b.namedQuery(name)
		return []sqlText{{text: text}}, ok
	}
	f, isHelper := b.helperFact(c)
	if isHelper && f.Each { // a list of statements: not read for locks
		return nil, false
	}
	q := sqlQueryValue(c, api)
	if texts, ok := b.queryTexts(c, q); ok {
		return texts, true
	}
	if isHelper && f.Format > 0 {
		return nil, false
	}
	text, ok := b.sqlText(q) // too many paths: one text, with holes where they differ
	return []sqlText{text}, ok
}

// sendsSQL reports whether a catalog row sends SQL text a lock may be
// taken with.
func sendsSQL(api *API) bool {
	return api != nil && (api.Fence == SQLQuery || api.Fence == SQLBuilder || api.Fence == SQLNamed)
}

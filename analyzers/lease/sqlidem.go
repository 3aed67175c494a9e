package lease

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// Writes that need no fencing token, by documented rules (unfencedwrite's
// -explain states them; sqlscan reads the shapes):
//   - an INSERT that only creates a row that is not there (ON CONFLICT DO
//     NOTHING, INSERT IGNORE, INSERT ... WHERE NOT EXISTS a row with the
//     same key) is idempotent: a stale holder's copy changes nothing;
//   - an UPDATE with optimistic concurrency (SET version = version + 1
//     WHERE ... AND version = $n) is a compare-and-set when the version
//     was read in the same function while the lease was held and the
//     rows-affected count is checked;
//   - a DELETE of rows selected only by age or expiry is idempotent:
//     what expired stays expired;
//   - a write to the database server's own schemas (MySQL's
//     performance_schema, mysql and sys; PostgreSQL's pg_catalog) sets up
//     the server, not data a lease guards.

// unfencedOK says why a writing statement is safe without a fence: its
// rule, and whether the write must still check its rows-affected count.
// rule is "" when no rule applies.
func (b *builder) unfencedOK(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) (rule string, check bool) {
	if writesInWith(st) {
		return "", false
	}
	switch {
	case st.Conflict == "DO NOTHING" || st.Conflict == "IGNORE" || st.Conflict == "NOT EXISTS":
		return "insert-if-absent", false
	case len(st.Versions) > 0 && b.versionReadHere(st.Versions, text, args, argsKnown, call):
		return "optimistic concurrency", true
	case st.Expiry && agesAreTimes(st.AgeParams, text, args, argsKnown):
		return "delete by age", false
	case serverSchema(st.Table):
		return "server configuration", false
	}
	return "", false
}

// serverSchema reports whether table, schema-qualified as written, lives
// in a schema the database server keeps for itself.
func serverSchema(table string) bool {
	schema, _, ok := strings.Cut(strings.ToLower(table), ".")
	if !ok {
		return false
	}
	switch schema {
	case "performance_schema", "mysql", "sys", "pg_catalog":
		return true
	}
	return false
}

// writesInWith reports a data-modifying WITH clause, which the rules do
// not cover.
func writesInWith(st *sqlscan.Statement) bool {
	for i := range st.With {
		if st.With[i].Writes {
			return true
		}
	}
	return false
}

// boundValue returns the Go value bound to placeholder p, or nil.
func boundValue(p sqlscan.Param, text sqlText, args []ssa.Value, argsKnown bool) ssa.Value {
	if p.Style == sqlscan.Hole {
		return text.holeValue(p)
	}
	if !argsKnown {
		return nil
	}
	i, name := sqlscan.ArgIndex(p)
	if name != "" {
		return namedArg(args, name)
	}
	if i >= 0 && i < len(args) {
		return args[i]
	}
	return nil
}

// versionReadHere reports whether a version compared by the statement was
// read from the store in the function that writes, while the same leases
// were held: the write is then a compare-and-set on what this holder saw.
func (b *builder) versionReadHere(versions []sqlscan.Fence, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) bool {
	for _, v := range versions {
		read := readBy(boundValue(v.Token, text, args, argsKnown), call.Parent())
		if read != nil && (b.regions == nil || len(b.heldBefore(read)) > 0 || len(b.heldBefore(call)) == 0) {
			return true
		}
	}
	return false
}

// readBy returns the call in fn that produced v, a value read from a store:
// the result of a call (a sqlc Get, a row struct) or one of its fields, or
// a variable filled by Scan.
func readBy(v ssa.Value, fn *ssa.Function) ssa.Instruction {
	for depth := 0; v != nil && depth < 6; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Call:
			return sameFunc(x, fn)
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return sameFunc(c, fn)
			}
			return nil
		case *ssa.Field:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.UnOp:
			for _, c := range callsTaking(x.X) { // row.Scan(&version), rows.Scan(&d.Version)
				if f := calleeFunc(c.Common()); f != nil && strings.HasPrefix(f.Name(), "Scan") {
					return sameFunc(c, fn)
				}
			}
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				if _, isAlloc := fa.X.(*ssa.Alloc); isAlloc {
					v = fa.X // a struct whose address was scanned into or filled by a call
					for _, c := range callsTaking(fa.X) {
						if f := calleeFunc(c.Common()); f != nil && (strings.HasPrefix(f.Name(), "Scan") || strings.HasPrefix(f.Name(), "Get")) {
							return sameFunc(c, fn)
						}
					}
					return nil
				}
				v = fa.X
				continue
			}
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

// sameFunc returns call if it is in fn (or a closure of it).
func sameFunc(call *ssa.Call, fn *ssa.Function) ssa.Instruction {
	if call.Parent() != nil && outermost(call.Parent()) == outermost(fn) {
		return call
	}
	return nil
}

// agesAreTimes reports whether every placeholder a DELETE by age compares
// with is bound to a time: a time.Time, or a Unix time read from one.
func agesAreTimes(params []sqlscan.Param, text sqlText, args []ssa.Value, argsKnown bool) bool {
	for _, p := range params {
		v := boundValue(p, text, args, argsKnown)
		if v == nil || !isTime(v) {
			return false
		}
	}
	return true
}

// isTime reports whether v is a time.Time or the Unix time of one.
func isTime(v ssa.Value) bool {
	v = unwrap(v)
	if isNamed(v.Type(), "time", "Time") {
		return true
	}
	if p := producer(v); p != nil {
		if f := calleeFunc(p.Common()); f != nil && strings.HasPrefix(f.Name(), "Unix") && recvType(f) != nil && isNamed(recvType(f), "time", "Time") {
			return true
		}
	}
	return false
}

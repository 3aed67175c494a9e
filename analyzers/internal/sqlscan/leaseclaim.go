package sqlscan

import "strings"

// leaseClaim reads the WHERE clause [lo, hi) of an upsert's DO UPDATE: a
// claim of a lease row when one of its conditions (ANDed, or ORed with
// "it is ours") takes the row over only once a column of it has passed a
// point in time the statement names (lock_until < now(), lock_until <
// $3), and that column is not set to that same point (which would make it
// a last-writer-wins upsert by timestamp, updated_at < $3 with updated_at
// = $3):
//
//	INSERT INTO task_lock (task_name, lock_until, locked_at, locked_by) VALUES ($1, $2, $3, $4)
//	ON CONFLICT (task_name) DO UPDATE SET lock_until = $2, locked_at = $3, locked_by = $4
//	WHERE task_lock.lock_until < $3
func (s *stmt) leaseClaim(lo, hi int, set []Assign) (Param, bool) {
	for _, part := range s.claimParts(lo, hi) {
		op, at, ok := s.comparison(part[0], part[1])
		if !ok || op != "<" && op != "<=" {
			continue
		}
		col, _, ok := s.column(part[0], at)
		if !ok {
			continue
		}
		when, ok := s.timeOperand(at+1, part[1])
		if !ok {
			continue
		}
		if !when.IsZero() && assignsParam(set, col, when) {
			continue
		}
		return when, true
	}
	return Param{}, false
}

// claimParts returns the ANDed conditions of [lo, hi) and, in each, the
// ORed ones.
func (s *stmt) claimParts(lo, hi int) [][2]int {
	var out [][2]int
	start := lo
	for _, at := range append(s.splitBool(lo, hi, "AND"), hi) {
		plo, phi := s.strip(start, at)
		inner := plo
		for _, or := range append(s.splitBool(plo, phi, "OR"), phi) {
			olo, ohi := s.strip(inner, or)
			out = append(out, [2]int{olo, ohi})
			inner = or + 1
		}
		start = at + 1
	}
	return out
}

// assignsParam reports whether set assigns p to col.
func assignsParam(set []Assign, col string, p Param) bool {
	for _, a := range set {
		if strings.EqualFold(a.Column, col) && a.Value.Same(p) {
			return true
		}
	}
	return false
}

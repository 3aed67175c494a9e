package sqlscan

import (
	"slices"
	"strings"
)

// claims records the columns an UPDATE's SET (or an upsert's DO UPDATE
// SET) in [set, end) assigns whose old value its condition [wlo, whi)
// requires to be below a bound other than the value assigned: how a lease
// row is taken over once it has run out,
//
//	... DO UPDATE SET lock_until = $2, locked_by = $4 WHERE task_lock.lock_until < $3
//	UPDATE leader SET holder = $1, expires_at = now() + interval '15 seconds'
//	WHERE name = $2 AND (expires_at < now() OR holder = $1)
//
// A comparison counts under AND and OR alike (the holder's own renewal
// is often ORed in), not under NOT. A fence writes the very value it
// compares with (SET fence = $2 WHERE fence < $2; SET fence =
// EXCLUDED.fence WHERE t.fence < EXCLUDED.fence) and is no claim.
func (s *stmt) claims(set, end, wlo, whi int) {
	assigned := make(map[string][2]int)
	var cols []string
	for _, part := range s.split(set, end) {
		eq := s.equals(part[0], part[1])
		if eq >= part[1] {
			continue
		}
		if col, _, ok := s.column(part[0], eq); ok {
			assigned[strings.ToLower(col)] = [2]int{eq + 1, part[1]}
			cols = append(cols, col)
		}
	}
	var out []string
	s.upperBounded(s.parseOr(wlo, whi), func(col string, lo, hi int) {
		v, ok := assigned[strings.ToLower(col)]
		if ok && !s.sameExpr(v[0], v[1], lo, hi) && !slices.Contains(out, col) {
			out = append(out, col)
		}
	})
	if len(out) > 0 {
		s.st.Claims, s.st.Claimed = out, cols
	}
}

// upperBounded calls found for each comparison in c, under its ANDs and
// ORs, that holds a target column below a bound: col < bound, col <=
// bound, bound > col, bound >= col, with the bound's token range.
func (s *stmt) upperBounded(c cond, found func(col string, lo, hi int)) {
	switch c.op {
	case '&', '|':
		for _, k := range c.kids {
			s.upperBounded(k, found)
		}
		return
	case '!':
		return
	}
	op, at, ok := s.comparison(c.lo, c.hi)
	if !ok {
		return
	}
	lo, hi := s.strip(c.lo, c.hi)
	switch op {
	case "<", "<=":
		if col, _, ok := s.column(lo, at); ok {
			found(col, at+1, hi)
		}
	case ">", ">=":
		if col, _, ok := s.column(at+1, hi); ok {
			found(col, lo, at)
		}
	}
}

// sameExpr reports whether [alo, ahi) and [blo, bhi) spell the same
// expression: the same words, ignoring case, and the same placeholders.
func (s *stmt) sameExpr(alo, ahi, blo, bhi int) bool {
	alo, ahi = s.strip(alo, ahi)
	blo, bhi = s.strip(blo, bhi)
	if ahi-alo != bhi-blo {
		return false
	}
	for i := range ahi - alo {
		a, b := &s.toks[alo+i], &s.toks[blo+i]
		if a.kind != b.kind {
			return false
		}
		if a.kind == tParam {
			if !a.param().Same(b.param()) {
				return false
			}
			continue
		}
		if !strings.EqualFold(a.text, b.text) {
			return false
		}
	}
	return true
}

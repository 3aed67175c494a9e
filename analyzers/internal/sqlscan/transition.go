package sqlscan

import (
	"slices"
	"strings"
)

// A Transition is an UPDATE that moves a column from one of the values its
// WHERE clause requires to the value it sets: a compare-and-set on the
// row's state (UPDATE volumes SET state = 'created' WHERE id = $1 AND
// state IN ('creating', 'created')).
type Transition struct {
	// Column is the column set and compared, unquoted and unqualified.
	Column string
	// To is the value set; From the values the WHERE clause requires,
	// through =, IN (...) or equalities ORed on the one column.
	To   Operand
	From []Operand
	// Alone reports that Column is the only column the UPDATE sets.
	Alone bool
	// Stamps reports that the UPDATE sets other columns, each stamped
	// with the store's clock (updated_at = now()): no value of the
	// writer's goes into the row but the state.
	Stamps bool
	// Keyed reports that another ANDed condition pins the rows by a
	// column other than Column (id = $1, id IN ($1, $2)): the rows the
	// writer saw, not whichever rows hold the state when it writes.
	Keyed bool
	// Aged reports that every other ANDed condition selects the rows by
	// age (last_heartbeat < $2, updated_at < now() - interval '5
	// minutes'), as an expiry does: an older bound selects only rows that
	// are older still. AgeParams lists the placeholders compared with,
	// which the caller must check carry a time.
	Aged      bool
	AgeParams []Param
}

// An Operand is a placeholder or a literal.
type Operand struct {
	Param   Param  // the placeholder, or zero
	Literal string // the literal as written ('created', 42), or ""
}

// transition records the state transition of an UPDATE whose SET list is
// [set, end) and WHERE clause [wlo, whi), if it has one. A WHERE clause
// with a top-level OR, or a value compared with NOT IN or <>, is none.
func (s *stmt) transition(set, end, wlo, whi int) {
	sets := s.split(set, end)
	to := make(map[string]Operand)
	for _, part := range sets {
		eq := s.equals(part[0], part[1])
		col, _, ok := s.column(part[0], eq)
		if !ok || eq >= part[1] {
			continue
		}
		if op, ok := s.operand(eq+1, part[1]); ok {
			to[strings.ToLower(col)] = op
		}
	}
	if len(to) == 0 {
		return
	}
	parts := s.conjuncts(wlo, whi, 0)
	for i, part := range parts {
		col, from, ok := s.oneOf(part[0], part[1])
		if !ok {
			continue
		}
		op, set := to[strings.ToLower(col)]
		if !set {
			continue
		}
		tr := &Transition{Column: col, To: op, From: from, Alone: len(sets) == 1, Stamps: len(sets) > 1 && s.stampsOnly(sets, col)}
		for j, other := range parts {
			if key, _, ok := s.oneOf(other[0], other[1]); ok && j != i && !strings.EqualFold(key, col) {
				tr.Keyed = true
			}
		}
		tr.Aged, tr.AgeParams = s.agedOthers(parts, i)
		s.st.Transition = tr
		return
	}
}

// agedOthers reports whether the conjuncts but parts[skip] are all
// comparisons by age (byAge), and there is one at least, with the
// placeholders they compare with.
func (s *stmt) agedOthers(parts [][2]int, skip int) (bool, []Param) {
	var params []Param
	for j, part := range parts {
		if j == skip {
			continue
		}
		p, open, ok := s.byAge(part[0], part[1], 0)
		if !ok || len(open) > 0 {
			return false, nil
		}
		params = append(params, p...)
	}
	return len(parts) > 1, params
}

// conjuncts returns the ANDed parts of [lo, hi), entering parentheses
// around ANDed parts ((id = $1 AND (state = $2 OR state = $3)), as query
// builders write), or nil when the condition has a top-level OR.
func (s *stmt) conjuncts(lo, hi, depth int) [][2]int {
	var out [][2]int
	for _, part := range s.andParts(lo, hi) {
		plo, phi := s.strip(part[0], part[1])
		if (plo != part[0] || phi != part[1]) && depth < 4 {
			if inner := s.conjuncts(plo, phi, depth+1); len(inner) > 1 {
				out = append(out, inner...)
				continue
			}
		}
		out = append(out, [2]int{plo, phi})
	}
	return out
}

// oneOf reads a condition in [lo, hi) that requires one column to hold one
// of some values: col = v, v = col, col IN (v, ...), or col = v OR col = w
// ... on the same column.
func (s *stmt) oneOf(lo, hi int) (col string, values []Operand, ok bool) {
	lo, hi = s.strip(lo, hi)
	if ors := s.splitBool(lo, hi, "OR"); len(ors) > 0 {
		start := lo
		for _, at := range append(ors, hi) {
			c, v, ok := s.oneOf(start, at)
			if !ok || col != "" && !strings.EqualFold(c, col) {
				return "", nil, false
			}
			col, values = c, append(values, v...)
			start = at + 1
		}
		return col, values, true
	}
	if in := s.find(lo, hi, "IN"); in < hi {
		c, _, ok := s.column(lo, in)
		if !ok || in+1 >= hi || s.toks[in+1].kind != tLParen || s.closeOf(in+1) != hi-1 || s.word(in+2, "SELECT") {
			return "", nil, false
		}
		for _, p := range s.split(in+2, hi-1) {
			op, ok := s.operand(p[0], p[1])
			if !ok {
				return "", nil, false
			}
			values = append(values, op)
		}
		return c, values, len(values) > 0
	}
	op, at, ok := s.comparison(lo, hi)
	if !ok || op != "=" {
		return "", nil, false
	}
	if c, _, ok := s.column(lo, at); ok {
		if v, ok := s.operand(at+1, hi); ok {
			return c, []Operand{v}, true
		}
	}
	if c, _, ok := s.column(at+1, hi); ok {
		if v, ok := s.operand(lo, at); ok {
			return c, []Operand{v}, true
		}
	}
	return "", nil, false
}

// operand reads [lo, hi) as a single placeholder or literal.
func (s *stmt) operand(lo, hi int) (Operand, bool) {
	lo, hi = s.strip(lo, hi)
	if hi-lo != 1 {
		return Operand{}, false
	}
	switch t := &s.toks[lo]; t.kind {
	case tParam:
		return Operand{Param: t.param()}, true
	case tNumber, tString:
		return Operand{Literal: t.text}, true
	case tWord:
		if t.is("TRUE") || t.is("FALSE") {
			return Operand{Literal: strings.ToUpper(t.text)}, true
		}
	}
	return Operand{}, false
}

// flags records, for a one-table UPDATE whose SET list [set, end) gives
// every column one placeholder or literal and whose WHERE clause [wlo,
// whi) only holds columns to values, ANDed, the assignments (Sets) and
// the conditions (Where).
func (s *stmt) flags(set, end, wlo, whi int) {
	var sets, where []Pin
	for _, part := range s.split(set, end) {
		eq := s.equals(part[0], part[1])
		col, _, ok := s.column(part[0], eq)
		if !ok || eq >= part[1] {
			return
		}
		op, ok := s.operand(eq+1, part[1])
		if !ok {
			return
		}
		sets = append(sets, Pin{col, []Operand{op}})
	}
	where = s.wherePins(wlo, whi)
	if len(sets) > 0 && len(where) > 0 {
		s.st.Sets, s.st.Where = sets, where
	}
}

// wherePins returns the conditions of a WHERE clause [wlo, whi) that only
// holds columns to values, ANDed, or nil.
func (s *stmt) wherePins(wlo, whi int) []Pin {
	var where []Pin
	for _, part := range s.conjuncts(wlo, whi, 0) {
		col, values, ok := s.oneOf(part[0], part[1])
		if !ok {
			return nil
		}
		where = append(where, Pin{col, values})
	}
	return where
}

// stampsOnly reports whether every assignment of sets but the one to col
// stamps its column with the store's clock and binds nothing.
func (s *stmt) stampsOnly(sets [][2]int, col string) bool {
	for _, part := range sets {
		eq := s.equals(part[0], part[1])
		if c, _, ok := s.column(part[0], eq); ok && strings.EqualFold(c, col) {
			continue
		}
		if eq >= part[1] {
			return false
		}
		if p, clock := s.timeOperand(eq+1, part[1]); !clock || !p.IsZero() {
			return false
		}
	}
	return true
}

// A Pin is a condition of a DELETE that holds one column to one of some
// values (id = $1, status IN ('PENDING_DELETE', 'DELETED')).
type Pin struct {
	Column string // unquoted and unqualified
	Values []Operand
}

// pins records the Pins of a one-table DELETE whose WHERE clause [wlo,
// whi) is two or more of them ANDed, on distinct columns, and nothing else.
func (s *stmt) pins(wlo, whi int) {
	var pins []Pin
	for _, part := range s.conjuncts(wlo, whi, 0) {
		col, values, ok := s.oneOf(part[0], part[1])
		if !ok || slices.ContainsFunc(pins, func(p Pin) bool { return strings.EqualFold(p.Column, col) }) {
			return
		}
		pins = append(pins, Pin{col, values})
	}
	if len(pins) >= 2 {
		s.st.Pins = pins
	}
}

// derived records whether a joined UPDATE with SET list [set, end) and
// WHERE clause [wlo, whi) is Derived.
func (s *stmt) derived(set, end, wlo, whi int) {
	if len(s.st.Params) > 0 {
		return
	}
	for _, part := range s.split(set, end) {
		eq := s.equals(part[0], part[1])
		if eq >= part[1] || !s.storeValue(eq+1, part[1]) {
			return
		}
	}
	filtered := false
	for _, part := range s.conjuncts(wlo, whi, 0) {
		filtered = filtered || s.othersOnly(part[0], part[1])
	}
	s.st.Derived = filtered
}

// reset records whether an UPDATE of every row with SET list [set, end)
// is a Reset: no placeholder, and 0 for each column.
func (s *stmt) reset(set, end int) {
	if len(s.st.Params) > 0 || len(s.st.Open) > 0 {
		return
	}
	parts := s.split(set, end)
	for _, part := range parts {
		eq := s.equals(part[0], part[1])
		if eq >= part[1] {
			return
		}
		lo, hi := s.strip(eq+1, part[1])
		if hi-lo != 1 {
			return
		}
		if t := &s.toks[lo]; t.kind != tNumber || strings.Trim(t.text, "0.") != "" {
			return
		}
	}
	s.st.Reset = len(parts) > 0
}

// storeValue reports whether [lo, hi) is a value the store has without the
// writer: a literal, a column of another table, or a reading of the clock.
func (s *stmt) storeValue(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	if hi-lo == 1 {
		t := &s.toks[lo]
		return t.kind == tString || t.kind == tNumber || t.kind == tWord && literalWord(t)
	}
	if s.isOtherColumn(lo, hi) {
		return true
	}
	p, clock := s.timeOperand(lo, hi)
	return clock && p.IsZero()
}

// othersOnly reports whether the condition [lo, hi) names columns of other
// tables than the target, qualified, and no column of the target nor one
// it does not qualify.
func (s *stmt) othersOnly(lo, hi int) bool {
	other := false
	for i := lo; i < hi; i++ {
		t := &s.toks[i]
		switch {
		case !t.isName() || t.kind == tWord && (literalWord(t) || condWord(t.text) || bareFunc(t.text)):
		case i+1 < hi && s.toks[i+1].kind == tLParen: // a function
		case i+2 < hi && s.toks[i+1].kind == tDot && s.toks[i+2].isName():
			if s.isTarget(t.text) {
				return false
			}
			other = true
			i += 2
		default:
			return false // unqualified: it may be the target's
		}
	}
	return other
}

// condWord reports the keywords a simple condition is written with.
func condWord(w string) bool {
	switch strings.ToUpper(w) {
	case "AND", "OR", "NOT", "IS", "IN", "LIKE", "ILIKE", "BETWEEN", "INTERVAL":
		return true
	}
	return false
}

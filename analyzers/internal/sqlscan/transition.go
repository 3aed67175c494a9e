package sqlscan

import "strings"

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
	// Keyed reports that another ANDed condition pins the rows by a
	// column other than Column (id = $1, id IN ($1, $2)): the rows the
	// writer saw, not whichever rows hold the state when it writes.
	Keyed bool
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
		tr := &Transition{Column: col, To: op, From: from, Alone: len(sets) == 1}
		for j, other := range parts {
			if key, _, ok := s.oneOf(other[0], other[1]); ok && j != i && !strings.EqualFold(key, col) {
				tr.Keyed = true
			}
		}
		s.st.Transition = tr
		return
	}
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
	}
	return Operand{}, false
}

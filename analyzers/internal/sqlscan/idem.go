package sqlscan

import (
	"slices"
	"strconv"
	"strings"
)

// Writes that a stale holder cannot make harmful without a fence, by rules
// the lease model documents (unfencedwrite's -explain):
//   - INSERT ... ON CONFLICT DO NOTHING, INSERT IGNORE, and INSERT ...
//     SELECT ... WHERE NOT EXISTS (a row of the target with the same key):
//     they only create a row that is not there (Conflict);
//   - UPDATE ... SET version = version + 1 WHERE ... AND version = $n, or
//     SET version = :version WHERE ... AND version = :version - 1 (the
//     new version passed in): optimistic concurrency, a compare-and-set on
//     the version (Versions);
//   - DELETE whose WHERE selects rows only by age or expiry, directly or
//     through "IN (subquery)" and WITH queries that do, or by age among
//     the rows it pins to values (key = $1 AND expires_at < now()):
//     deleting what has expired twice deletes it once (Expiry);
//   - a soft delete by age, UPDATE ... SET deleted_at = now() WHERE
//     deleted_at IS NULL AND <by age>, as ORMs send for a delete of a
//     model with a deletion stamp: stamping what has expired twice stamps
//     it once (Expiry too).

// andParts returns the top-level AND parts of [lo, hi), or nil if the
// condition has a top-level OR.
func (s *stmt) andParts(lo, hi int) [][2]int {
	if lo >= hi || len(s.splitBool(lo, hi, "OR")) > 0 {
		return nil
	}
	var parts [][2]int
	start := lo
	for _, at := range s.splitBool(lo, hi, "AND") {
		parts = append(parts, [2]int{start, at})
		start = at + 1
	}
	return append(parts, [2]int{start, hi})
}

// comparison splits a single comparison in [lo, hi) at its operator.
func (s *stmt) comparison(lo, hi int) (op string, at int, ok bool) {
	lo, hi = s.strip(lo, hi)
	at = -1
	for i := lo; i < hi; i = s.skip(i) {
		if t := &s.toks[i]; t.kind == tOp && isComparison(t.text) {
			if at >= 0 {
				return "", 0, false
			}
			at = i
		}
	}
	if at < 0 {
		return "", 0, false
	}
	return s.toks[at].text, at, true
}

// versions records the optimistic-concurrency checks of an UPDATE: a
// column bumped in SET [set, end) and compared for equality in the WHERE
// clause [wlo, whi) with the version the writer holds. The bump is either
// v = v + 1, compared with a placeholder (v = $n), or the new version
// passed in, compared with itself minus a step (SET v = :v ... WHERE v =
// :v - 1, or SET v = $n + 1 ... WHERE v = $n).
func (s *stmt) versions(set, end, wlo, whi int) {
	bumped := make(map[string]bool)
	setTo := make(map[string]offsetParam)
	for _, part := range s.split(set, end) {
		eq := s.equals(part[0], part[1])
		col, _, ok := s.column(part[0], eq)
		if !ok || eq >= part[1] {
			continue
		}
		if s.bumps(col, eq+1, part[1]) {
			bumped[strings.ToLower(col)] = true
		} else if v, ok := s.offsetParam(eq+1, part[1]); ok {
			setTo[strings.ToLower(col)] = v
		}
	}
	if len(bumped) == 0 && len(setTo) == 0 {
		return
	}
	for _, part := range s.andParts(wlo, whi) {
		op, at, ok := s.comparison(part[0], part[1])
		if !ok || op != "=" {
			continue
		}
		col, _, ok := s.column(part[0], at)
		vlo, vhi := at+1, part[1]
		if !ok {
			col, _, ok = s.column(at+1, part[1])
			vlo, vhi = part[0], at
		}
		if !ok {
			continue
		}
		if tok, isTok := s.tokenOperand(vlo, vhi); isTok && !tok.IsZero() && bumped[strings.ToLower(col)] {
			s.st.Versions = append(s.st.Versions, Fence{Column: col, Op: "=", Token: tok, Clause: "WHERE"})
			continue
		}
		now, ok := s.offsetParam(vlo, vhi)
		if next, set := setTo[strings.ToLower(col)]; ok && set && next.param.Same(now.param) && next.offset > now.offset {
			s.st.Versions = append(s.st.Versions, Fence{Column: col, Op: "=", Token: now.param, Clause: "WHERE"})
		}
	}
}

// bounds records the bounded decrements of an UPDATE: every assignment in
// SET [set, end) is c = c - $x, and the WHERE clause [wlo, whi) requires,
// as one of its top-level AND parts, c >= $y (or $y <= c) for each such c.
// Anything else in SET, or a column without its floor, records none.
func (s *stmt) bounds(set, end, wlo, whi int) {
	amounts := make(map[string]Param)
	var cols []string
	for _, part := range s.split(set, end) {
		col, amount, ok := s.decrement(part[0], part[1])
		if !ok {
			return
		}
		amounts[strings.ToLower(col)] = amount
		cols = append(cols, col)
	}
	floors := make(map[string]Param)
	for _, part := range s.andParts(wlo, whi) {
		lo, hi := s.strip(part[0], part[1])
		op, at, ok := s.comparison(lo, hi)
		if !ok {
			continue
		}
		colLo, colHi, valLo, valHi := lo, at, at+1, hi
		if op == "<=" {
			colLo, colHi, valLo, valHi = at+1, hi, lo, at
		} else if op != ">=" {
			continue
		}
		col, _, ok := s.column(colLo, colHi)
		vlo, vhi := s.strip(valLo, valHi)
		if ok && vhi-vlo == 1 && s.toks[vlo].kind == tParam {
			floors[strings.ToLower(col)] = s.toks[vlo].param()
		}
	}
	var bounds []Bound
	for _, col := range cols {
		floor, ok := floors[strings.ToLower(col)]
		if !ok {
			return
		}
		bounds = append(bounds, Bound{Column: col, Amount: amounts[strings.ToLower(col)], Floor: floor})
	}
	s.st.Bounds = bounds
}

// decrement reads one assignment in [lo, hi) as c = c - $x.
func (s *stmt) decrement(lo, hi int) (col string, amount Param, ok bool) {
	eq := s.equals(lo, hi)
	_, col, j, ok := s.name(lo)
	if !ok || j != eq || eq >= hi {
		return "", Param{}, false
	}
	_, self, k, ok := s.name(eq + 1)
	if !ok || !strings.EqualFold(self, col) || k+2 != hi || !s.toks[k].isOp("-") || s.toks[k+1].kind != tParam {
		return "", Param{}, false
	}
	return col, s.toks[k+1].param(), true
}

// An offsetParam is a placeholder plus a constant: $n, :v - 1, ? + 1.
type offsetParam struct {
	param  Param
	offset int64
}

// offsetParam reads [lo, hi) as a placeholder, alone or plus or minus a
// whole number.
func (s *stmt) offsetParam(lo, hi int) (offsetParam, bool) {
	lo, hi = s.strip(lo, hi)
	switch {
	case hi-lo == 1 && s.toks[lo].kind == tParam:
		return offsetParam{param: s.toks[lo].param()}, true
	case hi-lo == 3 && s.toks[lo].kind == tParam && s.toks[lo+2].kind == tNumber:
		n, err := strconv.ParseInt(s.toks[lo+2].text, 10, 64)
		if err != nil {
			return offsetParam{}, false
		}
		switch {
		case s.toks[lo+1].isOp("+"):
			return offsetParam{s.toks[lo].param(), n}, true
		case s.toks[lo+1].isOp("-"):
			return offsetParam{s.toks[lo].param(), -n}, true
		}
	case hi-lo == 3 && s.toks[lo].kind == tNumber && s.toks[lo+1].isOp("+") && s.toks[lo+2].kind == tParam:
		n, err := strconv.ParseInt(s.toks[lo].text, 10, 64)
		if err != nil {
			return offsetParam{}, false
		}
		return offsetParam{s.toks[lo+2].param(), n}, true
	}
	return offsetParam{}, false
}

// bumps reports whether [lo, hi) is "col + n" or "n + col" for a positive
// number n.
func (s *stmt) bumps(col string, lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	if hi-lo < 3 {
		return false
	}
	for i := lo; i < hi; i = s.skip(i) {
		if !s.toks[i].isOp("+") {
			continue
		}
		l, _, lok := s.column(lo, i)
		r, _, rok := s.column(i+1, hi)
		switch {
		case lok && strings.EqualFold(l, col):
			return s.positiveNumber(i+1, hi)
		case rok && strings.EqualFold(r, col):
			return s.positiveNumber(lo, i)
		}
		return false
	}
	return false
}

// positiveNumber reports whether [lo, hi) is a number literal above zero.
func (s *stmt) positiveNumber(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	return hi-lo == 1 && s.toks[lo].kind == tNumber && strings.Trim(s.toks[lo].text, "0._") != ""
}

// expiry reads the WHERE clause [lo, hi) of a DELETE: Expiry if it
// selects rows only by age or expiry, or by age among the rows a key pins
// (WHERE key = $1 AND expires_at IS NOT NULL AND expires_at < now(): the
// server deletes the row only if it is still expired when the statement
// runs, so a stale holder's copy deletes what the next holder's would).
// Holes that stand for a whole condition of a subquery doing the
// selection (WITH rows AS (SELECT ... WHERE <hole>) DELETE ... IN (SELECT
// ... FROM rows)) become Open: what they hold decides whether the delete
// is by age.
func (s *stmt) expiry(lo, hi int) {
	params, open, ok := s.byAge(lo, hi, 0)
	if !ok {
		params, ok = s.pinnedByAge(lo, hi)
	}
	if !ok {
		return
	}
	for _, p := range open {
		if !slices.ContainsFunc(s.st.Open, p.Same) {
			s.st.Open = append(s.st.Open, p)
		}
	}
	if len(open) == 0 {
		s.st.Expiry, s.st.AgeParams = true, params
	}
}

// softDelete reads an UPDATE that only stamps rows deleted: SET [set, end)
// assigns one column the current time (or a placeholder, which the caller
// must check carries a time), and the WHERE clause [wlo, whi) keeps the
// rows that column has not stamped yet (col IS NULL) and otherwise selects
// them by age. Such a soft delete by age is Expiry, as the DELETE is.
func (s *stmt) softDelete(set, end, wlo, whi int) {
	parts := s.split(set, end)
	if len(parts) != 1 {
		return
	}
	lo, hi := parts[0][0], parts[0][1]
	eq := s.equals(lo, hi)
	col, _, ok := s.column(lo, eq)
	if !ok || eq == hi {
		return
	}
	stamp, ok := s.timeOperand(eq+1, hi)
	if !ok {
		return
	}
	var params []Param
	unstamped, aged := false, false
	for _, part := range s.andParts(wlo, whi) {
		if s.isNull(col, part[0], part[1]) {
			unstamped = true
			continue
		}
		p, open, ok := s.byAge(part[0], part[1], 0)
		if !ok || len(open) > 0 {
			return
		}
		params, aged = append(params, p...), true
	}
	if !unstamped || !aged {
		return
	}
	if !stamp.IsZero() {
		params = append(params, stamp)
	}
	s.st.Expiry, s.st.AgeParams = true, params
}

// pinnedByAge reads a condition [lo, hi) whose ANDed parts each pin a
// column to a value (col = $1, col = 'x'), keep a column that is set (col
// IS NOT NULL), or compare a column with a time before it, at least one of
// them. params are the placeholders the age comparisons use.
func (s *stmt) pinnedByAge(lo, hi int) (params []Param, ok bool) {
	aged := false
	for _, part := range s.andParts(lo, hi) {
		if s.pinsValue(part[0], part[1]) || s.isNotNull(part[0], part[1]) {
			continue
		}
		p, ok := s.ageComparison(part[0], part[1], false)
		if !ok {
			return nil, false
		}
		if !p.IsZero() {
			params = append(params, p)
		}
		aged = true
	}
	return params, aged
}

// pinsValue reports whether [lo, hi) is "col = v", v a placeholder or a
// literal.
func (s *stmt) pinsValue(lo, hi int) bool {
	op, at, ok := s.comparison(lo, hi)
	if !ok || op != "=" {
		return false
	}
	if _, _, ok := s.column(lo, at); !ok {
		return false
	}
	v := s.valueAt(at+1, hi)
	return v.literal || !v.param.IsZero()
}

// isNotNull reports whether [lo, hi) is "col IS NOT NULL".
func (s *stmt) isNotNull(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	if hi-lo < 4 || !s.word(hi-3, "IS") || !s.word(hi-2, "NOT") || !s.word(hi-1, "NULL") {
		return false
	}
	_, _, ok := s.column(lo, hi-3)
	return ok
}

// isNull reports whether [lo, hi) is "col IS NULL".
func (s *stmt) isNull(col string, lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	if hi-lo < 3 || !s.word(hi-2, "IS") || !s.word(hi-1, "NULL") {
		return false
	}
	c, _, ok := s.column(lo, hi-2)
	return ok && strings.EqualFold(c, col)
}

// maxAgeDepth bounds the subqueries and WITH queries followed to see how a
// DELETE selects its rows.
const maxAgeDepth = 4

// byAge reads a condition [lo, hi) that selects rows by age: every ANDed
// part compares a column with a time before it (col < now(), col <= now()
// - interval '1 day', now() > col, col < $1), or is "cols IN (subquery)"
// whose subquery selects by age, or (in a subquery) is a hole alone.
// params are the placeholders compared with, which the caller must check
// carry a time; open the holes that stand for whole conditions.
func (s *stmt) byAge(lo, hi, depth int) (params, open []Param, ok bool) {
	parts := s.andParts(lo, hi)
	if len(parts) == 0 {
		return nil, nil, false
	}
	for _, part := range parts {
		plo, phi := s.strip(part[0], part[1])
		switch {
		case plo != part[0] && plo < phi: // (a < now() AND b < now()), as builders write
			p, o, ok := s.byAge(plo, phi, depth)
			if !ok {
				return nil, nil, false
			}
			params, open = append(params, p...), append(open, o...)
		case depth > 0 && phi-plo == 1 && s.isHole(plo):
			open = append(open, s.toks[plo].param())
		default:
			if sub, ok := s.inSubquery(plo, phi); ok {
				p, o, ok := s.selectsByAge(sub[0], sub[1], depth+1)
				if !ok {
					return nil, nil, false
				}
				params, open = append(params, p...), append(open, o...)
				continue
			}
			p, ok := s.ageComparison(plo, phi, depth > 0)
			if !ok {
				return nil, nil, false
			}
			if !p.IsZero() {
				params = append(params, p)
			}
		}
	}
	return params, open, true
}

// ageComparison reads one comparison of a column with a point in time
// before it. A subquery's columns may be qualified by its own tables
// (other true).
func (s *stmt) ageComparison(lo, hi int, other bool) (Param, bool) {
	op, at, ok := s.comparison(lo, hi)
	if !ok {
		return Param{}, false
	}
	isColumn := func(lo, hi int) bool {
		if _, _, ok := s.column(lo, hi); ok {
			return true
		}
		lo, hi = s.strip(lo, hi)
		return other && hi-lo == 3 && s.toks[lo].isName() && s.toks[lo+1].kind == tDot && s.toks[lo+2].isName()
	}
	var tlo, thi int
	switch {
	case (op == "<" || op == "<=") && isColumn(lo, at):
		tlo, thi = at+1, hi
	case (op == ">" || op == ">=") && isColumn(at+1, hi):
		tlo, thi = lo, at
	default:
		return Param{}, false
	}
	return s.timeOperand(tlo, thi)
}

// inSubquery reads "cols IN (SELECT ...)" in [lo, hi) and returns the
// subquery's span. NOT IN selects the other rows: not read.
func (s *stmt) inSubquery(lo, hi int) ([2]int, bool) {
	in := s.find(lo, hi, "IN")
	if in == lo || in+1 >= hi || s.word(in-1, "NOT") || s.toks[in+1].kind != tLParen || s.closeOf(in+1) != hi-1 {
		return [2]int{}, false
	}
	if !s.word(in+2, "SELECT") && !s.word(in+2, "WITH") {
		return [2]int{}, false
	}
	return [2]int{in + 2, hi - 1}, true
}

// selectsByAge reads the query [lo, hi) a DELETE takes its rows from: a
// SELECT from one table or WITH query whose WHERE selects by age, or with
// no WHERE, from a WITH query of the statement that does. LIMIT, ORDER BY
// and GROUP BY choose among those rows and change nothing.
func (s *stmt) selectsByAge(lo, hi, depth int) (params, open []Param, ok bool) {
	if depth > maxAgeDepth || !s.word(lo, "SELECT") ||
		s.find(lo, hi, "UNION", "INTERSECT", "EXCEPT", "JOIN") < hi {
		return nil, nil, false
	}
	from := s.find(lo+1, hi, "FROM")
	full, _, j, ok := s.name(from + 1)
	if from == hi || !ok {
		return nil, nil, false
	}
	where := s.find(j, hi, "WHERE")
	if s.hasComma(j, where) {
		return nil, nil, false // FROM a, b
	}
	if where < hi {
		end := s.find(where+1, hi, "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "FOR", "WINDOW")
		return s.byAge(where+1, end, depth)
	}
	if body, ok := s.ctes[strings.ToLower(full)]; ok {
		return s.selectsByAge(body[0], body[1], depth+1)
	}
	return nil, nil, false
}

// timeOperand recognises a point in time in [lo, hi): an expression over
// the current time (now(), CURRENT_TIMESTAMP, datetime('now'), with
// intervals added or subtracted), or a single placeholder (returned, for
// the caller to check that a time is bound to it).
func (s *stmt) timeOperand(lo, hi int) (Param, bool) {
	lo, hi = s.strip(lo, hi)
	if hi-lo == 1 && s.toks[lo].kind == tParam {
		return s.toks[lo].param(), true
	}
	clock := false
	for i := lo; i < hi; i++ {
		t := &s.toks[i]
		switch {
		case t.kind == tWord && isClock(strings.ToLower(t.text)):
			clock = true
		case t.kind == tString && strings.EqualFold(strings.Trim(t.text, "'"), "now"):
			clock = true
		case t.kind == tParam, t.kind == tSemi:
			return Param{}, false // a placeholder inside: who knows what it is
		}
	}
	return Param{}, clock
}

// isClock reports functions that read the current time.
func isClock(name string) bool {
	switch name {
	case "now", "current_timestamp", "localtimestamp", "current_date", "clock_timestamp",
		"statement_timestamp", "transaction_timestamp", "sysdate", "utc_timestamp", "unix_timestamp",
		"unixepoch", "getdate", "getutcdate":
		return true
	}
	return false
}

// notExists reads INSERT ... SELECT ... WHERE NOT EXISTS (SELECT ... FROM
// target WHERE key = <the inserted key>) in [i, hi): it inserts only when
// no row of the target has the same key. cols are the INSERT's columns.
func (s *stmt) notExists(i, hi int, cols []string) {
	if !s.word(i, "SELECT") {
		return
	}
	from := s.find(i+1, hi, "FROM", "WHERE")
	selected := make(map[string]Param)
	for k, part := range s.split(i+1, from) {
		if v := s.valueAt(part[0], part[1]); !v.param.IsZero() && k < len(cols) && cols[k] != "" {
			selected[strings.ToLower(cols[k])] = v.param
		}
	}
	where := s.find(i+1, hi, "WHERE")
	if where == hi {
		return
	}
	for _, part := range s.andParts(where+1, s.find(where+1, hi, "ON", "RETURNING")) {
		lo := part[0]
		if !s.word(lo, "NOT") || !s.word(lo+1, "EXISTS") || lo+2 >= part[1] || s.toks[lo+2].kind != tLParen {
			continue
		}
		if s.sameKeyExists(lo+3, s.closeOf(lo+2), selected) {
			s.st.Conflict = "NOT EXISTS"
			return
		}
	}
}

// sameKeyExists reads the subquery SELECT ... FROM target WHERE ... in
// [lo, hi) and reports whether it looks for a row of the target with a
// column equal to the value the INSERT puts there.
func (s *stmt) sameKeyExists(lo, hi int, selected map[string]Param) bool {
	from := s.find(lo, hi, "FROM")
	if from == hi {
		return false
	}
	_, last, j, ok := s.name(from + 1)
	if !ok || !strings.EqualFold(last, s.tableLast) {
		return false
	}
	where := s.find(j, hi, "WHERE")
	if where == hi {
		return false
	}
	for _, part := range s.andParts(where+1, hi) {
		op, at, ok := s.comparison(part[0], part[1])
		if !ok || op != "=" {
			continue
		}
		for _, side := range [2][4]int{{part[0], at, at + 1, part[1]}, {at + 1, part[1], part[0], at}} {
			col, ok := s.plainColumn(side[0], side[1])
			v := s.valueAt(side[2], side[3])
			if ok && !v.param.IsZero() && v.param.Same(selected[strings.ToLower(col)]) {
				return true
			}
		}
	}
	return false
}

// plainColumn reads a column name, qualified or not, in [lo, hi).
func (s *stmt) plainColumn(lo, hi int) (string, bool) {
	lo, hi = s.strip(lo, hi)
	_, last, j, ok := s.name(lo)
	return last, ok && j == hi
}

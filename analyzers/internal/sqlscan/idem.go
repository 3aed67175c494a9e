package sqlscan

import "strings"

// Writes that a stale holder cannot make harmful without a fence, by rules
// the lease model documents (unfencedwrite's -explain):
//   - INSERT ... ON CONFLICT DO NOTHING, INSERT IGNORE, and INSERT ...
//     SELECT ... WHERE NOT EXISTS (a row of the target with the same key):
//     they only create a row that is not there (Conflict);
//   - UPDATE ... SET version = version + 1 WHERE ... AND version = $n:
//     optimistic concurrency, a compare-and-set on the version (Versions);
//   - DELETE whose WHERE selects rows only by age or expiry: deleting what
//     has expired twice deletes it once (Expiry).

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
// column bumped in SET [set, end) (v = v + 1) and compared for equality
// with a placeholder in the WHERE clause [wlo, whi).
func (s *stmt) versions(set, end, wlo, whi int) {
	bumped := make(map[string]bool)
	for _, part := range s.split(set, end) {
		eq := s.equals(part[0], part[1])
		col, _, ok := s.column(part[0], eq)
		if ok && eq < part[1] && s.bumps(col, eq+1, part[1]) {
			bumped[strings.ToLower(col)] = true
		}
	}
	if len(bumped) == 0 {
		return
	}
	for _, part := range s.andParts(wlo, whi) {
		op, at, ok := s.comparison(part[0], part[1])
		if !ok || op != "=" {
			continue
		}
		col, _, ok := s.column(part[0], at)
		tok, isTok := s.tokenOperand(at+1, part[1])
		if !ok {
			col, _, ok = s.column(at+1, part[1])
			tok, isTok = s.tokenOperand(part[0], at)
		}
		if ok && isTok && !tok.IsZero() && bumped[strings.ToLower(col)] {
			s.st.Versions = append(s.st.Versions, Fence{Column: col, Op: "=", Token: tok, Clause: "WHERE"})
		}
	}
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

// expiry reads the WHERE clause [lo, hi) of a DELETE: Expiry if every
// ANDed condition selects rows older than a time (col < now(), col <=
// now() - interval '1 day', now() > col, col < $1).
func (s *stmt) expiry(lo, hi int) {
	parts := s.andParts(lo, hi)
	if len(parts) == 0 {
		return
	}
	var params []Param
	for _, part := range parts {
		op, at, ok := s.comparison(part[0], part[1])
		if !ok {
			return
		}
		var tlo, thi int
		switch {
		case op == "<" || op == "<=":
			if _, _, ok := s.column(part[0], at); !ok {
				return
			}
			tlo, thi = at+1, part[1]
		case op == ">" || op == ">=":
			if _, _, ok := s.column(at+1, part[1]); !ok {
				return
			}
			tlo, thi = part[0], at
		default:
			return
		}
		p, ok := s.timeOperand(tlo, thi)
		if !ok {
			return
		}
		if !p.IsZero() {
			params = append(params, p)
		}
	}
	s.st.Expiry, s.st.AgeParams = true, params
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

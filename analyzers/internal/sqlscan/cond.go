package sqlscan

import "strings"

// cond is a boolean expression tree over a token range: AND, OR, NOT, or a
// leaf predicate in [lo, hi).
type cond struct {
	op     byte // '&' AND, '|' OR, '!' NOT, 0 leaf
	kids   []cond
	lo, hi int
}

// fences returns the fences of the condition in [lo, hi).
func (s *stmt) fences(lo, hi int, clause string) []Fence {
	c := s.parseOr(lo, hi)
	fs, _ := s.eval(c, true)
	for i := range fs {
		fs[i].Clause = clause
	}
	return fs
}

// parseOr parses "a OR b OR ..." in [lo, hi).
func (s *stmt) parseOr(lo, hi int) cond {
	return s.parseList(lo, hi, "OR", '|', s.parseAnd)
}

// parseAnd parses "a AND b AND ..." in [lo, hi).
func (s *stmt) parseAnd(lo, hi int) cond {
	return s.parseList(lo, hi, "AND", '&', s.parseNot)
}

// parseList splits [lo, hi) at the top-level keyword kw and parses each
// part with next; one part is returned as is.
func (s *stmt) parseList(lo, hi int, kw string, op byte, next func(lo, hi int) cond) cond {
	var kids []cond
	start := lo
	for _, at := range s.splitBool(lo, hi, kw) {
		kids = append(kids, next(start, at))
		start = at + 1
	}
	kids = append(kids, next(start, hi))
	if len(kids) == 1 {
		return kids[0]
	}
	return cond{op: op, kids: kids, lo: lo, hi: hi}
}

// splitBool returns the indices of the top-level keyword kw (AND or OR) in
// [lo, hi), skipping parentheses, CASE ... END and the AND of BETWEEN.
func (s *stmt) splitBool(lo, hi int, kw string) []int {
	var at []int
	cases, between := 0, 0
	for i := lo; i < hi; {
		t := &s.toks[i]
		switch {
		case t.is("CASE"):
			cases++
		case t.is("END") && cases > 0:
			cases--
		case t.is("BETWEEN"):
			between++
		case cases == 0 && t.is("AND") && between > 0:
			between--
		case cases == 0 && t.is(kw):
			at = append(at, i)
		}
		i = s.skip(i)
	}
	return at
}

// parseNot parses "NOT x" or a primary in [lo, hi).
func (s *stmt) parseNot(lo, hi int) cond {
	if !s.enter() {
		s.leave()
		return cond{lo: lo, hi: lo} // too deep: an empty leaf fences nothing
	}
	defer s.leave()
	if lo < hi && s.toks[lo].is("NOT") {
		return cond{op: '!', kids: []cond{s.parseNot(lo+1, hi)}, lo: lo, hi: hi}
	}
	if lo < hi && s.toks[lo].kind == tLParen && s.closeOf(lo) == hi-1 {
		return s.parseOr(lo+1, hi-1)
	}
	return cond{lo: lo, hi: hi}
}

// eval returns the fences that hold whenever c is true (positive) or false
// (!positive), and the column c tests for NULL, if c is such a test.
func (s *stmt) eval(c cond, positive bool) (fences []Fence, nullCol string) {
	switch {
	case c.op == '!':
		return s.eval(c.kids[0], !positive)
	case c.op == '&' && positive, c.op == '|' && !positive:
		for _, k := range c.kids {
			f, _ := s.eval(k, positive)
			fences = append(fences, f...)
		}
		return fences, ""
	case c.op != 0:
		return s.either(c.kids, positive), ""
	}
	return s.leaf(c.lo, c.hi, positive)
}

// either returns the fences that hold when one of kids holds: that is the
// case only for "col IS NULL OR <fences on col>", which then lets NULL in.
func (s *stmt) either(kids []cond, positive bool) []Fence {
	var fences []Fence
	var nulls []string
	for _, k := range kids {
		f, n := s.eval(k, positive)
		switch {
		case n != "":
			nulls = append(nulls, n)
		case len(f) == 0 || fences != nil:
			return nil // a branch that fences nothing, or two fencing branches
		default:
			fences = f
		}
	}
	for _, n := range nulls {
		hit := false
		for i := range fences {
			if strings.EqualFold(fences[i].Column, n) {
				fences[i].NullOK, hit = true, true
			}
		}
		if !hit {
			return nil
		}
	}
	return fences
}

// leaf reads a predicate in [lo, hi): a NULL test or an ordered comparison
// between a target column and a token.
func (s *stmt) leaf(lo, hi int, positive bool) ([]Fence, string) {
	lo, hi = s.strip(lo, hi)
	s.openLeaf(lo, hi)
	if col, ok := s.nullTest(lo, hi, positive); ok {
		return nil, col
	}
	at := -1
	for i := lo; i < hi; i = s.skip(i) {
		if t := &s.toks[i]; t.kind == tOp && isComparison(t.text) {
			if at >= 0 {
				return nil, "" // a < b < c, a = b < c: not ours
			}
			at = i
		}
	}
	if at < 0 {
		return nil, ""
	}
	op := s.toks[at].text
	if !positive {
		op = negate(op)
	}
	if f, ok := s.compare(lo, at, at+1, hi, op); ok {
		return []Fence{f}, ""
	}
	return nil, ""
}

// isComparison reports comparison operators (only the ordered ones can fence,
// but any of them makes a predicate a single comparison).
func isComparison(op string) bool {
	switch op {
	case "<", "<=", ">", ">=", "=", "==", "<>", "!=", "<=>":
		return true
	}
	return false
}

// negate returns the operator that holds when "a op b" is false (NULLs
// aside: a NULL comparison rejects the row either way).
func negate(op string) string {
	switch op {
	case "<":
		return ">="
	case "<=":
		return ">"
	case ">":
		return "<="
	case ">=":
		return "<"
	}
	return ""
}

// compare builds a fence from "[llo, lhi) op [rlo, rhi)" if one side is a
// target column and the other a token, in the direction that rejects a
// stale token.
func (s *stmt) compare(llo, lhi, rlo, rhi int, op string) (Fence, bool) {
	if col, nullOK, ok := s.column(llo, lhi); ok {
		if tok, ok := s.tokenOperand(rlo, rhi); ok && (op == "<" || op == "<=") {
			return Fence{Column: col, Op: op, Token: tok, NullOK: nullOK}, true
		}
	}
	if col, nullOK, ok := s.column(rlo, rhi); ok {
		if tok, ok := s.tokenOperand(llo, lhi); ok && (op == ">" || op == ">=") {
			return Fence{Column: col, Op: flip(op), Token: tok, NullOK: nullOK}, true
		}
	}
	return Fence{}, false
}

// flip mirrors an operator: "tok > col" is "col < tok".
func flip(op string) string {
	if op == ">" {
		return "<"
	}
	return "<="
}

// nullTest recognises "col IS NULL", "col ISNULL" (and, negated, IS NOT
// NULL / NOTNULL) and returns the column.
func (s *stmt) nullTest(lo, hi int, positive bool) (string, bool) {
	var isNull bool
	var end int
	switch {
	case hi-lo >= 3 && s.toks[hi-2].is("IS") && s.toks[hi-1].is("NULL"):
		isNull, end = true, hi-2
	case hi-lo >= 4 && s.toks[hi-3].is("IS") && s.toks[hi-2].is("NOT") && s.toks[hi-1].is("NULL"):
		isNull, end = false, hi-3
	case hi-lo >= 2 && s.toks[hi-1].is("ISNULL"):
		isNull, end = true, hi-1
	case hi-lo >= 2 && s.toks[hi-1].is("NOTNULL"):
		isNull, end = false, hi-1
	default:
		return "", false
	}
	if isNull != positive {
		return "", false
	}
	col, _, ok := s.column(lo, end)
	return col, ok
}

// strip removes enclosing parentheses and type casts ($2::bigint,
// CAST($2 AS bigint)) around the expression in [lo, hi).
func (s *stmt) strip(lo, hi int) (int, int) {
	for lo < hi {
		switch {
		case s.toks[lo].kind == tLParen && s.closeOf(lo) == hi-1:
			lo, hi = lo+1, hi-1
		case hi-lo >= 4 && s.toks[lo].is("CAST") && s.toks[lo+1].kind == tLParen && s.closeOf(lo+1) == hi-1:
			as := s.find(lo+2, hi-1, "AS")
			if as == hi-1 {
				return lo, hi
			}
			lo, hi = lo+2, as
		default:
			k := s.castAt(lo, hi)
			if k < 0 {
				return lo, hi
			}
			hi = k
		}
	}
	return lo, hi
}

// castAt returns the index of a top-level "::" in [lo, hi) followed only by
// a type name, or -1.
func (s *stmt) castAt(lo, hi int) int {
	k := -1
	for i := lo; i < hi; i = s.skip(i) {
		if s.toks[i].isOp("::") {
			k = i
			break
		}
	}
	if k <= lo {
		return -1
	}
	for i := k + 1; i < hi; i = s.skip(i) {
		switch t := &s.toks[i]; {
		case t.kind == tWord, t.kind == tQIdent, t.kind == tDot, t.kind == tLParen, t.isOp("::"),
			t.isOp("["), t.isOp("]"):
		default:
			return -1
		}
	}
	return k
}

// column recognises a column of the write's target in [lo, hi): col,
// target.col, alias.col, "Col", COALESCE(col, x) / IFNULL(col, x) (which
// let NULL through), possibly cast.
func (s *stmt) column(lo, hi int) (name string, nullOK bool, ok bool) {
	if !s.enter() {
		s.leave()
		return "", false, false
	}
	defer s.leave()
	lo, hi = s.strip(lo, hi)
	if hi-lo >= 4 && s.toks[lo+1].kind == tLParen && s.closeOf(lo+1) == hi-1 &&
		(s.toks[lo].is("COALESCE") || s.toks[lo].is("IFNULL") || s.toks[lo].is("NVL")) {
		args := s.split(lo+2, hi-1)
		if len(args) < 2 {
			return "", false, false
		}
		if v := s.valueAt(args[1][0], args[1][1]); !v.literal {
			return "", false, false
		}
		name, _, ok = s.column(args[0][0], args[0][1])
		return name, true, ok
	}
	switch {
	case hi-lo == 1 && s.toks[lo].isName():
		t := &s.toks[lo]
		if t.kind == tWord && (literalWord(t) || bareFunc(t.text) || strings.HasPrefix(t.text, "@")) {
			return "", false, false
		}
		return t.text, false, true
	case hi-lo == 3 && s.toks[lo].isName() && s.toks[lo+1].kind == tDot && s.toks[lo+2].isName():
		if !s.isTarget(s.toks[lo].text) {
			return "", false, false
		}
		return s.toks[lo+2].text, false, true
	case hi-lo == 5 && s.toks[lo].isName() && s.toks[lo+1].kind == tDot && s.toks[lo+2].isName() &&
		s.toks[lo+3].kind == tDot && s.toks[lo+4].isName():
		if !strings.EqualFold(s.toks[lo].text+"."+s.toks[lo+2].text, s.st.Table) {
			return "", false, false
		}
		return s.toks[lo+4].text, false, true
	}
	return "", false, false
}

// isOtherColumn reports whether [lo, hi) is a column qualified by a table
// other than the target (in UPDATE ... FROM and MERGE ... USING).
func (s *stmt) isOtherColumn(lo, hi int) bool {
	return hi-lo == 3 && s.toks[lo].isName() && s.toks[lo+1].kind == tDot && s.toks[lo+2].isName() &&
		!s.isTarget(s.toks[lo].text)
}

// isTarget reports whether q qualifies a column of the write's target.
func (s *stmt) isTarget(q string) bool {
	if s.alias != "" {
		return strings.EqualFold(q, s.alias)
	}
	return strings.EqualFold(q, s.tableLast) || strings.EqualFold(q, s.st.Table)
}

// tokenOperand recognises the token side of a fence in [lo, hi): a
// placeholder (possibly cast), or a reference to the inserted value
// (EXCLUDED.col, VALUES(col), new.col). A reference to a value that is not
// a placeholder yields the zero Param unless it is a literal.
func (s *stmt) tokenOperand(lo, hi int) (Param, bool) {
	lo, hi = s.strip(lo, hi)
	if hi-lo == 1 && s.toks[lo].kind == tParam {
		return s.toks[lo].param(), true
	}
	if hi-lo == 1 && s.toks[lo].kind == tWord && strings.HasPrefix(s.toks[lo].text, "@") && !strings.HasPrefix(s.toks[lo].text, "@@") {
		// A MySQL user variable: the token came in through an earlier SET.
		return Param{Style: AtName, Name: s.toks[lo].text[1:], Pos: s.toks[lo].pos}, true
	}
	if v, ok := s.insertedRef(lo, hi); ok && !v.literal {
		return v.param, true
	}
	if s.joined && s.isOtherColumn(lo, hi) {
		return Param{}, true // the token comes from a joined row: fenced, untraceable
	}
	return Param{}, false
}

// literalWord reports keywords that are values, not columns.
func literalWord(t *token) bool {
	return t.is("NULL") || t.is("TRUE") || t.is("FALSE") || t.is("DEFAULT") || t.is("UNKNOWN")
}

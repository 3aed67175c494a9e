package sqlscan

import "strconv"

// Holes stand for text the Go program splices into a query at run time:
// `"UPDATE docs SET body = $1 WHERE " + cond`, fmt.Sprintf("... LIMIT %d",
// n). A caller that folds the constant fragments of such a query puts
// HoleMarker(n) where the n-th run-time value goes, and reads the result
// as any query: a hole is lexed as a placeholder of style Hole, so it can
// be a value (and a fence's token), a table name, or, where it stands
// alone as a condition or clause, an Open hole whose content decides what
// the statement does.

// holeByte starts and ends a hole marker. No SQL text contains a NUL byte
// outside a string literal.
const holeByte = 0

// HoleMarker returns the text that marks hole n (n >= 1) in a query.
func HoleMarker(n int) string {
	return string(rune(holeByte)) + "h" + strconv.Itoa(n) + string(rune(holeByte))
}

// holeNumber returns n if s is exactly HoleMarker(n).
func holeNumber(s string) (int, bool) {
	if len(s) < 4 || s[0] != holeByte || s[1] != 'h' || s[len(s)-1] != holeByte {
		return 0, false
	}
	digits := s[2 : len(s)-1]
	for i := 0; i < len(digits); i++ {
		if !isDigit(digits[i]) {
			return 0, false
		}
	}
	return atoi(digits), true
}

// hole reads a hole marker at i, or fails on any other NUL byte.
func (lx *lexer) hole(i int) int {
	src := lx.src
	j := i + 1
	if j >= len(src) || src[j] != 'h' {
		return lx.fail("NUL byte in query")
	}
	j++
	k := j
	for k < len(src) && isDigit(src[k]) {
		k++
	}
	if k == j || k >= len(src) || src[k] != holeByte {
		return lx.fail("NUL byte in query")
	}
	return lx.param(i, k+1, Hole, atoi(src[j:k]))
}

// isHole reports whether the token at i is a hole.
func (s *stmt) isHole(i int) bool {
	return i >= s.lo && i < s.hi && s.toks[i].kind == tParam && s.toks[i].style == Hole
}

// openLeaf records a condition that is a hole alone: WHERE <hole>,
// a AND <hole>.
func (s *stmt) openLeaf(lo, hi int) {
	if hi-lo == 1 && s.isHole(lo) {
		s.st.Open = append(s.st.Open, s.toks[lo].param())
	}
}

// openClauses records the holes at the top level of [lo, hi) that are not
// an operand (no operator on either side): in an UPDATE or DELETE with no
// visible WHERE, such a hole may hold the WHERE clause.
func (s *stmt) openClauses(lo, hi int) {
	for i := lo; i < hi; i = s.skip(i) {
		if !s.isHole(i) {
			continue
		}
		if i > lo && s.toks[i-1].kind == tOp || i+1 < hi && s.toks[i+1].kind == tOp {
			continue
		}
		s.st.Open = append(s.st.Open, s.toks[i].param())
	}
}

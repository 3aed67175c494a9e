package sqlscan_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// FuzzParse checks that Parse never panics and that what it reports points
// into the query consistently, for every dialect.
func FuzzParse(f *testing.F) {
	for _, c := range parseCases() {
		f.Add(c.query, uint8(c.dialect))
	}
	for _, q := range []string{"$$", "$a$ $a", "/* /* */", "'\\'", "E'\\", "@@", "?1?2", "((((", "))))",
		"WITH a AS (WITH b AS (UPDATE t SET x=1) SELECT 1) SELECT 1", "x::", "INSERT INTO t (a) VALUES (",
		"UPDATE t SET a = IF(IF(x < ?, 1, 2) < ?, 1, 2)", "-- name: X :exec\n"} {
		f.Add(q, uint8(0))
	}
	f.Fuzz(func(t *testing.T, q string, d uint8) {
		s := sqlscan.ParseDialect(q, sqlscan.Dialect(d%4))
		checkScript(t, q, s)
	})
}

// checkScript verifies the invariants of a parsed script.
func checkScript(t *testing.T, q string, s *sqlscan.Script) {
	t.Helper()
	if s.Unknown != (s.Problem != "") {
		t.Fatalf("Unknown %v with Problem %q", s.Unknown, s.Problem)
	}
	sigils := map[sqlscan.ParamStyle]string{sqlscan.Dollar: "$", sqlscan.Question: "?", sqlscan.QuestionNum: "?",
		sqlscan.AtName: "@", sqlscan.ColonName: ":", sqlscan.DollarName: "$"}
	for _, p := range s.Params {
		if p.Pos < 0 || p.Pos >= len(q) || !strings.HasPrefix(q[p.Pos:], sigils[p.Style]) {
			t.Fatalf("param %v at %d does not point at its sigil in %q", p, p.Pos, q)
		}
	}
	n, prevEnd := 0, 0
	for _, st := range s.Statements {
		if st.Pos < prevEnd || st.End < st.Pos || st.End > len(q) {
			t.Fatalf("statement span [%d, %d) after %d in a query of %d bytes", st.Pos, st.End, prevEnd, len(q))
		}
		prevEnd = st.End
		if st.Unknown && !s.Unknown || st.Unknown != (st.Problem != "") {
			t.Fatalf("statement Unknown %v (%q) in a script Unknown %v", st.Unknown, st.Problem, s.Unknown)
		}
		n += len(st.Params)
		checkStatement(t, q, st, s.Params)
	}
	if n != len(s.Params) {
		t.Fatalf("statements hold %d params, script %d", n, len(s.Params))
	}
}

// checkStatement verifies that fences and stored values name placeholders
// of the statement and that fences use the two fencing operators.
func checkStatement(t *testing.T, q string, st sqlscan.Statement, script []sqlscan.Param) {
	t.Helper()
	has := func(p sqlscan.Param) bool {
		for _, x := range script {
			if x == p {
				return true
			}
		}
		return p.IsZero()
	}
	for _, f := range st.Fences {
		if f.Op != "<" && f.Op != "<=" || f.Column == "" || !has(f.Token) && f.Token.Style != sqlscan.AtName {
			t.Fatalf("bad fence %+v in %q", f, q)
		}
	}
	for _, a := range st.Stored {
		if a.Value.IsZero() || !has(a.Value) {
			t.Fatalf("bad stored %+v in %q", a, q)
		}
	}
	for _, c := range st.Calls {
		if sqlscan.KnownFunc(c.Name) == sqlscan.RoleNone {
			t.Fatalf("unknown call %q reported", c.Name)
		}
	}
	for _, w := range st.With {
		if !w.Writes {
			t.Fatalf("read-only WITH part reported: %+v", w)
		}
		checkStatement(t, q, w, script)
	}
}

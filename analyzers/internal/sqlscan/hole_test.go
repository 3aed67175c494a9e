package sqlscan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// TestHoles reads queries folded from Go code, with HoleMarker(n) where a
// run-time value was spliced in ("%1" below), and checks what is seen:
// holes as values and tokens, as table names, and as open conditions.
func TestHoles(t *testing.T) {
	for _, tc := range []struct {
		name, query, want, open string
	}{
		{"value in a fence", "UPDATE docs SET body = $1 WHERE id = $2 AND fence < %1",
			"UPDATE docs W F[fence<<run-time text 1> WHERE] S[body=$1]", ""},
		{"table named at run time", "UPDATE %1 SET body = $1 WHERE id = $2",
			"UPDATE ? W S[body=$1]", ""},
		{"schema at run time", "DELETE FROM %1.jobs WHERE id = $1", "DELETE ?.jobs W", ""},
		{"quoted table named at run time", `UPDATE "%1" SET body = $1 WHERE id = $2`, "UPDATE ? W S[body=$1]", ""},
		{"backquoted table named at run time", "UPDATE `%1` SET body = $1 WHERE id = $2", "UPDATE ? W S[body=$1]", ""},
		{"whole WHERE at run time", "UPDATE docs SET body = $1 WHERE %1", "UPDATE docs W S[body=$1]", "1"},
		{"a condition ANDed at run time", "UPDATE docs SET body = $1 WHERE id = $2 AND %1",
			"UPDATE docs W S[body=$1]", "1"},
		{"fence ANDed with a run-time condition", "UPDATE docs SET body = $1 WHERE fence < $2 AND %1",
			"UPDATE docs W F[fence<$2 WHERE] S[body=$1]", "1"},
		{"clause after UPDATE", "UPDATE docs SET body = $1 %1", "UPDATE docs W", "1"},
		{"clause after DELETE", "DELETE FROM docs %1", "DELETE docs W", "1"},
		{"value compared, not a clause", "DELETE FROM docs WHERE id = %1", "DELETE docs W", ""},
		{"IN list", "UPDATE docs SET body = $1 WHERE id IN (%1)", "UPDATE docs W S[body=$1]", ""},
		{"LIMIT after WHERE", "DELETE FROM jobs WHERE done LIMIT %1", "DELETE jobs W", ""},
		{"advisory lock key", "SELECT pg_try_advisory_lock(%1)", "SELECT C[pg_try_advisory_lock(<run-time text 1>)]", ""},
		{"inside a string literal", "UPDATE docs SET body = 'x%1y' WHERE id = $1", "UPDATE docs W", ""},
		{"verb at run time", "%1 INTO docs VALUES ($1)", " U", ""},
		{"rows chosen at run time behind a WITH query", "WITH rows AS (SELECT id FROM tuples WHERE %1 LIMIT 1000) DELETE FROM tuples WHERE (id) IN (SELECT id FROM rows)",
			"DELETE tuples W", "1"},
		{"rows chosen at run time in a subquery, by age here", "DELETE FROM tuples WHERE expires_at < now() AND id IN (SELECT id FROM tuples WHERE %1)",
			"DELETE tuples W C[now()]", "1"},
		{"subquery's run-time condition beside a key", "DELETE FROM tuples WHERE owner = $1 AND id IN (SELECT id FROM tuples WHERE %1)",
			"DELETE tuples W", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := strings.ReplaceAll(tc.query, "%1", sqlscan.HoleMarker(1))
			s := sqlscan.ParseDialect(q, sqlscan.PostgreSQL)
			if len(s.Statements) != 1 {
				t.Fatalf("%d statements", len(s.Statements))
			}
			st := s.Statements[0]
			if got := summary(st); got != tc.want {
				t.Errorf("summary:\n got %s\nwant %s", got, tc.want)
			}
			var open []string
			for _, p := range st.Open {
				open = append(open, fmt.Sprint(p.Index))
			}
			if got := strings.Join(open, ","); got != tc.open {
				t.Errorf("open holes %q, want %q", got, tc.open)
			}
		})
	}
}

func TestStrayNUL(t *testing.T) {
	for _, q := range []string{"UPDATE docs SET a = 1\x00", "UPDATE docs SET a = \x00h\x00", "\x00h12"} {
		if s := sqlscan.Parse(q); !s.Unknown {
			t.Errorf("%q: not Unknown", q)
		}
	}
}

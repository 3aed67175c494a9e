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
		{"locking read of a table named at run time", "SELECT status FROM %1 WHERE id = $1 FOR UPDATE", "SELECT L[?]", ""},
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

// TestTableHoles checks the hole recorded for a table named at run time
// alone, the write's target or a locking read's, and none for a table
// only part of which is.
func TestTableHoles(t *testing.T) {
	for _, tc := range []struct {
		query         string
		table, locked int
	}{
		{"UPDATE %1 SET body = $1 WHERE id = $2", 1, 0},
		{"DELETE FROM %1.jobs WHERE id = $1", 0, 0},
		{"SELECT status FROM %1 WHERE id = $1 FOR UPDATE", 0, 1},
		{"SELECT status FROM orders WHERE id = %1 FOR UPDATE", 0, 0},
		{"UPDATE docs SET body = %1", 0, 0},
	} {
		q := strings.ReplaceAll(tc.query, "%1", sqlscan.HoleMarker(1))
		st := sqlscan.ParseDialect(q, sqlscan.PostgreSQL).Statements[0]
		if st.TableHole.Index != tc.table || st.LockedHole.Index != tc.locked {
			t.Errorf("%s: table hole %d, locked hole %d; want %d, %d", tc.query, st.TableHole.Index, st.LockedHole.Index, tc.table, tc.locked)
		}
	}
}

// TestClaimColumns checks what a claim in a transaction is read by: the
// select list of a locking read and the columns an UPDATE assigns.
func TestClaimColumns(t *testing.T) {
	for _, tc := range []struct {
		query, locked, assigned string
	}{
		{"SELECT id, o.status, amount * 2, note AS n FROM orders o WHERE id = $1 FOR UPDATE", "id,status,,", ""},
		{"SELECT DISTINCT state FROM jobs WHERE id = $1 FOR NO KEY UPDATE", "state", ""},
		{"SELECT * FROM jobs WHERE id = $1 FOR UPDATE", "", ""},
		{"SELECT state FROM jobs WHERE id = $1", "", ""},
		{"UPDATE jobs SET state = 'running', tries = tries + 1 WHERE id = $1", "", "state,tries"},
		{"UPDATE jobs j SET j.state = ?, `note` = ? WHERE j.id = ?", "", "state,note"},
		{"UPDATE jobs SET (state, note) = ($1, $2) WHERE id = $3", "", ""},
	} {
		st := sqlscan.Parse(tc.query).Statements[0]
		if got := strings.Join(st.LockedColumns, ","); got != tc.locked {
			t.Errorf("%s: locked columns %q, want %q", tc.query, got, tc.locked)
		}
		if got := strings.Join(st.Assigned, ","); got != tc.assigned {
			t.Errorf("%s: assigned %q, want %q", tc.query, got, tc.assigned)
		}
	}
}

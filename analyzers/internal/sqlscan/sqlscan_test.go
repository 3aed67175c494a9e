package sqlscan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// summary renders what the lease model reads from a statement, compactly:
//
//	UPDATE docs W F[fence<$2 WHERE] S[body=$1 fence=$2] C[now()] R U
//
// W: writes; F: fences (col op token, "?NULL" if NULL passes, clause);
// S: stored placeholders; C: known calls with their placeholder args;
// R: RETURNING; L: locking read; X: conflict handling; U: unknown;
// With: data-modifying WITH parts in braces.
func summary(st sqlscan.Statement) string {
	var b strings.Builder
	if st.Name != "" {
		b.WriteString(st.Name + " " + st.Cmd + ": ")
	}
	b.WriteString(st.Verb)
	if st.Table != "" {
		b.WriteString(" " + st.Table)
	}
	if st.Writes {
		b.WriteString(" W")
	}
	if len(st.Fences) > 0 {
		var fs []string
		for _, f := range st.Fences {
			s := f.Column + f.Op + param(f.Token)
			if f.NullOK {
				s += "?NULL"
			}
			fs = append(fs, s+" "+f.Clause)
		}
		b.WriteString(" F[" + strings.Join(fs, "; ") + "]")
	}
	if len(st.Stored) > 0 {
		var ss []string
		for _, a := range st.Stored {
			ss = append(ss, a.Column+"="+param(a.Value))
		}
		b.WriteString(" S[" + strings.Join(ss, " ") + "]")
	}
	if len(st.Calls) > 0 {
		var cs []string
		for _, c := range st.Calls {
			var args []string
			for _, a := range c.Args {
				args = append(args, param(a))
			}
			cs = append(cs, c.Name+"("+strings.Join(args, ",")+")")
		}
		b.WriteString(" C[" + strings.Join(cs, " ") + "]")
	}
	if st.Returning {
		b.WriteString(" R")
	}
	if st.ForUpdate {
		b.WriteString(" L")
		if st.Locked != "" {
			b.WriteString("[" + st.Locked + "]")
		}
	}
	if st.Conflict != "" {
		b.WriteString(" X[" + st.Conflict + "]")
	}
	for _, w := range st.With {
		b.WriteString(" {" + summary(w) + "}")
	}
	if st.Unknown {
		b.WriteString(" U")
	}
	return b.String()
}

// param renders a placeholder, numbering ? by ordinal: "?#2".
func param(p sqlscan.Param) string {
	if p.Style == sqlscan.Question {
		return fmt.Sprintf("?#%d", p.Index)
	}
	return p.String()
}

// scriptSummary renders every statement, one per line.
func scriptSummary(s *sqlscan.Script) string {
	var lines []string
	for _, st := range s.Statements {
		lines = append(lines, summary(st))
	}
	if s.Unknown {
		lines = append(lines, "UNKNOWN: "+s.Problem)
	}
	return strings.Join(lines, "\n")
}

// parseCase is one query with the summary Parse must give.
type parseCase struct {
	name    string
	dialect sqlscan.Dialect
	query   string
	want    string
}

// parseCases are realistic queries, shared by TestParse and the fuzz seeds.
func parseCases() []parseCase {
	return []parseCase{
		// UPDATE fences, as sqlc and hand-written code send them.
		{"sqlc update fenced", 0, `-- name: UpdateDoc :execrows
UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2`,
			`UpdateDoc :execrows: UPDATE docs W F[fence<$2 WHERE] S[body=$1 fence=$2]`},
		{"sqlc exec unfenced", 0, `-- name: SetBody :exec
UPDATE docs
SET body = $2
WHERE id = $1;`,
			`SetBody :exec: UPDATE docs W S[body=$2]`},
		{"sqlc two queries", 0, "-- name: A :exec\nDELETE FROM a WHERE id = $1;\n\n-- name: B :one\nSELECT id FROM b WHERE id = $1;",
			"A :exec: DELETE a W\nB :one: SELECT"},
		{"pgx named, null-tolerant, returning", 0,
			`UPDATE docs SET body = @body, fence = @fence WHERE id = @id AND (fence IS NULL OR fence <= @fence) RETURNING id`,
			`UPDATE docs W F[fence<=@fence?NULL WHERE] S[body=@body fence=@fence] R`},
		{"null test after the fence", 0, `UPDATE docs SET b = $1 WHERE (fence < $2 OR fence IS NULL) AND id = $3`,
			`UPDATE docs W F[fence<$2?NULL WHERE] S[b=$1]`},
		{"token on the left", 0, `UPDATE docs SET body = $1 WHERE id = $3 AND $2 > fence`,
			`UPDATE docs W F[fence<$2 WHERE] S[body=$1]`},
		{"token on the left, or equal", 0, `UPDATE docs SET body = $1 WHERE $2 >= fence AND id = $3`,
			`UPDATE docs W F[fence<=$2 WHERE] S[body=$1]`},
		{"negated", 0, `UPDATE docs SET x = 1 WHERE NOT (fence >= $1) AND id = $2`,
			`UPDATE docs W F[fence<$1 WHERE]`},
		{"qualified by table", 0, `UPDATE app.docs SET x = $1 WHERE app.docs.fence < $2 AND docs.id = $3`,
			`UPDATE app.docs W F[fence<$2 WHERE] S[x=$1]`},
		{"quoted names, casts, coalesce", 0,
			`UPDATE "App"."Docs" AS d SET "Body" = $1::text, fence = $2::bigint WHERE d.id = $3 AND COALESCE(d.fence, 0) < $2::bigint`,
			`UPDATE App.Docs W F[fence<$2?NULL WHERE] S[Body=$1 fence=$2]`},
		{"COALESCE with a negative default", 0, `UPDATE t SET v = ? WHERE IFNULL(fence, -1) < ?`,
			`UPDATE t W F[fence<?#2?NULL WHERE] S[v=?#1]`},
		{"COALESCE with a non-literal default is not a fence", 0, `UPDATE t SET v = ? WHERE COALESCE(fence, other) < ?`,
			`UPDATE t W S[v=?#1]`},
		{"CAST and parentheses", 0, `UPDATE t SET v = $1 WHERE ((fence) <= (CAST($2 AS BIGINT)))`,
			`UPDATE t W F[fence<=$2 WHERE] S[v=$1]`},
		{"multi-word cast", 0, `UPDATE t SET v = $1 WHERE stamp < $2::timestamp with time zone`,
			`UPDATE t W F[stamp<$2 WHERE] S[v=$1]`},
		{"between keeps its AND", 0, `UPDATE t SET v = $1 WHERE n BETWEEN 1 AND 5 AND fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[v=$1]`},
		{"case keeps its AND", 0, `UPDATE t SET v = $1 WHERE CASE WHEN a AND b THEN true END AND fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[v=$1]`},
		{"multi-column SET", 0, `UPDATE t SET (body, fence) = ($1, $2) WHERE id = $3 AND fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[body=$1 fence=$2]`},
		{"multi-column SET ROW", 0, `UPDATE t SET (body, fence) = ROW($1, $2) WHERE fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[body=$1 fence=$2]`},
		{"UPDATE FROM with token from VALUES", 0,
			`UPDATE docs d SET body = v.body FROM (VALUES ($1, $2, $3)) AS v(id, body, tok) WHERE d.id = v.id AND d.fence < v.tok`,
			`UPDATE docs W F[fence<<none> WHERE]`},

		// Not fences.
		{"ORed with an unrelated condition", 0, `UPDATE docs SET body = $1 WHERE id = $3 OR fence < $2`,
			`UPDATE docs W S[body=$1]`},
		{"two fencing branches ORed", 0, `UPDATE docs SET body = $1 WHERE fence < $2 OR epoch < $2`,
			`UPDATE docs W S[body=$1]`},
		{"wrong direction", 0, `UPDATE docs SET body = $1 WHERE id = $3 AND fence > $2`,
			`UPDATE docs W S[body=$1]`},
		{"token on the left, wrong direction", 0, `UPDATE docs SET body = $1 WHERE $2 < fence`,
			`UPDATE docs W S[body=$1]`},
		{"equality", 0, `UPDATE docs SET body = $1 WHERE id = $3 AND fence = $2`,
			`UPDATE docs W S[body=$1]`},
		{"literal", 0, `UPDATE docs SET body = $1 WHERE id = $3 AND fence < 5`,
			`UPDATE docs W S[body=$1]`},
		{"expression on the token", 0, `UPDATE docs SET body = $1 WHERE fence < $2 + 1`,
			`UPDATE docs W S[body=$1]`},
		{"column of another table", 0, `UPDATE docs d SET body = $1 FROM other o WHERE o.fence < $2 AND d.id = o.id`,
			`UPDATE docs W S[body=$1]`},
		{"negated OR of fences", 0, `UPDATE docs SET b = 1 WHERE NOT (fence < $1 AND id = $2)`,
			`UPDATE docs W`},
		{"stored only", 0, `UPDATE docs SET body = $1, fence = $2 WHERE id = $3`,
			`UPDATE docs W S[body=$1 fence=$2]`},
		{"no WHERE", 0, `UPDATE docs SET body = $1`, `UPDATE docs W S[body=$1]`},

		// Fences hidden in strings and comments do not count.
		{"in a string", 0, `UPDATE docs SET body = $1, note = 'AND fence < $2' WHERE id = $3`,
			`UPDATE docs W S[body=$1]`},
		{"in a line comment", 0, "UPDATE docs SET body = $1 WHERE id = $3 -- AND fence < $2",
			`UPDATE docs W S[body=$1]`},
		{"in a block comment", 0, `UPDATE docs SET body = $1 WHERE id = $3 /* AND fence < $2 */`,
			`UPDATE docs W S[body=$1]`},
		{"in a nested block comment", 0, `UPDATE docs SET body = $1 WHERE id = $3 /* a /* b */ AND fence < $2 */`,
			`UPDATE docs W S[body=$1]`},
		{"in a dollar-quoted string", 0, `UPDATE docs SET body = $$ WHERE fence < $2 $$ WHERE id = $1`,
			`UPDATE docs W`},
		{"in a tagged dollar-quoted string", 0, `UPDATE docs SET body = $q$ $$ fence < $2 $$ $q$ WHERE id = $1`,
			`UPDATE docs W`},
		{"in an E string with escaped quote", 0, `UPDATE docs SET body = E'it\'s AND fence < $2' WHERE id = $1`,
			`UPDATE docs W`},
		{"in a quoted identifier", 0, `UPDATE docs SET "fence < $2" = $1 WHERE id = $3`,
			`UPDATE docs W S[fence < $2=$1]`},
		{"doubled quotes", 0, `UPDATE t SET a = 'it''s -- not a comment' WHERE fence < $1`,
			`UPDATE t W F[fence<$1 WHERE]`},
		{"MySQL backslash escape hides the fence", sqlscan.MySQL,
			`UPDATE t SET a = 'x\' AND fence < ?' WHERE id = ?`,
			`UPDATE t W`},
		{"MySQL hash comment", sqlscan.MySQL, "UPDATE t SET a = ? WHERE id = ? # AND fence < ?",
			`UPDATE t W S[a=?#1]`},
		{"MySQL double-quoted string", sqlscan.MySQL, `UPDATE t SET a = "x\" AND fence < ?" WHERE id = ?`,
			`UPDATE t W`},
		{"MySQL backquotes", sqlscan.MySQL, "UPDATE `order` SET `v` = ? WHERE `fence` < ?",
			"UPDATE order W F[fence<?#2 WHERE] S[v=?#1]"},

		// INSERT upserts.
		{"PostgreSQL ON CONFLICT fence", 0,
			`INSERT INTO settings (key, value, fence) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, fence = EXCLUDED.fence WHERE settings.fence < EXCLUDED.fence`,
			`INSERT settings W F[fence<$3 ON CONFLICT WHERE] S[key=$1 value=$2 fence=$3 value=$2 fence=$3] X[DO UPDATE]`},
		{"SQLite ON CONFLICT fence with alias", 0,
			`INSERT INTO settings AS s (key, value, fence) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, fence = excluded.fence WHERE s.fence <= excluded.fence`,
			`INSERT settings W F[fence<=?#3 ON CONFLICT WHERE] S[key=?#1 value=?#2 fence=?#3 value=?#2 fence=?#3] X[DO UPDATE]`},
		{"ON CONFLICT fence on a placeholder", 0,
			`INSERT INTO s (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = $2 WHERE s.fence < $3`,
			`INSERT s W F[fence<$3 ON CONFLICT WHERE] S[k=$1 v=$2 v=$2] X[DO UPDATE]`},
		{"ON CONFLICT index predicate is not a fence", 0,
			`INSERT INTO s (k, v, fence) VALUES ($1, $2, $3) ON CONFLICT (k) WHERE fence < 10 DO UPDATE SET v = EXCLUDED.v`,
			`INSERT s W S[k=$1 v=$2 fence=$3 v=$2] X[DO UPDATE]`},
		{"ON CONFLICT unfenced", 0,
			`INSERT INTO s (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`,
			`INSERT s W S[k=$1 v=$2 v=$2] X[DO UPDATE]`},
		{"ON CONFLICT ON CONSTRAINT, DO NOTHING", 0,
			`INSERT INTO s (k) VALUES ($1) ON CONFLICT ON CONSTRAINT s_pkey DO NOTHING`,
			`INSERT s W S[k=$1] X[DO NOTHING]`},
		{"ON CONFLICT fence against a literal insert", 0,
			`INSERT INTO s (k, fence) VALUES ($1, 7) ON CONFLICT (k) DO UPDATE SET fence = EXCLUDED.fence WHERE s.fence < EXCLUDED.fence`,
			`INSERT s W S[k=$1] X[DO UPDATE]`},
		{"INSERT SELECT ON CONFLICT fence: token untraceable", 0,
			`INSERT INTO s (k, fence) SELECT k, f FROM staging WHERE true ON CONFLICT (k) DO UPDATE SET fence = EXCLUDED.fence WHERE s.fence < EXCLUDED.fence`,
			`INSERT s W F[fence<<none> ON CONFLICT WHERE] X[DO UPDATE]`},
		{"MySQL ON DUPLICATE KEY UPDATE IF VALUES()", 0,
			`INSERT INTO settings (k, v, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = IF(fence < VALUES(fence), VALUES(v), v), fence = IF(fence < VALUES(fence), VALUES(fence), fence)`,
			`INSERT settings W F[fence<?#3 ON DUPLICATE KEY UPDATE; fence<?#3 ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 fence=?#3 v=?#2 fence=?#3] X[DUPLICATE KEY UPDATE]`},
		{"MySQL row alias", 0,
			`INSERT INTO settings (k, v, fence) VALUES (?, ?, ?) AS new ON DUPLICATE KEY UPDATE v = IF(fence <= new.fence, new.v, v)`,
			`INSERT settings W F[fence<=?#3 ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 fence=?#3 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"INSERT SELECT with AS is no row alias", 0,
			`INSERT INTO t (k, fence) SELECT k, f AS new FROM s ON DUPLICATE KEY UPDATE fence = IF(fence < new.fence, new.fence, fence)`,
			`INSERT t W X[DUPLICATE KEY UPDATE]`},
		{"MySQL IF with a placeholder", 0,
			`INSERT INTO t (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = IF(fence < ?, VALUES(v), v)`,
			`INSERT t W F[fence<?#3 ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"MySQL IF with a user variable", sqlscan.MySQL,
			`INSERT INTO t (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = IF(fence <= @tok, VALUES(v), v)`,
			`INSERT t W F[fence<=@tok ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"MySQL CASE WHEN and GREATEST", 0,
			`INSERT INTO t (k, v, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = CASE WHEN fence < VALUES(fence) THEN VALUES(v) ELSE v END, fence = GREATEST(fence, VALUES(fence)), k = k`,
			`INSERT t W F[fence<?#3 ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 fence=?#3 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"MySQL one column overwritten unconditionally", 0,
			`INSERT INTO t (k, v, w, fence) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE v = IF(fence < VALUES(fence), VALUES(v), v), w = VALUES(w)`,
			`INSERT t W S[k=?#1 v=?#2 w=?#3 fence=?#4 v=?#2 w=?#3] X[DUPLICATE KEY UPDATE]`},
		{"MySQL IF that is not a fence", 0,
			`INSERT INTO t (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = IF(v IS NULL, VALUES(v), v)`,
			`INSERT t W S[k=?#1 v=?#2 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"MySQL user variable set from a placeholder", sqlscan.MySQL,
			`SET @tok = ?, @other = 1; INSERT INTO t (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = IF(fence <= @tok, VALUES(v), v)`,
			"SET\nINSERT t W F[fence<=?#1 ON DUPLICATE KEY UPDATE] S[k=?#2 v=?#3 v=?#3] X[DUPLICATE KEY UPDATE]"},
		{"MySQL ON DUPLICATE KEY UPDATE unfenced", 0,
			`INSERT INTO t (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)`,
			`INSERT t W S[k=?#1 v=?#2 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"MySQL INSERT SET", sqlscan.MySQL, "INSERT INTO t SET k = ?, v = ? ON DUPLICATE KEY UPDATE v = IF(fence < VALUES(v), VALUES(v), v)",
			`INSERT t W F[fence<?#2 ON DUPLICATE KEY UPDATE] S[k=?#1 v=?#2 v=?#2] X[DUPLICATE KEY UPDATE]`},
		{"INSERT IGNORE", 0, `INSERT IGNORE INTO t (k) VALUES (?)`, `INSERT t W S[k=?#1] X[IGNORE]`},
		{"INSERT OR REPLACE", 0, `INSERT OR REPLACE INTO t (k, v) VALUES (?1, ?2)`, `INSERT t W S[k=?1 v=?2] X[REPLACE]`},
		{"REPLACE INTO", 0, `REPLACE INTO t (k, v) VALUES (?, ?)`, `REPLACE t W S[k=?#1 v=?#2] X[REPLACE]`},
		{"multi-row VALUES", 0, `INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) RETURNING a`,
			`INSERT t W S[a=$1 b=$2 a=$3 b=$4] R`},
		{"DEFAULT VALUES", 0, `INSERT INTO t DEFAULT VALUES`, `INSERT t W`},

		// DELETE, MERGE and the rest.
		{"DELETE fenced with colon names", 0, `DELETE FROM jobs WHERE id = :id AND fence < :token`,
			`DELETE jobs W F[fence<:token WHERE]`},
		{"DELETE USING", 0, `DELETE FROM jobs j USING leases l WHERE j.lease = l.id AND j.fence < $1 RETURNING j.id`,
			`DELETE jobs W F[fence<$1 WHERE] R`},
		{"MySQL multi-table DELETE", 0, `DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id WHERE t1.fence < ?`,
			`DELETE t1 W F[fence<?#1 WHERE]`},
		{"MERGE fenced", 0,
			`MERGE INTO docs d USING (VALUES ($1, $2)) AS s(id, tok) ON d.id = s.id WHEN MATCHED AND d.fence < $2 THEN UPDATE SET fence = $2 WHEN NOT MATCHED THEN INSERT (id, fence) VALUES ($1, $2)`,
			`MERGE docs W F[fence<$2 MERGE WHEN] S[fence=$2]`},
		{"MERGE with an unfenced matched branch", 0,
			`MERGE INTO docs d USING src s ON d.id = s.id WHEN MATCHED AND d.fence < s.tok THEN UPDATE SET v = s.v WHEN MATCHED THEN DELETE`,
			`MERGE docs W`},
		{"TRUNCATE", 0, `TRUNCATE TABLE audit`, `TRUNCATE audit W`},
		{"COPY FROM writes", 0, `COPY items (a, b) FROM STDIN`, `COPY items W`},
		{"COPY TO reads", 0, `COPY items TO STDOUT`, `COPY`},
		{"LOAD DATA", 0, `LOAD DATA LOCAL INFILE 'x.csv' INTO TABLE items`, `LOAD items W`},
		{"UPDATE OR IGNORE", 0, `UPDATE OR IGNORE t SET a = ?`, `UPDATE t W S[a=?#1] X[IGNORE]`},
		{"MySQL UPDATE with ORDER BY LIMIT", 0, `UPDATE LOW_PRIORITY t SET a = ? WHERE fence < ? ORDER BY id LIMIT 1`,
			`UPDATE t W F[fence<?#2 WHERE] S[a=?#1]`},

		// WITH.
		{"data-modifying CTE", 0,
			`WITH upd AS (UPDATE docs SET body = $1 WHERE id = $2 AND fence < $3 RETURNING id) SELECT count(*) FROM upd`,
			`SELECT docs W {UPDATE docs W F[fence<$3 WHERE] S[body=$1] R}`},
		{"read-only CTE", 0,
			`WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < $1) SELECT * FROM t`,
			`SELECT`},
		{"CTE feeding an UPDATE", 0,
			`WITH cur AS MATERIALIZED (SELECT id FROM docs WHERE id = $1) UPDATE docs SET v = $2 FROM cur WHERE docs.id = cur.id AND docs.fence < $3`,
			`UPDATE docs W F[fence<$3 WHERE] S[v=$2]`},

		// Known functions and reads.
		{"advisory locks", 0, `SELECT pg_try_advisory_lock($1); SELECT pg_catalog.pg_advisory_unlock(hashtext($2))`,
			"SELECT C[pg_try_advisory_lock($1)]\nSELECT C[pg_advisory_unlock($2)]"},
		{"xact lock then write", 0, `SELECT pg_advisory_xact_lock(42); UPDATE t SET v = $1 WHERE id = $2`,
			"SELECT C[pg_advisory_xact_lock()]\nUPDATE t W S[v=$1]"},
		{"MySQL GET_LOCK", 0, `SELECT GET_LOCK(?, 10), @@session.wait_timeout`, `SELECT C[get_lock(?#1)]`},
		{"MySQL RELEASE_LOCK", 0, `DO RELEASE_LOCK(?)`, `DO C[release_lock(?#1)]`},
		{"sequence and not-tokens", 0, `SELECT nextval('fence_seq'), now(), CURRENT_TIMESTAMP, gen_random_uuid()`,
			`SELECT C[nextval() now() current_timestamp() gen_random_uuid()]`},
		{"not-token stored", 0, `UPDATE t SET fence = now() WHERE id = $1`, `UPDATE t W C[now()]`},
		{"locking read", 0, `SELECT fence FROM docs WHERE id = $1 FOR UPDATE`, `SELECT L[docs]`},
		{"MySQL shared read", 0, `SELECT fence FROM docs WHERE id = ? LOCK IN SHARE MODE`, `SELECT L[docs]`},
		{"locking read of a qualified table", 0, `SELECT status FROM app.orders AS o WHERE o.id = $1 FOR NO KEY UPDATE`, `SELECT L[app.orders]`},
		{"locking read from a subquery's table", 0,
			`SELECT o.status FROM orders o WHERE o.id IN (SELECT order_id FROM items WHERE sku = $1) FOR UPDATE OF o`, `SELECT L[orders]`},
		{"EXPLAIN ANALYZE runs the write", 0, `EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET v = $1 WHERE fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[v=$1]`},
		{"EXPLAIN ANALYZE MySQL style", 0, `EXPLAIN ANALYZE DELETE FROM t WHERE id = ?`, `DELETE t W`},
		{"plain EXPLAIN runs nothing", 0, `EXPLAIN UPDATE t SET v = $1`, `EXPLAIN`},
		{"parenthesized select", 0, `(SELECT 1) UNION (SELECT 2)`, `SELECT`},

		// Placeholders that are not.
		{"casts, assignments and colons in strings", 0,
			`UPDATE t SET a = $1 WHERE x = ':not_a_param' AND y::text = 'a' AND z := 1`,
			`UPDATE t W S[a=$1]`},
		{"jsonb ? operator in PostgreSQL", sqlscan.PostgreSQL, `UPDATE t SET a = $1 WHERE data ? 'k' AND fence < $2`,
			`UPDATE t W F[fence<$2 WHERE] S[a=$1]`},

		// Statements read as Unknown.
		{"unterminated string", 0, `UPDATE t SET a = 'oops WHERE fence < $1`, "UPDATE t W U\nUNKNOWN: unterminated '-quoted text"},
		{"unterminated comment", 0, `UPDATE t SET a = 1 /* WHERE fence < $1`, "UPDATE t W U\nUNKNOWN: unterminated /* comment"},
		{"unbalanced parentheses", 0, `UPDATE t SET a = (1 WHERE fence < $1`, "UPDATE t W U\nUNKNOWN: statement 1: unbalanced parentheses"},
		{"unknown verb", 0, `FROB t`, "FROB U\nUNKNOWN: statement 1: unknown statement FROB"},
		{"not a statement", 0, `'just a string'`, " U\nUNKNOWN: statement 1: does not start with a keyword"},
		{"MySQL executable comment", sqlscan.MySQL, `UPDATE t SET a = 1 /*!50000 , b = 2 */`, "UPDATE t W U\nUNKNOWN: MySQL executable comment /*! ... */"},
		{"UPDATE without SET", 0, `UPDATE t WHERE fence < $1`, "UPDATE t W U\nUNKNOWN: statement 1: UPDATE without SET"},
		{"second statement unknown", 0, "UPDATE t SET a = $1 WHERE fence < $2; FROB", "UPDATE t W F[fence<$2 WHERE] S[a=$1]\nFROB U\nUNKNOWN: statement 2: unknown statement FROB"},
		{"malformed ON CONFLICT", 0, "INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO SOMETHING", "INSERT t W S[a=$1] U\nUNKNOWN: statement 1: ON CONFLICT DO neither NOTHING nor UPDATE SET"},
		{"unknown WITH body", 0, "WITH x AS (FROB) SELECT 1", "SELECT U\nUNKNOWN: statement 1: WITH unknown statement FROB"},
		{"empty", 0, ``, ``},
		{"only comments", 0, "-- nothing\n/* here */ ;", ``},
		{"SQLite trigger body stays whole", 0,
			`CREATE TRIGGER tr AFTER INSERT ON a BEGIN UPDATE b SET n = n + 1; DELETE FROM c; END; SELECT 1`,
			"CREATE\nSELECT"},
	}
}

func TestParse(t *testing.T) {
	for _, tt := range parseCases() {
		t.Run(tt.name, func(t *testing.T) {
			got := scriptSummary(sqlscan.ParseDialect(tt.query, tt.dialect))
			if got != tt.want {
				t.Errorf("ParseDialect(%q, %v):\n got: %s\nwant: %s", tt.query, tt.dialect, got, tt.want)
			}
		})
	}
}

func TestAutoDialect(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		dialect sqlscan.Dialect
		want    string
	}{
		{"no sensitive construct", `UPDATE t SET a = $1 WHERE fence < $2`, sqlscan.Auto,
			`UPDATE t W F[fence<$2 WHERE] S[a=$1]`},
		{"backslash read alike", `UPDATE t SET a = 'x\\' WHERE fence < ?`, sqlscan.Auto,
			`UPDATE t W F[fence<?#1 WHERE]`},
		{"only MySQL reads it", `UPDATE t SET a = 'x\'; fence < ?' WHERE id = ?`, sqlscan.MySQL,
			`UPDATE t W`},
		{"only PostgreSQL reads it", `UPDATE t SET a = '\' WHERE fence < $1 AND b = '\'`, sqlscan.PostgreSQL,
			`UPDATE t W F[fence<$1 WHERE]`},
		{"# with ? is MySQL", "UPDATE t SET a = ? # WHERE fence < ?", sqlscan.MySQL, `UPDATE t W S[a=?#1]`},
		{"# with $1 is PostgreSQL", "UPDATE t SET a = $1 # 2 WHERE fence < $2", sqlscan.PostgreSQL,
			`UPDATE t W F[fence<$2 WHERE]`},
		{"# with no marker is ambiguous", "UPDATE t SET a = 1 # WHERE fence < 2", sqlscan.Auto,
			"UPDATE t W U\nUNKNOWN: the text reads differently as PostgreSQL and as MySQL and names neither"},
		{"nested comment with backquotes is MySQL", "UPDATE `t` SET a = 1 /* /* */ WHERE fence < ?", sqlscan.MySQL,
			"UPDATE t W F[fence<?#1 WHERE]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sqlscan.Parse(tt.query)
			if got := scriptSummary(s); got != tt.want || s.Dialect != tt.dialect {
				t.Errorf("Parse(%q):\n got: %v %s\nwant: %v %s", tt.query, s.Dialect, got, tt.dialect, tt.want)
			}
		})
	}
}

func TestParams(t *testing.T) {
	q := "SELECT ?, ? FROM t WHERE a = '?' -- ?\n; UPDATE t SET x = ? WHERE y = @@v AND z = @n AND w = :m AND v = $2 AND u = ?7 AND s = $name"
	s := sqlscan.Parse(q)
	var got []string
	for _, p := range s.Params {
		i, name := sqlscan.ArgIndex(p)
		got = append(got, fmt.Sprintf("%s:%d:%s", param(p), i, name))
		if !strings.HasPrefix(q[p.Pos:], p.String()) {
			t.Errorf("Pos %d of %s points at %q", p.Pos, p, q[p.Pos:])
		}
	}
	want := "?#1:0: ?#2:1: ?#3:2: @n:-1:n :m:-1:m $2:1: ?7:6: $name:-1:name"
	if strings.Join(got, " ") != want {
		t.Errorf("params:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if n := len(s.Statements[0].Params) + len(s.Statements[1].Params); n != len(s.Params) {
		t.Errorf("statement params add up to %d, script has %d", n, len(s.Params))
	}
	if s.Statements[1].Pos != strings.Index(q, "UPDATE") || s.Statements[0].End != strings.Index(q, "t WHERE")+len("t WHERE a = '?'") {
		t.Errorf("statement offsets: %+v", s.Statements)
	}
}

func TestArgIndexAndSame(t *testing.T) {
	tests := []struct {
		p     sqlscan.Param
		index int
		name  string
	}{
		{sqlscan.Param{Style: sqlscan.Dollar, Index: 3}, 2, ""},
		{sqlscan.Param{Style: sqlscan.Question, Index: 1}, 0, ""},
		{sqlscan.Param{Style: sqlscan.QuestionNum, Index: 4}, 3, ""},
		{sqlscan.Param{Style: sqlscan.AtName, Name: "tok"}, -1, "tok"},
		{sqlscan.Param{Style: sqlscan.ColonName, Name: "tok"}, -1, "tok"},
		{sqlscan.Param{Style: sqlscan.Dollar, Index: 0}, -1, ""},
		{sqlscan.Param{}, -1, ""},
	}
	for _, tt := range tests {
		if i, n := sqlscan.ArgIndex(tt.p); i != tt.index || n != tt.name {
			t.Errorf("ArgIndex(%v) = %d, %q; want %d, %q", tt.p, i, n, tt.index, tt.name)
		}
	}
	d2 := sqlscan.Param{Style: sqlscan.Dollar, Index: 2, Pos: 5}
	if !d2.Same(sqlscan.Param{Style: sqlscan.Dollar, Index: 2, Pos: 9}) || d2.Same(sqlscan.Param{Style: sqlscan.Dollar, Index: 3}) ||
		d2.Same(sqlscan.Param{}) || (sqlscan.Param{}).Same(sqlscan.Param{}) ||
		!(sqlscan.Param{Style: sqlscan.AtName, Name: "a"}).Same(sqlscan.Param{Style: sqlscan.ColonName, Name: "a"}) {
		t.Error("Same gives wrong answers")
	}
}

func TestFenced(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{`UPDATE t SET v = $1 WHERE fence < $2`, true},
		{`UPDATE t SET v = $1 WHERE id = $2`, false},
		{`SELECT 1`, false},
		{`WITH u AS (UPDATE t SET v = 1 WHERE fence < $1 RETURNING id) SELECT * FROM u`, true},
		{`WITH u AS (UPDATE t SET v = 1 RETURNING id) SELECT * FROM u`, false},
		{`WITH u AS (UPDATE t SET v = 1 WHERE fence < $1 RETURNING id) DELETE FROM x WHERE id IN (SELECT id FROM u)`, false},
	}
	for _, tt := range tests {
		st := sqlscan.Parse(tt.query).Statements[0]
		if got := st.Fenced(); got != tt.want {
			t.Errorf("Fenced(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

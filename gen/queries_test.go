package gen

import (
	"strings"
	"testing"
)

const queriesTestSchema = `CREATE TABLE docs (id bigint PRIMARY KEY, title text NOT NULL, fence bigint);
CREATE TABLE notes (id bigint PRIMARY KEY, body text NOT NULL);
`

func generateQueries(queries string) (*Result, error) {
	return Generate(Options{
		Engine:  PostgreSQL,
		Schemas: []Source{{Path: "schema.sql", Data: []byte(queriesTestSchema)}},
		Queries: []Source{{Path: "sql/queries.sql", Data: []byte(queries)}},
		Package: "db",
	})
}

// TestQueriesErrors checks each refusal names the user's file:line:col and
// says what to do.
func TestQueriesErrors(t *testing.T) {
	for _, tc := range []struct{ name, queries, want string }{
		{"no name", "UPDATE docs SET title = $1;\n", "sql/queries.sql:1:1: query has no \"-- name: Name :cmd\" comment"},
		{"unfenced without reason", "-- name: A :exec\n  -- fencegen:unfenced   \nUPDATE docs SET title = $1;\n", "sql/queries.sql:2:3: -- fencegen:unfenced needs a reason"},
		{"unknown directive", "-- name: A :exec\n-- fencegen:unfence because\nUPDATE docs SET title = $1;\n", "sql/queries.sql:2:1: unknown directive \"fencegen:unfence\""},
		{"duplicate name", "-- name: A :exec\nDELETE FROM notes;\n-- name: A :exec\nDELETE FROM notes;\n", "sql/queries.sql:3:1: a query named A is already defined at sql/queries.sql:1:1"},
		{"sets the fence", "-- name: A :exec\nUPDATE docs\nSET fence = $1 WHERE id = $2;\n", "sql/queries.sql:3:5: A sets fence column \"fence\" of docs itself"},
		{"upsert sets the fence", "-- name: A :exec\nINSERT INTO docs (id, title) VALUES ($1, $2)\nON CONFLICT (id) DO UPDATE SET title = excluded.title, fence = 3;\n", "sql/queries.sql:3:56: A sets fence column"},
		{"upsert without columns", "-- name: A :exec\nINSERT INTO docs VALUES ($1, $2, 3) ON CONFLICT (id) DO UPDATE SET title = excluded.title;\n", "sql/queries.sql:1:1: A inserts into fenced table docs without a column list"},
		{"upsert from a union", "-- name: A :exec\nINSERT INTO docs (id, title) SELECT id, body FROM notes UNION SELECT 1, 'a' ON CONFLICT (id) DO UPDATE SET title = excluded.title;\n", "sql/queries.sql:1:1: A upserts fenced table docs from a UNION"},
		{"upsert from select, target not inserted", "-- name: A :exec\nINSERT INTO docs (title) SELECT body FROM notes ON CONFLICT (id) DO UPDATE SET title = excluded.title;\n", "sql/queries.sql:1:1: A upserts from a query, so fencegen finds the rows a newer token kept by the conflict target"},
		{"own condition on a constraint", "-- name: A :exec\nINSERT INTO docs (id, title) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT docs_pkey DO UPDATE SET title = excluded.title WHERE docs.title <> '';\n", "sql/queries.sql:1:1: A has a DO UPDATE condition of its own"},
		{"own condition on a column not inserted", "-- name: A :exec\nINSERT INTO docs (title) VALUES ($1) ON CONFLICT (id) DO UPDATE SET title = excluded.title WHERE docs.title <> '';\n", "sql/queries.sql:1:1: A has a DO UPDATE condition of its own"},
		{"write in WITH", "-- name: A :many\nWITH gone AS (DELETE FROM docs WHERE id = $1 RETURNING id)\nSELECT id FROM gone;\n", "sql/queries.sql:2:6: A writes fenced table docs inside WITH"},
		{"batch command", "-- name: A :batchexec\nDELETE FROM docs WHERE id = $1;\n", "sql/queries.sql:1:1: A writes fenced table docs but is a :batchexec query"},
		{"one without returning", "-- name: A :one\nDELETE FROM docs WHERE id = $1;\n", "sql/queries.sql:1:1: A is a :one query but returns nothing; add RETURNING"},
		{"cursor", "-- name: A :exec\nDELETE FROM docs WHERE CURRENT OF c;\n", "sql/queries.sql:1:1: A writes through a cursor"},
		{"syntax", "-- name: A :exec\nDELETE FROM docs WHERE id = = $1;\n", "sql/queries.sql:2:29: syntax error at or near \"=\""},
		{"sqlc on a passed-through query", "-- name: A :one\n-- reads\nSELECT id,\n  nope FROM docs;\n", "sql/queries.sql:4:3: sqlc: column \"nope\" does not exist"},
		{"sqlc on a fenced query", "-- name: B :exec\nDELETE FROM notes;\n\n-- name: A :exec\nUPDATE docs SET title = $2 WHERE nope = $1;\n", "sql/queries.sql:4:1: sqlc rejects A as fencegen fenced it"},
		{"per-table method name", "-- name: UpdateDoc :exec\nUPDATE notes SET body = $1;\n", "sql/queries.sql:1:1: query UpdateDoc has the name of fencegen's own write of table docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generateQueries(tc.queries)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %s...", err, tc.want)
			}
		})
	}
}

// TestQueriesPassThrough keeps queries that write no fenced table, and
// those marked unfenced, exactly as written.
func TestQueriesPassThrough(t *testing.T) {
	queries := `-- name: ListDocs :many
SELECT * FROM docs /* every doc */ ORDER BY id;

-- name: SaveNote :exec
INSERT INTO notes (id, body) VALUES (@id, @body)
ON CONFLICT (id) DO UPDATE SET body = excluded.body;

-- name: CreateDoc :exec
INSERT INTO docs (id, title) VALUES ($1, $2);

-- name: ResetTitles :exec
-- fencegen:unfenced the nightly migration runs alone
UPDATE docs SET title = '';
`
	res, err := generateQueries(queries)
	if err != nil {
		t.Fatal(err)
	}
	got := string(res.Files["queries.fenced.sql"])
	for _, stmt := range []string{
		"SELECT * FROM docs /* every doc */ ORDER BY id;",
		"INSERT INTO notes (id, body) VALUES (@id, @body)\nON CONFLICT (id) DO UPDATE SET body = excluded.body;",
		"INSERT INTO docs (id, title) VALUES ($1, $2);",
		"-- fencegen:unfenced the nightly migration runs alone\nUPDATE docs SET title = '';",
	} {
		if !strings.Contains(got, stmt) {
			t.Errorf("queries.fenced.sql lacks %q:\n%s", stmt, got)
		}
	}
	if strings.Contains(got, "fencegen_token") || strings.Contains(string(res.Files["fenced.go"]), "func (f *Fenced) ResetTitles") {
		t.Errorf("a pass-through query was fenced:\n%s", got)
	}
}

// TestQueriesRewrite pins the rewritten text of the statement forms.
func TestQueriesRewrite(t *testing.T) {
	for _, tc := range []struct{ name, query, want string }{
		{"update without where", "UPDATE docs SET title = 'x' RETURNING id", "UPDATE docs SET fence = sqlc.arg(fencegen_token)::bigint, title = 'x'\nWHERE (docs.fence IS NULL OR docs.fence <= sqlc.arg(fencegen_token)::bigint) RETURNING id"},
		{"parenthesized condition kept apart", "UPDATE docs SET title = 'x' WHERE id = 1 OR id = 2", "UPDATE docs SET fence = sqlc.arg(fencegen_token)::bigint, title = 'x' WHERE (id = 1 OR id = 2) AND (docs.fence IS NULL OR docs.fence <= sqlc.arg(fencegen_token)::bigint)"},
		{"subquery's where untouched", "DELETE FROM docs WHERE id IN (SELECT id FROM notes WHERE body = '')", "DELETE FROM docs WHERE (id IN (SELECT id FROM notes WHERE body = '')) AND (docs.fence IS NULL OR docs.fence <= sqlc.arg(fencegen_token)::bigint)"},
		{"positional token after the last parameter", "DELETE FROM docs WHERE id = $2 OR id = $1", "DELETE FROM docs WHERE (id = $2 OR id = $1) AND (docs.fence IS NULL OR docs.fence <= $3::bigint)"},
		{"schema-qualified and quoted", `UPDATE public."docs" SET title = 'x'`, "UPDATE public.\"docs\" SET fence = sqlc.arg(fencegen_token)::bigint, title = 'x'\nWHERE (docs.fence IS NULL OR docs.fence <= sqlc.arg(fencegen_token)::bigint)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := generateQueries("-- name: Q :exec\n" + tc.query + ";\n")
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Files["queries.fenced.sql"]); !strings.Contains(got, tc.want+";") {
				t.Errorf("got\n%s\nwant it to contain\n%s", got, tc.want)
			}
		})
	}
}

// TestQueriesSQLite reads SQLite's parameter and quoting forms, numbers
// bare ? parameters so the token can follow them, and refuses the REPLACE
// forms on a fenced table.
func TestQueriesSQLite(t *testing.T) {
	gen := func(queries string) (*Result, error) {
		return Generate(Options{
			Engine:  SQLite,
			Schemas: []Source{{Path: "schema.sql", Data: []byte("CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT NOT NULL, fence INTEGER);\nCREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);\n")}},
			Queries: []Source{{Path: "queries.sql", Data: []byte(queries)}},
			Package: "db",
		})
	}
	res, err := gen("-- name: A :exec\nUPDATE docs SET title = ? /* ? */ WHERE id = ? AND title <> '?';\n\n-- name: B :exec\nINSERT OR REPLACE INTO notes (id, body) VALUES (?, ?);\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "UPDATE docs SET fence = ?3, title = ?1 /* ? */ WHERE (id = ?2 AND title <> '?') AND (docs.fence IS NULL OR docs.fence <= ?3);"
	if got := string(res.Files["queries.fenced.sql"]); !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant it to contain\n%s", got, want)
	}
	for _, q := range []string{"INSERT OR REPLACE INTO docs (id, title) VALUES (?, ?)", "REPLACE INTO docs (id, title) VALUES (?, ?)"} {
		_, err := gen("-- name: A :exec\n" + q + ";\n")
		if err == nil || !strings.HasPrefix(err.Error(), "queries.sql:2:1: A writes fenced table docs in a form fencegen cannot fence") {
			t.Errorf("%s: got %v, want a refusal at queries.sql:2:1", q, err)
		}
	}
}

// TestQueriesMySQL refuses the MySQL forms fencegen does not fence on a
// fenced table, at the query, and passes them through elsewhere.
func TestQueriesMySQL(t *testing.T) {
	gen := func(queries string) (*Result, error) {
		return Generate(Options{
			Engine:  MySQL,
			Schemas: []Source{{Path: "schema.sql", Data: []byte("CREATE TABLE docs (id BIGINT PRIMARY KEY, title TEXT NOT NULL, fence BIGINT);\nCREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT);\nCREATE TABLE events (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(9) NOT NULL UNIQUE, seen INT NOT NULL DEFAULT 0, fence BIGINT);\n")}},
			Queries: []Source{{Path: "queries.sql", Data: []byte(queries)}},
			Package: "db",
		})
	}
	for _, tc := range []struct{ query, want string }{
		{"UPDATE docs d JOIN notes n ON n.id = d.id SET d.title = n.body", "queries.sql:1:1: A writes fenced table docs in a multiple-table UPDATE"},
		{"INSERT INTO docs (id, title) SELECT id, body FROM notes UNION SELECT 1, 'a' ON DUPLICATE KEY UPDATE title = VALUES(title)", "queries.sql:1:1: A upserts fenced table docs from a query that is not one SELECT"},
		{"INSERT INTO docs (id, title) SELECT ?, ? ON DUPLICATE KEY UPDATE title = VALUES(title)", "queries.sql:1:1: A upserts fenced table docs from a query without FROM; write its row as VALUES"},
		{"INSERT INTO events (name) SELECT body FROM notes ON DUPLICATE KEY UPDATE seen = seen + 1", "queries.sql:1:1: A upserts fenced table events from a query into a table whose AUTO_INCREMENT column id hides"},
		{"INSERT INTO docs SELECT id, body, 1 FROM notes ON DUPLICATE KEY UPDATE title = VALUES(title)", "queries.sql:1:1: A inserts into fenced table docs without a column list"},
		{"INSERT INTO docs VALUES (?, ?, 1) ON DUPLICATE KEY UPDATE title = VALUES(title)", "queries.sql:1:1: A inserts into fenced table docs without a column list"},
		{"INSERT INTO docs (id, title) VALUES (?, ?) ON DUPLICATE KEY UPDATE title = VALUES(title), fence = 3", "queries.sql:1:1: A sets fence column \"fence\" of docs itself"},
		{"INSERT INTO docs (id, title) VALUES (?, 'LAST_INSERT_ID') ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)", "queries.sql:1:1: A calls LAST_INSERT_ID"},
		{"INSERT INTO events (name) VALUES (?), (?) ON DUPLICATE KEY UPDATE seen = seen + 1", "queries.sql:1:1: A upserts 2 rows into fenced table events, whose AUTO_INCREMENT column id hides"},
		{"REPLACE INTO docs (id, title) VALUES (?, ?)", "queries.sql:1:1: A writes fenced table docs with REPLACE"},
		{"UPDATE docs SET title = ?, `fence` = ? WHERE id = ?", "queries.sql:1:1: A sets fence column \"fence\" of docs itself"},
		{"UPDATE docs SET title = WHERE id = ?", "queries.sql:2:1: syntax error near"},
	} {
		_, err := gen("-- name: A :exec\n" + tc.query + ";\n")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\ngot  %v\nwant %s...", tc.query, err, tc.want)
		}
	}
	if _, err := gen("-- name: A :execrows\nINSERT INTO docs (id, title) SELECT id, body FROM notes ON DUPLICATE KEY UPDATE title = VALUES(title);\n"); err == nil ||
		!strings.HasPrefix(err.Error(), "queries.sql:1:1: A upserts fenced table docs from a query as :execrows; MySQL's result tells how many of its rows the fence rejected but not how many were written") {
		t.Errorf("an :execrows upsert from a SELECT: got %v, want a refusal", err)
	}
	res, err := gen("-- name: A :exec\nREPLACE INTO notes (id, body) VALUES (?, ?);\n\n-- name: B :exec\nUPDATE docs SET title = ? WHERE id = ? AND title <> \"a \\\" ?\";\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "UPDATE docs SET fence = sqlc.arg(fencegen_token), title = ? WHERE (id = ? AND title <> \"a \\\" ?\") AND (docs.fence IS NULL OR docs.fence <= sqlc.arg(fencegen_token));"
	if got := string(res.Files["queries.fenced.sql"]); !strings.Contains(got, want) || !strings.Contains(got, "REPLACE INTO notes") {
		t.Errorf("got\n%s\nwant it to contain\n%s", got, want)
	}
}

package gen

import (
	"testing"
)

// FuzzParseSchema feeds arbitrary SQL to every engine's schema reader and
// the fenced-table selection: bad SQL must come back as an error, never a
// panic. The seeds double as a regression test under plain go test.
func FuzzParseSchema(f *testing.F) {
	seeds := []string{
		"CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);",
		"CREATE TABLE a (id int, fence int, PRIMARY KEY (id)); ALTER TABLE a ADD COLUMN b text; ALTER TABLE a RENAME TO b;",
		"CREATE TABLE a (x int GENERATED ALWAYS AS IDENTITY, fence bigint, UNIQUE (x)); ALTER TABLE a DROP COLUMN x;",
		"ALTER TABLE missing ADD COLUMN x int;",
		"CREATE VIEW v AS SELECT 1 AS fence; DROP VIEW v;",
		"CREATE TABLE `select` (`from` INT, fence BIGINT, PRIMARY KEY (`from`)); ALTER TABLE `select` CHANGE COLUMN `from` `to` INT;",
		"COMMENT ON COLUMN a.b IS 'x';",
		"CREATE TABLE a (id int); CREATE TABLE a (id int);",
		"",
		";;;",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		for _, engine := range []Engine{PostgreSQL, MySQL, SQLite} {
			s, err := ParseSchema(engine, []Source{{Path: "f.sql", Data: []byte(sql)}})
			if err != nil {
				continue
			}
			selectFenced(s, "", nil)
		}
	})
}

// FuzzFenceQueries feeds arbitrary queries files to the reading and
// rewriting of users' queries on every engine (sqlc is not run): bad SQL
// must come back as an error, never a panic.
func FuzzFenceQueries(f *testing.F) {
	seeds := []string{
		"-- name: A :exec\nUPDATE docs SET title = $2 WHERE id = $1;",
		"-- name: A :execrows\nUPDATE LOW_PRIORITY docs AS d SET d.title = ? WHERE d.id = ? ORDER BY d.id LIMIT 1;",
		"-- name: A :one\nDELETE FROM docs USING notes WHERE notes.id = docs.id RETURNING *;",
		"-- name: A :exec\nINSERT INTO docs AS d (id, title) VALUES (@id, @title), (?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title WHERE d.title <> '';",
		"-- name: A :exec\n-- fencegen:unfenced\nUPDATE docs SET title = '';",
		"-- name: A :exec\nUPDATE docs SET title = 'it\\'s # ?' WHERE `id` = [id] AND x = :x;",
		"-- name: A :many\nWITH d AS (DELETE FROM docs RETURNING id) SELECT * FROM d;",
		"UPDATE docs SET",
		"-- name: A :exec\nUPDATE docs SET title = ? WHERE",
		"-- name: A :exec\nREPLACE INTO docs (id, title) VALUES (?, ?);",
		"-- name: A :execrows\nINSERT INTO docs PARTITION (p0) (id, title) VALUES (?, 'a'), (2, ?) ON DUPLICATE KEY UPDATE title = IF(title = '', VALUES(title), title), id = id + 1;",
		"-- name: A :exec\nINSERT IGNORE docs SET id = ?, title = ? ON DUPLICATE KEY UPDATE title = CONCAT(title, ',', VALUES(title));",
		";;;",
		"",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	schemas := map[Engine]string{
		PostgreSQL: "CREATE TABLE docs (id bigint PRIMARY KEY, title text NOT NULL, fence bigint); CREATE TABLE notes (id bigint PRIMARY KEY);",
		MySQL:      "CREATE TABLE docs (id BIGINT PRIMARY KEY, title TEXT NOT NULL, fence BIGINT); CREATE TABLE notes (id BIGINT PRIMARY KEY);",
		SQLite:     "CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT NOT NULL, fence INTEGER); CREATE TABLE notes (id INTEGER PRIMARY KEY);",
	}
	parsed := map[Engine]*Schema{}
	for engine, sql := range schemas {
		s, err := ParseSchema(engine, []Source{{Path: "schema.sql", Data: []byte(sql)}})
		if err != nil {
			f.Fatal(err)
		}
		parsed[engine] = s
	}
	f.Fuzz(func(t *testing.T, queries string) {
		for engine, schema := range parsed {
			opts := Options{Engine: engine, Fence: DefaultFence, Compare: CompareLE, Queries: []Source{{Path: "q.sql", Data: []byte(queries)}}}
			files, err := fenceQueries(opts, schema)
			if err != nil {
				continue
			}
			for _, qs := range files {
				renderQueries(qs)
			}
		}
	})
}

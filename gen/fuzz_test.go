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

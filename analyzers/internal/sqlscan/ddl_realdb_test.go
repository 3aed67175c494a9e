package sqlscan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// The tests in this file check the DDL reader against real databases: each
// migration sequence is applied to a fresh database, and the unique keys
// its catalog lists (pg_index, information_schema.STATISTICS, SQLite's
// index_list and table_info) must be the keys sqlscan.Schema records, and
// the keys whose columns are all NOT NULL and none filled by the database
// (identity, serial, AUTO_INCREMENT, a random default) the ones it calls
// usable. Partial and expression indexes are left out on both sides (the
// partial ones sqlscan records, over rows where columns are NULL, too), and
// so are deferrable constraints, whose duplicate fails only at commit.

// schemaKeys renders a schema's keys as "table(a,b)" (usable: only the
// keys UniqueKeys returns), sorted.
func schemaKeys(s *sqlscan.Schema, usable bool) []string {
	var out []string
	for _, t := range s.Tables() {
		keys := t.Keys
		if usable {
			keys = s.UniqueKeys(t)
		}
		for _, k := range keys {
			if len(k.NullWhere) > 0 {
				continue // a partial index: the catalogs' queries leave them out
			}
			out = append(out, t.Name+"("+strings.Join(k.Columns, ",")+")")
		}
	}
	slices.Sort(out)
	return out
}

// catalogKeys turns "table|a,b|t" lines into the two sorted key lists.
func catalogKeys(out string) (all, usable []string) {
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			continue
		}
		key := strings.ToLower(f[0]) + "(" + strings.ToLower(f[1]) + ")"
		all = append(all, key)
		if f[2] == "t" || f[2] == "1" {
			usable = append(usable, key)
		}
	}
	slices.Sort(all)
	slices.Sort(usable)
	return all, usable
}

// checkSchema applies files to a fresh sqlscan.Schema and compares its keys
// with the catalog's.
func checkSchema(t *testing.T, files []string, catalog string, checkUsable bool) {
	t.Helper()
	s := sqlscan.NewSchema()
	for _, f := range files {
		s.Apply(f)
	}
	if s.Unknown() != "" {
		t.Fatalf("schema unknown: %s", s.Unknown())
	}
	for _, tb := range s.Tables() {
		if tb.Unknown != "" {
			t.Fatalf("table %s unknown: %s", tb.Name, tb.Unknown)
		}
	}
	all, usable := catalogKeys(catalog)
	if got := schemaKeys(s, false); !slices.Equal(got, all) {
		t.Errorf("keys = %q, the catalog says %q", got, all)
	}
	if got := schemaKeys(s, true); checkUsable && !slices.Equal(got, usable) {
		t.Errorf("usable keys = %q, the catalog says %q", got, usable)
	}
}

// ddlCase is one migration sequence.
type ddlCase struct {
	name  string
	files []string
}

func TestSchemaOnPostgreSQL(t *testing.T) {
	pg := startPostgres(t)
	cases := []ddlCase{
		{"keys of every form", []string{`
CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE TABLE runs (
	id bigserial PRIMARY KEY,
	ext uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
	job text NOT NULL,
	"Day" date NOT NULL,
	note text UNIQUE,
	CONSTRAINT runs_job_day UNIQUE (job, "Day")
);
CREATE TABLE steps (n integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, run bigint NOT NULL, k text NOT NULL);
CREATE UNIQUE INDEX steps_run ON steps (run);
CREATE UNIQUE INDEX steps_partial ON steps (n, run) WHERE run > 0;
CREATE UNIQUE INDEX steps_expr ON steps (lower(k));
CREATE TABLE rollups (chain_id varchar(5) NOT NULL, period smallint NOT NULL, end_time timestamptz NOT NULL, v double precision NOT NULL, PRIMARY KEY (end_time, chain_id, period));
CREATE TABLE plain (a integer PRIMARY KEY, b text);
CREATE TABLE deferred (a integer NOT NULL UNIQUE DEFERRABLE INITIALLY DEFERRED, b integer NOT NULL, UNIQUE (b) NOT DEFERRABLE);`}},
		{"altered over several migrations", []string{
			`CREATE TABLE t (a int NOT NULL, b int NOT NULL, c int NOT NULL);`,
			`ALTER TABLE t ADD CONSTRAINT t_ab UNIQUE (a, b), ADD PRIMARY KEY (c);`,
			`ALTER TABLE t DROP CONSTRAINT t_ab; ALTER TABLE t ADD COLUMN d int NOT NULL UNIQUE;`,
			`ALTER TABLE t DROP COLUMN c; CREATE UNIQUE INDEX t_a ON t (a); CREATE UNIQUE INDEX ON t (b);`,
			`DROP INDEX t_a; ALTER TABLE t RENAME COLUMN b TO bb; ALTER TABLE t RENAME TO tt;`,
			`CREATE TABLE u (x int NOT NULL UNIQUE, y int NOT NULL PRIMARY KEY); ALTER TABLE u DROP CONSTRAINT u_x_key, DROP CONSTRAINT u_pkey;`,
			`CREATE TABLE v (x int); ALTER TABLE v ALTER COLUMN x SET NOT NULL; ALTER TABLE v ADD UNIQUE (x); DROP TABLE IF EXISTS gone;`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := "SET client_min_messages = warning;\nDROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n" + strings.Join(c.files, "\n") + `
\t on
SELECT c.relname, string_agg(a.attname, ',' ORDER BY k.ord),
	bool_and(a.attnotnull AND a.attidentity = '' AND a.attgenerated = ''
		AND coalesce(pg_get_expr(d.adbin, d.adrelid), '') !~ '(nextval|gen_random_uuid|uuid_generate)')
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE i.indisunique AND i.indimmediate AND i.indpred IS NULL AND i.indexprs IS NULL AND n.nspname = 'public'
GROUP BY c.relname, i.indexrelid;
`
			out := run(t, script, "psql", "-X", "-q", "-A", "-v", "ON_ERROR_STOP=1", "-h", pg.sock, "-U", "postgres", "-d", "postgres")
			checkSchema(t, c.files, out, true)
		})
	}
}

func TestSchemaOnMariaDB(t *testing.T) {
	my := startMariaDB(t)
	cases := []ddlCase{
		{"keys of every form", []string{"CREATE TABLE raw_blocks (\n" +
			"	id bigint UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n" +
			"	chain_id varchar(5) NOT NULL,\n" +
			"	hash varchar(100) NOT NULL,\n" +
			"	`key` varchar(20) NOT NULL,\n" +
			"	UNIQUE KEY uq_hash (hash(40)),\n" +
			"	KEY idx_chain (chain_id)\n" +
			") ENGINE=InnoDB;\n" +
			"CREATE TABLE blocks (\n" +
			"	chain_id varchar(5) NOT NULL,\n" +
			"	period tinyint(1) UNSIGNED NOT NULL,\n" +
			"	end_time datetime NOT NULL,\n" +
			"	note varchar(20) UNIQUE,\n" +
			"	PRIMARY KEY (end_time, chain_id, period),\n" +
			"	INDEX idx_blocks_chain_id_period (chain_id, period),\n" +
			"	CONSTRAINT uq_note_chain UNIQUE (note, chain_id)\n" +
			");\n" +
			"CREATE UNIQUE INDEX uq_key ON raw_blocks (`key`);"}},
		{"altered over several migrations", []string{
			"CREATE TABLE t (a int NOT NULL, b int NOT NULL, c int NOT NULL);",
			"ALTER TABLE t ADD CONSTRAINT t_ab UNIQUE (a, b), ADD PRIMARY KEY (c);",
			"ALTER TABLE t DROP INDEX t_ab; ALTER TABLE t ADD COLUMN d int NOT NULL UNIQUE;",
			"ALTER TABLE t DROP PRIMARY KEY; CREATE UNIQUE INDEX t_a ON t (a); ALTER TABLE t ADD UNIQUE KEY t_b (b);",
			"DROP INDEX t_a ON t; ALTER TABLE t MODIFY b int NULL; RENAME TABLE t TO tt;",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := "DROP DATABASE IF EXISTS ddl;\nCREATE DATABASE ddl;\nUSE ddl;\n" + strings.Join(c.files, "\n") + `
SELECT s.TABLE_NAME, GROUP_CONCAT(s.COLUMN_NAME ORDER BY s.SEQ_IN_INDEX SEPARATOR ','),
	MIN(c.IS_NULLABLE = 'NO' AND c.EXTRA NOT LIKE '%auto_increment%' AND c.EXTRA NOT LIKE '%GENERATED%'
		AND COALESCE(c.COLUMN_DEFAULT, '') NOT LIKE '%uuid%')
FROM information_schema.STATISTICS s
JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME
WHERE s.TABLE_SCHEMA = 'ddl' AND s.NON_UNIQUE = 0
GROUP BY s.TABLE_NAME, s.INDEX_NAME;
`
			out := run(t, script, "mariadb", "--no-defaults", "-S", my.sock, "-u", "root", "-N", "-B")
			checkSchema(t, c.files, strings.ReplaceAll(out, "\t", "|"), true)
		})
	}
}

func TestSchemaOnSQLite(t *testing.T) {
	cases := []ddlCase{
		{"keys of every form", []string{`
CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, x TEXT, y TEXT, UNIQUE (x, y));
CREATE TABLE b (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE d (k TEXT NOT NULL, j INT NOT NULL, PRIMARY KEY (k, j)) WITHOUT ROWID;
CREATE UNIQUE INDEX b_v ON b (v);
CREATE UNIQUE INDEX b_partial ON b (v, k) WHERE v IS NOT NULL;`}},
		{"altered over several migrations", []string{
			`CREATE TABLE t (a int NOT NULL, b int NOT NULL, c int NOT NULL);`,
			`CREATE UNIQUE INDEX t_ab ON t (a, b); ALTER TABLE t ADD COLUMN d int;`,
			`DROP INDEX t_ab; CREATE UNIQUE INDEX t_c ON t (c);`,
			`ALTER TABLE t RENAME COLUMN c TO cc; ALTER TABLE t RENAME TO tt; DROP TABLE IF EXISTS gone;`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := ".bail on\n" + strings.Join(c.files, "\n") + `
SELECT m.name, (SELECT group_concat(name, ',') FROM (SELECT ii.name FROM pragma_index_info(il.name) ii ORDER BY ii.seqno)), 0
FROM sqlite_master m, pragma_index_list(m.name) il
WHERE m.type = 'table' AND il."unique" = 1 AND il.partial = 0 AND il.origin <> 'pk';
SELECT m.name, (SELECT group_concat(name, ',') FROM (SELECT p.name FROM pragma_table_info(m.name) p WHERE p.pk > 0 ORDER BY p.pk)), 0
FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.pk > 0);
`
			out := run(t, script, "sqlite3", "-batch", ":memory:")
			checkSchema(t, c.files, out, false)
		})
	}
}

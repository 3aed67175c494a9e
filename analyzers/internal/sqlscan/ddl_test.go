package sqlscan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// keysOf renders the unique keys of each table the way the tests write
// them: "table(a,b)" per usable key, sorted; an unknown table is
// "table?".
func keysOf(s *Schema, usable bool) []string {
	var out []string
	for _, t := range s.Tables() {
		if t.Unknown != "" {
			out = append(out, t.Name+"?")
			continue
		}
		keys := t.Keys
		if usable {
			keys = s.UniqueKeys(t)
		}
		for _, k := range keys {
			key := t.Name + "(" + strings.Join(k.Columns, ",") + ")"
			if len(k.NullWhere) > 0 {
				key += " where " + strings.Join(k.NullWhere, ",") + " null"
			}
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

func TestSchemaKeys(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		want  []string // usable keys (UniqueKeys)
	}{
		{"MySQL table-level primary key, auto-increment id", []string{`
CREATE TABLE raw_blocks (
	id bigint UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
	chain_id varchar(5) NOT NULL,
	hash varchar(100) NOT NULL
);
CREATE TABLE blocks (
	chain_id varchar(5) NOT NULL,
	period tinyint(1) UNSIGNED NOT NULL,
	end_time datetime NOT NULL,
	` + "`key`" + ` varchar(20) NOT NULL,
	PRIMARY KEY (end_time, chain_id, period),
	INDEX idx_blocks_chain_id_period (chain_id, period),
	UNIQUE KEY uq_key (` + "`key`" + `)
) ENGINE=InnoDB;`}, []string{"blocks(end_time,chain_id,period)", "blocks(key)"}},
		{"PostgreSQL serial, identity, uuid default, constraints", []string{`
CREATE TABLE runs (
	id bigserial PRIMARY KEY,
	ext uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
	job text NOT NULL,
	day date NOT NULL,
	note text UNIQUE,
	CONSTRAINT runs_job_day UNIQUE (job, day)
);
CREATE TABLE steps (n integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, run bigint NOT NULL);
CREATE UNIQUE INDEX steps_run ON steps (run);
CREATE UNIQUE INDEX steps_partial ON steps (n, run) WHERE run > 0;
CREATE UNIQUE INDEX steps_expr ON steps (lower(run::text));`}, []string{"runs(job,day)", "steps(run)"}},
		{"SQLite rowid alias, nullable primary key, ON CONFLICT REPLACE", []string{`
CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE b (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE c (k TEXT NOT NULL PRIMARY KEY ON CONFLICT REPLACE, v TEXT);
CREATE TABLE d (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;`}, []string{"a(name)", "d(k)"}},
		{"ALTER TABLE adds and drops, migrations in order", []string{
			`CREATE TABLE t (a int NOT NULL, b int NOT NULL, c int NOT NULL);`,
			`ALTER TABLE t ADD CONSTRAINT t_ab UNIQUE (a, b), ADD PRIMARY KEY (c);`,
			`ALTER TABLE t DROP CONSTRAINT t_ab; ALTER TABLE t ADD COLUMN d int NOT NULL UNIQUE;`,
			`ALTER TABLE t DROP COLUMN c; CREATE UNIQUE INDEX t_a ON t (a);`,
			`DROP INDEX t_a;`,
		}, []string{"t(d)"}},
		{"an unreadable ALTER makes the table unknown", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY); CREATE TABLE u (a int NOT NULL PRIMARY KEY);`,
			`ALTER TABLE t SPLIT PARTITION p INTO (q);`,
		}, []string{"t?", "u(a)"}},
		{"DROP TABLE and re-create", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY);`,
			`DROP TABLE IF EXISTS t; CREATE TABLE t (a int NOT NULL, b int NOT NULL, UNIQUE (b));`,
		}, []string{"t(b)"}},
		{"a DO block that runs DDL makes every table unknown", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY);`,
			`DO $$ BEGIN EXECUTE 'ALTER TABLE t DROP CONSTRAINT t_pkey'; END $$;`,
		}, nil},
		{"a DO block that only creates partitions changes no keys", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY); CREATE TABLE log (ts timestamptz NOT NULL) PARTITION BY RANGE (ts);`,
			`DO $$ BEGIN EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF log FOR VALUES FROM (%L) TO (%L)', 'log_1', now(), now()); END $$;`,
		}, []string{"t(a)"}},
		{"a DO block that creates a table may pre-empt a later definition", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY);`,
			`DO $$ BEGIN EXECUTE 'CREATE TABLE IF NOT EXISTS u (a int)'; END $$;`,
		}, nil},
		{"a constraint dropped by a name fencelint does not know", []string{
			`CREATE TABLE t (a int NOT NULL, UNIQUE (a));`,
			`ALTER TABLE t DROP CONSTRAINT weird_name;`,
		}, []string{"t?"}},
		{"a deferrable key fails only at commit", []string{
			`CREATE TABLE t (a int NOT NULL UNIQUE DEFERRABLE INITIALLY DEFERRED, b int NOT NULL, c int NOT NULL, UNIQUE (b) DEFERRABLE, UNIQUE (c) NOT DEFERRABLE);`,
		}, []string{"t(c)"}},
		{"PostgreSQL default names are dropped", []string{
			`CREATE TABLE t (a int NOT NULL UNIQUE, b int NOT NULL PRIMARY KEY);`,
			`ALTER TABLE t DROP CONSTRAINT t_a_key; ALTER TABLE t DROP CONSTRAINT t_pkey;`,
		}, nil},
		{"goose down section and a trigger", []string{`
-- +goose Up
CREATE TABLE t (a int NOT NULL PRIMARY KEY);
CREATE TABLE u (a int NOT NULL PRIMARY KEY);
CREATE TRIGGER u_ins BEFORE INSERT ON u FOR EACH ROW EXECUTE FUNCTION f();
-- +goose Down
DROP TABLE t;`}, []string{"t(a)", "u?"}},
		{"CREATE TABLE AS and LIKE are unknown", []string{
			`CREATE TABLE t AS SELECT 1 AS a; CREATE TABLE u (LIKE t INCLUDING ALL);`,
		}, []string{"t?", "u?"}},
		{"unterminated text makes the schema unknown", []string{
			`CREATE TABLE t (a int NOT NULL PRIMARY KEY);`, `CREATE TABLE u (a text DEFAULT 'x`,
		}, nil},
		{"partial indexes over rows where columns are NULL", []string{`
CREATE TABLE jobs (
	id bigserial PRIMARY KEY,
	tenant text NOT NULL,
	name text NOT NULL,
	deleted_at timestamptz,
	ended_at timestamptz DEFAULT NULL,
	state text NOT NULL DEFAULT 'new',
	archived_at timestamptz DEFAULT now()
);
CREATE UNIQUE INDEX jobs_live_name ON jobs (tenant, name) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS jobs_one_running ON jobs ((TRUE)) WHERE (ended_at IS NULL AND (deleted_at IS NULL));
CREATE UNIQUE INDEX jobs_running ON jobs (tenant) WHERE state = 'running';
CREATE UNIQUE INDEX jobs_unarchived ON jobs (name) WHERE archived_at IS NULL;
CREATE UNIQUE INDEX jobs_either ON jobs (name) WHERE deleted_at IS NULL OR ended_at IS NULL;
CREATE UNIQUE INDEX jobs_lower ON jobs ((lower(name))) WHERE deleted_at IS NULL;`},
			[]string{"jobs() where deleted_at,ended_at null", "jobs(tenant,name) where deleted_at null"}},
		{"a partial index goes with the column its predicate tests", []string{
			`CREATE TABLE t (a int NOT NULL, b int NOT NULL, gone_at timestamp, done_at timestamp);
CREATE UNIQUE INDEX t_a ON t (a) WHERE gone_at IS NULL;
CREATE UNIQUE INDEX t_b ON t (b) WHERE done_at IS NULL;
CREATE UNIQUE INDEX t_b_any ON t (b);`,
			`ALTER TABLE t DROP COLUMN gone_at; ALTER TABLE t RENAME COLUMN done_at TO finished_at;`,
			`ALTER TABLE t ALTER COLUMN finished_at SET DEFAULT now();`,
		}, []string{"t(b)"}},
		{"garbage never panics", []string{`CREATE TABLE (((;ALTER TABLE;DROP INDEX;CREATE UNIQUE INDEX ON;ALTER TABLE t ADD`, `)))`}, []string{"t?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSchema()
			for _, f := range c.files {
				s.Apply(f)
			}
			if got := keysOf(s, true); !slices.Equal(got, c.want) {
				t.Errorf("keys = %q, want %q (schema unknown: %q)", got, c.want, s.Unknown())
			}
		})
	}
}

func TestMigrationOrder(t *testing.T) {
	names := []string{"10_c.up.sql", "2_b.up.sql", "1_a.up.sql", "000_init.sql", "0003_x.sql"}
	slices.SortFunc(names, func(a, b string) int {
		if MigrationLess(a, b) {
			return -1
		}
		if MigrationLess(b, a) {
			return 1
		}
		return 0
	})
	want := []string{"000_init.sql", "1_a.up.sql", "2_b.up.sql", "0003_x.sql", "10_c.up.sql"}
	if !slices.Equal(names, want) {
		t.Errorf("order = %q, want %q", names, want)
	}
	for name, down := range map[string]bool{"1_a.down.sql": true, "000_init.down.sql": true, "000_init.sql": false, "down/1.sql": true, "x/1_up.sql": false} {
		if IsDownMigration(name) != down {
			t.Errorf("IsDownMigration(%q) = %v", name, !down)
		}
	}
}

// TestForeignChanges checks what a sequence records of its statements on
// tables it does not define: what weakens a key, not what adds.
func TestForeignChanges(t *testing.T) {
	s := NewSchema()
	s.Apply("CREATE TABLE own (a int NOT NULL, UNIQUE KEY own_a (a));\n" +
		"ALTER TABLE vfm.gallery_image ADD KEY gallery_name_idx (gallery_no, name), DROP KEY gallery_no_idx;\n" +
		"ALTER TABLE file_info ADD COLUMN is_comic tinyint NOT NULL DEFAULT 0, ADD UNIQUE (path);\n" +
		"ALTER TABLE users CHANGE COLUMN is_del deleted tinyint(1) NOT NULL, MODIFY name varchar(64) NULL, DROP PRIMARY KEY;\n" +
		"ALTER TABLE notes ENGINE = InnoDB, COMMENT = 'notes', RENAME COLUMN body TO text;\n" +
		"ALTER TABLE old_jobs RENAME TO jobs;\n" +
		"ALTER TABLE parts PARTITION BY HASH (id);\n" +
		"DROP INDEX own_a ON own; DROP INDEX tallies_day_shard; DROP INDEX x_idx ON other;\n")
	var got []string
	for _, c := range s.Changes() {
		got = append(got, fmt.Sprintf("%s key=%s primary=%v column=%s unknown=%v", c.Table, c.Key, c.Primary, c.Column, c.Unknown != ""))
	}
	want := []string{
		"gallery_image key=gallery_no_idx primary=false column= unknown=false",
		"users key= primary=false column=is_del unknown=false",
		"users key= primary=false column=name unknown=false",
		"users key= primary=true column= unknown=false",
		"notes key= primary=false column=body unknown=false",
		"old_jobs key= primary=false column= unknown=true",
		"jobs key= primary=false column= unknown=true",
		"parts key= primary=false column= unknown=true",
		" key=tallies_day_shard primary=false column= unknown=false",
		"other key=x_idx primary=false column= unknown=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if keys := keysOf(s, false); len(keys) != 0 {
		t.Errorf("own keys = %q, want none (dropped by name)", keys)
	}
}

// TestApplyChecked checks that unreadable statements are reported at
// their offsets, and statements merely distrusted or skipped are not.
func TestApplyChecked(t *testing.T) {
	text := "CREATE TABLE t (a int PRIMARY KEY);\n" +
		"INSERT INTO t VALUES (1);\n" +
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();\n" +
		"ALTER TABLE t FROBNICATE;\n" +
		"ALTER TABLE t CHANGE a b int;\n"
	got := NewSchema().ApplyChecked(text)
	want := []Problem{{Offset: strings.Index(text, "ALTER TABLE t FROB"), Msg: "an ALTER TABLE action cannot be read"}}
	if !slices.Equal(got, want) {
		t.Errorf("problems = %+v, want %+v", got, want)
	}
	text = "CREATE TABLE t (a int);\nSELECT 'open;\n"
	got = NewSchema().ApplyChecked(text)
	if len(got) != 1 || got[0].Offset != strings.Index(text, "'open") {
		t.Errorf("problems = %+v, want one at the unterminated quote", got)
	}
}

func FuzzSchema(f *testing.F) {
	f.Add("CREATE TABLE t (a int NOT NULL PRIMARY KEY, b text UNIQUE); ALTER TABLE t ADD UNIQUE (b); DROP INDEX x;")
	f.Add("ALTER TABLE t RENAME TO u; RENAME TABLE u TO v, w TO x; CREATE UNIQUE INDEX ON v (a);")
	f.Add("ALTER TABLE other DROP KEY k, CHANGE a b int, MODIFY, DROP, RENAME TO y, RENAME INDEX; DROP INDEX z; ALTER TABLE q RENAME COLUMN")
	f.Fuzz(func(t *testing.T, text string) {
		s := NewSchema()
		for _, p := range s.ApplyChecked(text) {
			if p.Offset < 0 || p.Offset > len(text) {
				t.Errorf("problem %+v outside the text", p)
			}
		}
		for _, tb := range s.Tables() {
			s.UniqueKeys(tb)
		}
	})
}

func TestMayHoldFreshID(t *testing.T) {
	my := NewSchema()
	my.Apply("CREATE TABLE t (a int UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, b varchar(5), c varchar(36), d datetime, e bigint, f tinyint(1), g char(26), h binary(16), i text, j custom_type);")
	lite := NewSchema()
	lite.Apply("CREATE TABLE t (a INTEGER, b INT, c TEXT, d REAL);")
	for _, c := range []struct {
		s    *Schema
		col  string
		want bool
	}{
		{my, "a", false}, {my, "b", false}, {my, "c", true}, {my, "d", false}, {my, "e", true}, {my, "f", false},
		{my, "g", true}, {my, "h", true}, {my, "i", true}, {my, "j", true},
		{lite, "a", true}, {lite, "b", true}, {lite, "c", true}, {lite, "d", false},
	} {
		if got := c.s.MayHoldFreshID(c.s.Table("t").Column(c.col)); got != c.want {
			t.Errorf("MayHoldFreshID(%s) = %v, want %v", c.col, got, c.want)
		}
	}
}

func TestAccumulates(t *testing.T) {
	for q, want := range map[string]bool{
		`UPDATE totals SET n = n + $1 WHERE chain_id = $2`:                                                                true,
		`UPDATE totals SET n = totals.n - ?, m = m + 1 WHERE id = ?`:                                                      true,
		`INSERT INTO totals (chain_id, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = n + VALUES(n)`:                        true,
		`INSERT INTO totals (chain_id, n) VALUES ($1, $2) ON CONFLICT (chain_id) DO UPDATE SET n = totals.n + EXCLUDED.n`: true,
		`UPDATE totals SET n = $1 WHERE chain_id = $2`:                                                                    false,
		`UPDATE totals SET n = n + 1, last = $1 WHERE chain_id = $2`:                                                      false,
		`UPDATE totals SET n = n + 1 * 2 WHERE id = 1`:                                                                    false,
		`UPDATE totals SET n = m + 1 WHERE id = 1`:                                                                        false,
		`INSERT INTO totals (chain_id, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = VALUES(n)`:                            false,
		`INSERT INTO totals (chain_id, n) VALUES (?, ?)`:                                                                  false,
	} {
		s := Parse(q)
		if got := len(s.Statements) == 1 && s.Statements[0].Accumulates; got != want {
			t.Errorf("Accumulates(%s) = %v, want %v", q, got, want)
		}
	}
}

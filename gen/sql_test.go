package gen

import (
	"strings"
	"testing"
)

func TestIdent(t *testing.T) {
	tests := []struct {
		engine Engine
		name   string
		want   string
	}{
		{PostgreSQL, "docs", "docs"},
		{PostgreSQL, "order", `"order"`},
		{PostgreSQL, "user", `"user"`},
		{PostgreSQL, "name", "name"}, // unreserved keyword
		{PostgreSQL, "OrderLine", `"OrderLine"`},
		{PostgreSQL, `we"ird`, `"we""ird"`},
		{PostgreSQL, "1st", `"1st"`},
		{MySQL, "docs", "docs"},
		{MySQL, "select", "`select`"},
		{MySQL, "OrderLine", "`OrderLine`"},
		{MySQL, "we`ird", "`we``ird`"},
		{SQLite, "docs", "docs"},
		{SQLite, "order", `"order"`},
		{SQLite, "OrderLine", `"OrderLine"`},
	}
	for _, tt := range tests {
		if got := newDialect(tt.engine).ident(tt.name); got != tt.want {
			t.Errorf("%s ident(%q) = %s, want %s", tt.engine, tt.name, got, tt.want)
		}
	}
}

func TestGoTypeName(t *testing.T) {
	tests := []struct {
		schema, name, want string
	}{
		{"", "docs", "Doc"},
		{"app", "settings", "AppSetting"},
		{"", "OrderLine", "OrderLine"},
		{"", "user_ids", "UserID"},
		{"", "campus", "Campus"},
		{"", "calories", "Calorie"},
		{"", "2fa_codes", "_2faCode"},
	}
	for _, tt := range tests {
		if got := goTypeName(&Table{Schema: tt.schema, Name: tt.name}); got != tt.want {
			t.Errorf("goTypeName(%s.%s) = %s, want %s", tt.schema, tt.name, got, tt.want)
		}
	}
}

// TestSelectFenced checks which tables are fenced, the key chosen, and the
// errors and warnings, on PostgreSQL schemas.
func TestSelectFenced(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		fence    string
		perTable map[string]string
		want     string // "table(key)" per fenced table, then "warn: ..." lines
		wantErr  string
	}{
		{
			name:   "keys, views and tables without a fence",
			schema: "CREATE TABLE a (id bigint PRIMARY KEY, fence bigint);\nCREATE TABLE b (x int);\nCREATE TABLE c (k text, j text NOT NULL, fence bigint, UNIQUE (k), UNIQUE (j));\nCREATE VIEW v AS SELECT id AS fence FROM a;",
			want:   "a(id) c(j)",
		},
		{
			name:   "no key and narrow fence warn",
			schema: "CREATE TABLE a (id bigint, fence bigint);\nCREATE TABLE b (id bigint PRIMARY KEY, fence smallint);",
			want:   "b(id)\nwarn: s.sql:1:14: a has fence column \"fence\" but no primary key or unique constraint of NOT NULL columns to name its rows; it is not fenced\nwarn: s.sql:2:40: fence column \"fence\" of b has type int2, narrower than 64 bits; writes with a token it cannot store fail with ErrTokenOutOfRange, and etcd revisions and ZooKeeper zxids outgrow it: use bigint",
		},
		{
			name:   "global and per-table names",
			schema: "CREATE TABLE a (id bigint PRIMARY KEY, epoch bigint);\nCREATE TABLE b (id bigint PRIMARY KEY, tok bigint, epoch bigint);",
			fence:  "epoch", perTable: map[string]string{"b": "tok"},
			want: "a(id) b(id)",
		},
		{
			name:    "generated fence",
			schema:  "CREATE TABLE a (id bigint PRIMARY KEY, fence bigint GENERATED ALWAYS AS (id * 2) STORED);",
			wantErr: "s.sql:1:40: fence column \"fence\" of a is generated; the token must be written by the holder",
		},
		{
			name:    "fence in key",
			schema:  "CREATE TABLE a (id bigint, fence bigint, PRIMARY KEY (id, fence));",
			wantErr: "s.sql:1:28: fence column \"fence\" of a is part of its key; the fence must be a separate column",
		},
		{
			name:    "numeric fence",
			schema:  "CREATE TABLE a (id bigint PRIMARY KEY, fence numeric);",
			wantErr: "s.sql:1:40: fence column \"fence\" of a has type numeric; a fencing token must be stored in an integer column (bigint)",
		},
		{
			name:     "per-table fence for a missing table",
			schema:   "CREATE TABLE a (id bigint PRIMARY KEY, fence bigint);",
			perTable: map[string]string{"app.a": "fence"},
			wantErr:  "fence column configured for table \"app.a\", which the schema does not define",
		},
		{
			name:    "no Go name",
			schema:  "CREATE TABLE \"_\" (id bigint PRIMARY KEY, fence bigint);",
			wantErr: "s.sql:1:14: table name \"_\" gives no Go identifier for its methods; rename the table",
		},
		{
			name:    "Go name collision",
			schema:  "CREATE TABLE doc (id bigint PRIMARY KEY, fence bigint);\nCREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);",
			wantErr: "s.sql:2:14: docs and doc (s.sql:1:14) both map to the Go name Doc; rename one",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSchema(PostgreSQL, []Source{{Path: "s.sql", Data: []byte(tt.schema)}})
			if err != nil {
				t.Fatal(err)
			}
			tables, warnings, err := selectFenced(s, tt.fence, tt.perTable)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ft := range tables {
				got = append(got, ft.QualifiedName()+"("+strings.Join(ft.Key, ",")+")")
			}
			out := strings.Join(got, " ")
			for _, w := range warnings {
				out += "\nwarn: " + w.String()
			}
			if out != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}

// TestGeneratedKeyNoUpsert checks that a MySQL or SQLite table keyed by a
// generated column gets an UPDATE and a DELETE but no upsert (an insert
// cannot set the key), with a warning; PostgreSQL is the golden case
// generated-key.
func TestGeneratedKeyNoUpsert(t *testing.T) {
	for _, tt := range []struct {
		engine Engine
		schema string
		warn   string
	}{
		{MySQL, "CREATE TABLE d (\n  a bigint NOT NULL,\n  id bigint AS (a * 2) STORED PRIMARY KEY,\n  fence bigint\n);", "s.sql:3:3: key column \"id\" of d is generated"},
		{SQLite, "CREATE TABLE d (\n  a INTEGER NOT NULL,\n  id INTEGER GENERATED ALWAYS AS (a * 2) STORED NOT NULL UNIQUE,\n  fence INTEGER\n);", "s.sql:3:3: key column \"id\" of d is generated"},
	} {
		t.Run(string(tt.engine), func(t *testing.T) {
			s, err := ParseSchema(tt.engine, []Source{{Path: "s.sql", Data: []byte(tt.schema)}})
			if err != nil {
				t.Fatal(err)
			}
			tables, warnings, err := selectFenced(s, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(tables) != 1 || !tables[0].NoUpsert {
				t.Fatalf("tables %v: want d fenced without upsert", tables)
			}
			if len(warnings) != 1 || !strings.HasPrefix(warnings[0].String(), tt.warn) {
				t.Errorf("warnings %v, want one starting %q", warnings, tt.warn)
			}
			sql := renderFencedSQL(tt.engine, CompareLE, tables, tokenSources{})
			if strings.Contains(sql, "fencedUpsert") || !strings.Contains(sql, "fencedUpdateD") || !strings.Contains(sql, "fencedDeleteD") {
				t.Errorf("fenced.sql:\n%s\nwant an update and a delete, no upsert", sql)
			}
		})
	}
}

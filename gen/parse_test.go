package gen

import (
	"fmt"
	"strings"
	"testing"
)

// describe renders the parts of a schema the tests check, one table a line.
func describe(s *Schema) string {
	var b strings.Builder
	for _, t := range s.Tables {
		kind := "table"
		if t.View {
			kind = "view"
		}
		fmt.Fprintf(&b, "%s %s @%d:%d", kind, t.QualifiedName(), t.Pos.Line, t.Pos.Col)
		if len(t.PrimaryKey) > 0 {
			fmt.Fprintf(&b, " pk(%s)", strings.Join(t.PrimaryKey, ","))
		}
		for _, u := range t.Uniques {
			fmt.Fprintf(&b, " unique(%s)", strings.Join(u, ","))
		}
		if t.Comment != "" {
			fmt.Fprintf(&b, " comment=%q", t.Comment)
		}
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "; %s %s", c.Name, c.Type)
			if c.NotNull {
				b.WriteString(" notnull")
			}
			if c.Generated {
				b.WriteString(" generated")
			}
			if c.IdentityAlways {
				b.WriteString(" identity-always")
			}
			fmt.Fprintf(&b, " @%d:%d", c.Pos.Line, c.Pos.Col)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestParseSchema(t *testing.T) {
	tests := []struct {
		name   string
		engine Engine
		files  []string
		want   string
	}{
		{
			name:   "postgres keys, identity, generated, quoted names, schemas",
			engine: PostgreSQL,
			files: []string{`CREATE SCHEMA app;
CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);
CREATE TABLE "order" (
  tenant int NOT NULL,
  "OrderLine" int NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  total numeric GENERATED ALWAYS AS (tenant * 2) STORED,
  fence bigint NOT NULL,
  PRIMARY KEY ("OrderLine", tenant),
  UNIQUE (id)
);
CREATE TABLE public.settings (k text PRIMARY KEY, fence int8);
CREATE TABLE app.settings (k text, v jsonb, fence int8, UNIQUE (k));
CREATE VIEW doc_bodies AS SELECT body FROM docs;
`, `ALTER TABLE docs ADD COLUMN tags text[];
COMMENT ON TABLE docs IS 'documents';
COMMENT ON COLUMN app.settings.v IS 'value';
`},
			want: `table docs @2:14 pk(id) comment="documents"; id int8 notnull @2:20; body text notnull @2:43; fence int8 @2:63; tags text[] @1:29
table order @3:14 pk(OrderLine,tenant) unique(id); tenant int4 notnull @4:3; OrderLine int4 notnull @5:3; id int8 notnull identity-always @6:3; total numeric generated @7:3; fence int8 notnull @8:3
table settings @12:14 pk(k); k text notnull @12:31; fence int8 @12:51
table app.settings @13:14 unique(k); k text @13:28; v jsonb @13:36; fence int8 @13:45
view doc_bodies @14:13
`,
		},
		{
			name:   "mysql keys, generated, backquoted names, alter",
			engine: MySQL,
			files: []string{"CREATE TABLE docs (id BIGINT PRIMARY KEY, body TEXT NOT NULL, fence BIGINT) COMMENT 'documents';\n" +
				"CREATE TABLE `select` (\n  b INT NOT NULL,\n  a INT NOT NULL,\n  doubled INT AS (a * 2) STORED,\n  fence BIGINT UNSIGNED NOT NULL,\n  PRIMARY KEY (b, a)\n);\n" +
				"ALTER TABLE docs ADD COLUMN tags VARCHAR(255);\n" +
				"CREATE VIEW doc_bodies AS SELECT body FROM docs;\n"},
			want: "table docs @1:14 pk(id) comment=\"documents\"; id bigint notnull @1:20; body text notnull @1:43; fence bigint @1:63; tags varchar @9:29\n" +
				"table select @2:14 pk(b,a); b int notnull @3:3; a int notnull @4:3; doubled int generated @5:3; fence bigint unsigned notnull @6:3\n" +
				"view doc_bodies @10:13\n",
		},
		{
			name:   "sqlite keys, generated, quoted names, alter",
			engine: SQLite,
			files: []string{`CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT NOT NULL, fence INTEGER);
CREATE TABLE "order" (
  b INT NOT NULL,
  a INT NOT NULL,
  doubled INT GENERATED ALWAYS AS (a * 2) VIRTUAL,
  fence INTEGER,
  code TEXT NOT NULL,
  PRIMARY KEY (b, a),
  UNIQUE (code, b)
);
-- a view is never fenced
CREATE VIEW doc_bodies AS SELECT body FROM docs;
`, "ALTER TABLE docs ADD COLUMN tags TEXT;\n"},
			want: `table docs @1:14 pk(id); id integer notnull @1:20; body text notnull @1:44; fence integer @1:64; tags text @1:29
table order @2:14 pk(b,a) unique(code,b); b int notnull @3:3; a int notnull @4:3; doubled int generated @5:3; fence integer @6:3; code text notnull @7:3
view doc_bodies @12:13
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sources []Source
			for i, f := range tt.files {
				sources = append(sources, Source{Path: fmt.Sprintf("schema%d.sql", i), Data: []byte(f)})
			}
			s, err := ParseSchema(tt.engine, sources)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(s); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestParseSchemaErrors(t *testing.T) {
	tests := []struct {
		name   string
		engine Engine
		files  []string
		want   string
	}{
		{"postgres syntax", PostgreSQL, []string{"CREATE TABLE a (id int);\nCREATE TABLE b (id int,, x int);"}, `schema0.sql:2:24: syntax error at or near ","`},
		{"postgres unknown type", PostgreSQL, []string{"CREATE TABLE a (\n  id bigint,\n  x widget\n);"}, `schema0.sql:3:5: unknown type "widget"; declare it (CREATE TYPE, CREATE DOMAIN, CREATE EXTENSION) before this table`},
		{"postgres enum is known", PostgreSQL, []string{"CREATE TYPE widget AS ENUM ('a');\nCREATE TABLE a (x widget, y int);\nCREATE TABLE a (id int);"}, "schema0.sql:3:14: table a is already defined at schema0.sql:2:14; remove or rename one of them"},
		{"postgres duplicate across files", PostgreSQL, []string{"CREATE TABLE a (id int);", "\n\nCREATE TABLE public.a (id int);"}, "schema1.sql:3:14: table a is already defined at schema0.sql:1:14; remove or rename one of them"},
		{"postgres duplicate type", PostgreSQL, []string{"CREATE TYPE mood AS ENUM ('a');\nCREATE TABLE a (m mood);\n\nCREATE TYPE mood AS ENUM ('b');"}, "schema0.sql:4:1: type mood is already defined at schema0.sql:1:1; remove or rename one of them"},
		{"postgres missing schema", PostgreSQL, []string{"CREATE TABLE app.a (id int);"}, "schema0.sql:1:14: schema \"app\" does not exist; add CREATE SCHEMA app before this statement"},
		{"mysql missing database", MySQL, []string{"CREATE TABLE app.a (id int);"}, "schema0.sql:1:18: schema \"app\" does not exist; add CREATE DATABASE app before this statement"},
		{"postgres table named like a type", PostgreSQL, []string{"CREATE TYPE mood AS ENUM ('a');\nCREATE TABLE mood (id int);"}, "schema0.sql:2:14: table mood has the name of the type defined at schema0.sql:1:1; PostgreSQL keeps both in one namespace"},
		{"postgres alter unknown table", PostgreSQL, []string{"ALTER TABLE nope ADD COLUMN x int;"}, "schema0.sql:1:13: table nope is not defined before this statement"},
		{"postgres bad primary key column", PostgreSQL, []string{"CREATE TABLE a (id int, PRIMARY KEY (idd));"}, `schema0.sql:1:25: primary key of a names column "idd", which a does not have`},
		{"mysql syntax", MySQL, []string{"CREATE TABLE a (id int);\nCREATE TABLE b (id int,, x int);"}, "schema0.sql:2:24: syntax error near \", x int);\"" + mysqlParserHint},
		{"mysql unknown type", MySQL, []string{"CREATE TABLE a (id widget);"}, "schema0.sql:1:20: syntax error near \"widget);\"" + mysqlParserHint},
		{"mysql duplicate", MySQL, []string{"CREATE TABLE a (id int);\nCREATE TABLE a (id int);"}, "schema0.sql:2:14: table a is already defined at schema0.sql:1:14; remove or rename one of them"},
		{"sqlite syntax", SQLite, []string{"CREATE TABLE a (id int);\nCREATE TABLE b (id int,, x int);"}, `schema0.sql:2:24: SQL logic error: near ",": syntax error`},
		{"sqlite duplicate", SQLite, []string{"CREATE TABLE a (id int);", "\nCREATE TABLE a (id int);"}, "schema1.sql:2:14: SQL logic error: table a already exists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sources []Source
			for i, f := range tt.files {
				sources = append(sources, Source{Path: fmt.Sprintf("schema%d.sql", i), Data: []byte(f)})
			}
			_, err := ParseSchema(tt.engine, sources)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParseSchemaMigrations checks later statements that change tables:
// renames, dropped columns and constraints, type changes.
func TestParseSchemaMigrations(t *testing.T) {
	tests := []struct {
		name   string
		engine Engine
		schema string
		want   string
	}{
		{
			name:   "postgres",
			engine: PostgreSQL,
			schema: `CREATE TABLE a (id bigint PRIMARY KEY, old text, gone int, fence int);
CREATE TABLE b (id bigint CONSTRAINT b_key PRIMARY KEY, k text NOT NULL, fence bigint, CONSTRAINT k_uniq UNIQUE (k));
ALTER TABLE a RENAME COLUMN old TO body;
ALTER TABLE a DROP COLUMN gone, ALTER COLUMN fence TYPE bigint;
ALTER TABLE a RENAME TO docs;
ALTER TABLE b DROP CONSTRAINT b_key;
DROP TABLE IF EXISTS nothing;`,
			want: "table docs @1:14 pk(id); id int8 notnull @1:17; body text @1:40; fence int8 @1:60\ntable b @2:14 unique(k); id int8 notnull @2:17; k text notnull @2:57; fence int8 @2:74\n",
		},
		{
			name:   "mysql",
			engine: MySQL,
			schema: "CREATE TABLE a (id BIGINT PRIMARY KEY, old TEXT, gone INT, fence INT, UNIQUE KEY u (gone));\n" +
				"ALTER TABLE a RENAME COLUMN old TO body;\nALTER TABLE a DROP COLUMN gone;\nALTER TABLE a MODIFY COLUMN fence BIGINT NOT NULL;\nRENAME TABLE a TO docs;\n",
			want: "table docs @1:14 pk(id); id bigint notnull @1:17; body text @1:40; fence bigint notnull @1:60\n",
		},
		{
			name:   "sqlite",
			engine: SQLite,
			schema: "CREATE TABLE a (id INTEGER PRIMARY KEY, old TEXT, gone INT, fence INTEGER);\n" +
				"ALTER TABLE a RENAME COLUMN old TO body;\nALTER TABLE a DROP COLUMN gone;\nALTER TABLE a RENAME TO docs;\n",
			want: "table docs @1:14 pk(id); id integer notnull @1:17; body text @2:36; fence integer @1:61\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSchema(tt.engine, []Source{{Path: "m.sql", Data: []byte(tt.schema)}})
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(s); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

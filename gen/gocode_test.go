package gen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestJoinedSectionsMatchOneFile checks that fenced.go rendered in
// concurrent sections and joined is byte for byte the file jennifer renders
// in one piece, for one to four chunks, and that the tables written as text
// (renderTables) are the tables rendered each on its own.
func TestJoinedSectionsMatchOneFile(t *testing.T) {
	schema := []Source{{Path: "schema.sql", Data: []byte(benchSchema(PostgreSQL, 7))}}
	opts, err := Options{Engine: PostgreSQL, Schemas: schema, Package: "db", Sequence: true, Leases: true}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchema(opts.Engine, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, _, err := selectFenced(s, opts.Fence, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	sqlcGo, err := parseSQLCFile("fenced.sql.go", res.Files["fenced.sql.go"])
	if err != nil {
		t.Fatal(err)
	}
	base := goWriter{sqlc: sqlcGo, engine: opts.Engine, driver: opts.Driver, cmp: opts.Compare}
	whole, err := base.render(opts, func(w *goWriter) error {
		for _, section := range fencedGoSections(opts, tables, 1) {
			if err := section(w); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 4; n++ {
		var parts [][]byte
		for _, section := range fencedGoSections(opts, tables, n) {
			part, err := base.render(opts, section)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, part)
		}
		joined, err := joinGoFiles(opts.Package, nil, parts) // base.render writes no header
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(joined, whole) {
			t.Errorf("%d chunks: joined file differs from the one-piece rendering:\n%s", n, firstDiff(string(whole), string(joined)))
		}
	}

	// The tables written as text (renderTables) are the tables rendered
	// each on its own.
	files, err := base.renderTables(opts, tables)
	if err != nil {
		t.Fatal(err)
	}
	shaped, err := joinGoFiles(opts.Package, nil, files)
	if err != nil {
		t.Fatal(err)
	}
	each, err := base.render(opts, func(w *goWriter) error {
		for _, table := range tables {
			if err := w.table(table); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shaped, each) {
		t.Errorf("tables written as text differ from their own rendering:\n%s", firstDiff(string(each), string(shaped)))
	}
}

func TestJoinGoFilesImportClash(t *testing.T) {
	a := []byte("package p\n\nimport \"example.com/a/uuid\"\n\nvar _ uuid.T\n")
	b := []byte("package p\n\nimport \"example.com/b/uuid\"\n\nvar _ uuid.T\n")
	if _, err := joinGoFiles("p", nil, [][]byte{a, b}); !errors.Is(err, errImportClash) {
		t.Errorf("err = %v, want errImportClash", err)
	}
}

// TestTableTextMatchesJennifer checks that every table the text path
// writes (tableText) is byte for byte what jennifer renders and gofmt
// prints for it, on the tables of every golden case and of the benchmark's
// schema, and that the text path takes the tables it is meant for.
func TestTableTextMatchesJennifer(t *testing.T) {
	configs, err := filepath.Glob(filepath.Join(goldenDir, "*", "fencegen.yaml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no golden cases in %s (%v)", goldenDir, err)
	}
	type testCase struct {
		name string
		opts Options
	}
	var cases []testCase
	for _, cfgPath := range configs {
		dir := filepath.Dir(cfgPath)
		opts, _ := caseOptions(t, dir)
		cases = append(cases, testCase{filepath.Base(dir), opts})
	}
	for _, engine := range []Engine{PostgreSQL, MySQL, SQLite} {
		schema := []Source{{Path: "schema.sql", Data: []byte(benchSchema(engine, 3))}}
		cases = append(cases, testCase{"bench-" + string(engine), Options{Engine: engine, Schemas: schema, Package: "db"}})
	}
	// Cases whose tables must take the text path, unless their names need
	// quoting: the ordinary shapes of every engine, narrow and nullable
	// fences, composite and generated keys.
	mustText := map[string]bool{"postgres-widths": true, "mysql-widths": true, "sqlite-widths": true,
		"generated-key": true, "mysql": true, "sqlite": true, "postgres-pgx": true, "postgres-stdlib": true, "mysql-lt": true,
		"bench-postgresql": true, "bench-mysql": true, "bench-sqlite": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts, err := c.opts.withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseSchema(opts.Engine, opts.Schemas)
			if err != nil {
				t.Fatal(err)
			}
			tables, _, err := selectFenced(s, opts.Fence, opts.Fences)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(opts)
			if err != nil {
				t.Fatal(err)
			}
			sqlcGo, err := parseSQLCFile("fenced.sql.go", res.Files["fenced.sql.go"])
			if err != nil {
				t.Fatal(err)
			}
			base := goWriter{sqlc: sqlcGo, engine: opts.Engine, driver: opts.Driver, cmp: opts.Compare, plugin: opts.SQLCPlugin}
			for _, table := range tables {
				text := base.newTableText(opts.Package)
				if !text.table(table) {
					if mustText[c.name] && plainName.MatchString(table.QualifiedName()) {
						t.Errorf("%s: the text path refused it", table.QualifiedName())
					}
					continue
				}
				want, err := base.render(opts, func(w *goWriter) error { return w.table(table) })
				if err != nil {
					t.Fatal(err)
				}
				if got := text.file(); !bytes.Equal(got, want) {
					t.Errorf("%s: text differs from jennifer's rendering:\n%s", table.QualifiedName(), firstDiff(string(want), string(got)))
				}
			}
		})
	}
}

// caseOptions are the options of the golden case in dir (its
// fencegen.yaml, with the schema and query files it names read relative to
// dir) and the output directory the config names.
func caseOptions(t *testing.T, dir string) (Options, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "fencegen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("fencegen.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var sources []Source
	for _, path := range cfg.Schema {
		data, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, Source{Path: path, Data: data})
	}
	opts := cfg.Options(sources, "")
	for _, path := range cfg.Queries {
		data, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		opts.Queries = append(opts.Queries, Source{Path: path, Data: data})
	}
	return opts, cfg.Out
}

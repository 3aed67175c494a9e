package gen

import (
	"bytes"
	"errors"
	"testing"
)

// TestJoinedSectionsMatchOneFile checks that fenced.go rendered in
// concurrent sections and joined is byte for byte the file jennifer renders
// in one piece, for one to four chunks, and that the tables rendered once
// per shape are the tables rendered each on its own.
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

	// The tables rendered once per shape and renamed (renderTables) are
	// the tables rendered each on its own.
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
		t.Errorf("tables rendered per shape differ from their own rendering:\n%s", firstDiff(string(each), string(shaped)))
	}
}

func TestJoinGoFilesImportClash(t *testing.T) {
	a := []byte("package p\n\nimport \"example.com/a/uuid\"\n\nvar _ uuid.T\n")
	b := []byte("package p\n\nimport \"example.com/b/uuid\"\n\nvar _ uuid.T\n")
	if _, err := joinGoFiles("p", nil, [][]byte{a, b}); !errors.Is(err, errImportClash) {
		t.Errorf("err = %v, want errImportClash", err)
	}
}

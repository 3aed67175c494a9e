package gen

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// acceptDir holds schemas that sqlc accepts and fencegen once refused or
// misread, one root cause a file (its README describes the format).
const acceptDir = "../testdata/fencegen/accept"

// fencedMethod matches the Update method fenced.go has for each fenced table.
var fencedMethod = regexp.MustCompile(`(?m)^func \(f \*Fenced\) Update(\w+)\(`)

func TestAcceptedSchemas(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(acceptDir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s (%v)", acceptDir, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".sql"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			engine, _, _ := strings.Cut(name, "-")
			wantFenced, wantWarnings := acceptExpectations(string(data))
			res, err := Generate(Options{Engine: Engine(engine), Schemas: []Source{{Path: name, Data: data}}, Package: "db"})
			if err != nil {
				t.Fatalf("refused:\n%v", err)
			}
			var fenced []string
			for _, m := range fencedMethod.FindAllStringSubmatch(string(res.Files["fenced.go"]), -1) {
				fenced = append(fenced, m[1])
			}
			sort.Strings(fenced)
			if got, want := strings.Join(fenced, ", "), strings.Join(wantFenced, ", "); got != want {
				t.Errorf("fenced tables: %s, want %s", got, want)
			}
			warnings := warningsText(res.Warnings)
			for _, w := range wantWarnings {
				if !strings.Contains(warnings, w) {
					t.Errorf("no warning contains %q; warnings:\n%s", w, warnings)
				}
			}
			if len(wantWarnings) == 0 && warnings != "" {
				t.Errorf("unexpected warnings:\n%s", warnings)
			}
		})
	}
}

// acceptExpectations reads the "-- fenced:" and "-- warning:" lines.
func acceptExpectations(schema string) (fenced, warnings []string) {
	for _, line := range strings.Split(schema, "\n") {
		if rest, ok := strings.CutPrefix(line, "-- fenced: "); ok {
			fenced = strings.Split(rest, ", ")
		}
		if rest, ok := strings.CutPrefix(line, "-- warning: "); ok {
			warnings = append(warnings, rest)
		}
	}
	sort.Strings(fenced)
	return fenced, warnings
}

// TestSQLiteAttachOpensNoFile: reading a schema that attaches a database
// file must not create that file.
func TestSQLiteAttachOpensNoFile(t *testing.T) {
	t.Chdir(t.TempDir())
	schema := "ATTACH DATABASE 'side.db' AS side;\nCREATE TABLE side.t (id integer PRIMARY KEY);\n"
	s, err := ParseSchema(SQLite, []Source{{Path: "s.sql", Data: []byte(schema)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(s); got != "table side.t @2:19 pk(id); id integer notnull @2:22\n" {
		t.Errorf("schema: %s", got)
	}
	if _, err := os.Stat("side.db"); !os.IsNotExist(err) {
		t.Errorf("side.db exists after reading the schema (%v)", err)
	}
}

// TestSQLiteShadowTablesAreNotModeled: the tables a virtual table's module
// creates are not in the schema (sqlc does not know them).
func TestSQLiteShadowTablesAreNotModeled(t *testing.T) {
	schema := "CREATE TABLE tbl (a INTEGER PRIMARY KEY, b TEXT);\nCREATE VIRTUAL TABLE tbl_ft USING fts5(b, content='tbl', content_rowid='a');\n"
	s, err := ParseSchema(SQLite, []Source{{Path: "s.sql", Data: []byte(schema)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(s); got != "table tbl @1:14 pk(a); a integer notnull @1:19; b text @1:42\n" {
		t.Errorf("schema:\n%s", got)
	}
}

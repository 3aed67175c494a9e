package gen

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// Compare is the fence comparison: a write with token T applies when the
// row's fence F satisfies F <= T (CompareLE, one token per lease tenure) or
// F < T (CompareLT, one token per write).
type Compare string

// The comparison modes.
const (
	CompareLE Compare = "<="
	CompareLT Compare = "<"
)

// DefaultFence is the fence column name fencegen looks for.
const DefaultFence = "fence"

// fencedTable is a table fencegen writes wrappers for.
type fencedTable struct {
	*Table
	GoName string   // sqlc's model name: Doc, AppSetting
	Fence  *Column  // the fence column
	Key    []string // primary key, or the chosen unique key
	// NoUpsert is set when a key column is generated (GENERATED ALWAYS AS
	// (expr)): an INSERT cannot set it, so the table gets no upsert, only
	// the fenced update and delete.
	NoUpsert bool
}

// selectFenced picks and validates the fenced tables. Errors (a non-integer
// or generated fence, a configured column that does not exist) stop
// generation; warnings (a narrow fence, a table without a key) do not.
func selectFenced(s *Schema, fence string, perTable map[string]string) ([]*fencedTable, []Diagnostic, error) {
	if fence == "" {
		fence = DefaultFence
	}
	if err := checkPerTable(s, perTable); err != nil {
		return nil, nil, err
	}
	var out []*fencedTable
	var warnings []Diagnostic
	for _, t := range s.Tables {
		if t.View {
			continue
		}
		name, configured := perTable[t.QualifiedName()]
		if !configured {
			name = fence
		}
		col := t.Column(name)
		if col == nil {
			if configured {
				return nil, nil, errorf(t.Pos, "%s has no column %q, configured as its fence column; add the column or fix the configuration", t.QualifiedName(), name)
			}
			continue
		}
		if t.unfenceable != "" {
			warnings = append(warnings, Diagnostic{Pos: t.Pos, Table: t.QualifiedName(), Message: fmt.Sprintf("%s has fence column %q but is not fenced: %s", t.QualifiedName(), col.Name, t.unfenceable)})
			continue
		}
		if err := checkFenceColumn(s.Engine, t, col); err != nil {
			return nil, nil, err
		}
		if w, narrow := narrowFence(s.Engine, t, col); narrow {
			warnings = append(warnings, w)
		}
		key := chooseKey(t)
		if key == nil {
			warnings = append(warnings, Diagnostic{Pos: t.Pos, Table: t.QualifiedName(), Message: fmt.Sprintf("%s has fence column %q but no primary key or unique constraint of NOT NULL columns to name its rows; it is not fenced", t.QualifiedName(), col.Name), unkeyed: true})
			continue
		}
		if contains(key, col.Name) {
			return nil, nil, errorf(col.Pos, "fence column %q of %s is part of its key; the fence must be a separate column", col.Name, t.QualifiedName())
		}
		ft := &fencedTable{Table: t, GoName: goTypeName(t), Fence: col, Key: key}
		if g := generatedKeyColumn(t, key); g != nil {
			ft.NoUpsert = true
			warnings = append(warnings, Diagnostic{Pos: g.Pos, Table: t.QualifiedName(), Message: fmt.Sprintf("key column %q of %s is generated, so an insert cannot set it; %s gets fenced Update and Delete but no Upsert", g.Name, t.QualifiedName(), t.QualifiedName())})
		}
		out = append(out, ft)
	}
	return out, warnings, checkGoNames(out)
}

// checkPerTable rejects per-table fence settings that name no table.
func checkPerTable(s *Schema, perTable map[string]string) error {
	names := make([]string, 0, len(perTable))
	for name := range perTable {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		schema, table := lookupName(name)
		if t := s.Table(schema, table); t == nil || t.View {
			return fmt.Errorf("fence column configured for table %q, which the schema does not define", name)
		}
	}
	return nil
}

// checkFenceColumn requires an integer, writable fence.
func checkFenceColumn(engine Engine, t *Table, c *Column) error {
	if !isIntegerType(engine, c.Type) {
		return errorf(c.Pos, "fence column %q of %s has type %s; a fencing token must be stored in an integer column (bigint)", c.Name, t.QualifiedName(), c.Type)
	}
	if c.Generated || c.IdentityAlways {
		return errorf(c.Pos, "fence column %q of %s is generated; the token must be written by the holder", c.Name, t.QualifiedName())
	}
	return nil
}

// narrowFence warns about fences narrower than 64 bits: etcd revisions and
// ZooKeeper zxids outgrow them.
func narrowFence(engine Engine, t *Table, c *Column) (Diagnostic, bool) {
	if engine == SQLite || isBigint(c.Type) {
		return Diagnostic{}, false
	}
	return Diagnostic{Pos: c.Pos, Table: t.QualifiedName(), Message: fmt.Sprintf("fence column %q of %s has type %s, narrower than 64 bits; writes with a token it cannot store fail with ErrTokenOutOfRange, and etcd revisions and ZooKeeper zxids outgrow it: use bigint", c.Name, t.QualifiedName(), c.Type)}, true
}

func isBigint(typ string) bool {
	switch typ {
	case "int8", "bigint", "serial8", "bigserial", "bigint unsigned":
		return true
	}
	return false
}

func isIntegerType(engine Engine, typ string) bool {
	if engine == SQLite {
		// SQLite's rule for INTEGER affinity.
		return strings.Contains(typ, "int")
	}
	switch strings.TrimSuffix(typ, " unsigned") {
	case "int2", "int4", "int8", "smallint", "integer", "int", "bigint", "mediumint", "tinyint",
		"serial", "serial2", "serial4", "serial8", "smallserial", "bigserial":
		return true
	}
	return false
}

// chooseKey returns the primary key, else the first unique constraint whose
// columns are all NOT NULL (NULLs never conflict, so a nullable unique key
// does not identify a row).
func chooseKey(t *Table) []string {
	if len(t.PrimaryKey) > 0 {
		return t.PrimaryKey
	}
	for _, u := range t.Uniques {
		if allNotNull(t, u) {
			return u
		}
	}
	return nil
}

// generatedKeyColumn returns the first column of key that the database
// computes (GENERATED ALWAYS AS (expr)), or nil.
func generatedKeyColumn(t *Table, key []string) *Column {
	for _, name := range key {
		if c := t.Column(name); c != nil && c.Generated {
			return c
		}
	}
	return nil
}

func allNotNull(t *Table, cols []string) bool {
	for _, name := range cols {
		if c := t.Column(name); c == nil || !c.NotNull {
			return false
		}
	}
	return true
}

// checkGoNames rejects tables whose Go names are empty or collide (docs
// and doc).
func checkGoNames(tables []*fencedTable) error {
	seen := map[string]*fencedTable{}
	for _, t := range tables {
		if !token.IsIdentifier(t.GoName) {
			return errorf(t.Pos, "table name %q gives no Go identifier for its methods; rename the table", t.QualifiedName())
		}
		if old := seen[t.GoName]; old != nil {
			return errorf(t.Pos, "%s and %s (%s) both map to the Go name %s; rename one", t.QualifiedName(), old.QualifiedName(), old.Pos, t.GoName)
		}
		seen[t.GoName] = t
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

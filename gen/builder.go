package gen

import (
	"fmt"
	"strings"
)

// builder accumulates a Schema across statements and files, reporting the
// semantic errors (duplicate tables, unknown tables and columns) that a
// parser alone cannot see.
type builder struct {
	schema  Schema
	types   map[string]Pos // user-defined types (enums, domains, composites, extensions) and where, by qualified name
	anyType bool           // an extension fencegen does not know was created: it may define any type
	schemas map[string]Pos // schemas (MySQL: databases) created so far; "" is the default
}

func newBuilder(engine Engine) *builder {
	b := &builder{schema: Schema{Engine: engine}, types: map[string]Pos{}, schemas: map[string]Pos{"": {}}}
	if engine == PostgreSQL {
		b.schemas["pg_temp"] = Pos{} // the session's temporary schema always exists
	}
	return b
}

// createSchema records CREATE SCHEMA (or DATABASE).
func (b *builder) createSchema(pos Pos, name string, ifNotExists bool) error {
	if old, ok := b.schemas[name]; ok {
		if ifNotExists {
			return nil
		}
		return errorf(pos, "schema %s is already defined at %s", name, old)
	}
	b.schemas[name] = pos
	return nil
}

// checkSchema requires a table's schema to exist, as the database (and
// sqlc, which would stop fencegen's process) does.
func (b *builder) checkSchema(t *Table) error {
	if _, ok := b.schemas[t.Schema]; ok {
		return nil
	}
	create := "CREATE SCHEMA"
	if b.schema.Engine == MySQL {
		create = "CREATE DATABASE"
	}
	return errorf(t.Pos, "schema %q does not exist; add %s %s before this statement", t.Schema, create, t.Schema)
}

// addTable registers a new table or view. ifNotExists makes a second
// definition a no-op, as the database treats it.
func (b *builder) addTable(t *Table, ifNotExists bool) (*Table, error) {
	if err := b.checkSchema(t); err != nil {
		return nil, err
	}
	if old := b.schema.Table(t.Schema, t.Name); old != nil {
		if ifNotExists {
			return nil, nil
		}
		kind := "table"
		if old.View {
			kind = "view"
		}
		return nil, errorf(t.Pos, "%s %s is already defined at %s; remove or rename one of them", kind, t.QualifiedName(), old.Pos)
	}
	b.schema.Tables = append(b.schema.Tables, t)
	return t, nil
}

// table finds an existing table for ALTER, COMMENT and DROP statements.
func (b *builder) table(pos Pos, schema, name string) (*Table, error) {
	t := b.schema.Table(schema, name)
	if t == nil {
		return nil, errorf(pos, "table %s is not defined before this statement", qualify(schema, name))
	}
	return t, nil
}

// dropTable removes a table, as DROP TABLE later in a migration does.
func (b *builder) dropTable(schema, name string) {
	tables := b.schema.Tables[:0]
	for _, t := range b.schema.Tables {
		if t.Schema != schema || t.Name != name {
			tables = append(tables, t)
		}
	}
	b.schema.Tables = tables
}

// addColumn appends a column, rejecting a duplicate name.
func addColumn(t *Table, c *Column) error {
	if old := t.Column(c.Name); old != nil {
		return errorf(c.Pos, "column %q of %s is already defined at %s", c.Name, t.QualifiedName(), old.Pos)
	}
	t.Columns = append(t.Columns, c)
	return nil
}

// setPrimaryKey records the primary key; its columns become NOT NULL. name
// is the constraint's name ("" for the database's default).
func setPrimaryKey(t *Table, pos Pos, name string, cols []string) error {
	if len(t.PrimaryKey) > 0 {
		return errorf(pos, "%s has more than one primary key", t.QualifiedName())
	}
	for _, name := range cols {
		c := t.Column(name)
		if c == nil {
			return errorf(pos, "primary key of %s names column %q, which %s does not have", t.QualifiedName(), name, t.QualifiedName())
		}
		c.NotNull = true
	}
	t.PrimaryKey = cols
	t.pkName = name
	if name == "" {
		t.pkName = t.Name + "_pkey"
	}
	return nil
}

// addUnique records a unique constraint after checking its columns exist.
// name is the constraint's name ("" for PostgreSQL's default).
func addUnique(t *Table, pos Pos, name string, cols []string) error {
	for _, name := range cols {
		if t.Column(name) == nil {
			return errorf(pos, "unique constraint of %s names column %q, which %s does not have", t.QualifiedName(), name, t.QualifiedName())
		}
	}
	if name == "" {
		name = t.Name + "_" + strings.Join(cols, "_") + "_key"
	}
	t.Uniques = append(t.Uniques, cols)
	t.uniqueNames = append(t.uniqueNames, constraint{name, cols})
	return nil
}

func qualify(schema, name string) string {
	if schema == "" {
		return name
	}
	return fmt.Sprintf("%s.%s", schema, name)
}

// constraint names a key so a later DROP CONSTRAINT can remove it.
type constraint struct {
	name string
	cols []string
}

// column finds a column that a later statement refers to, reporting it
// missing the way the database (and sqlc, which would stop fencegen's
// process) would.
func column(t *Table, pos Pos, name string) (*Column, error) {
	c := t.Column(name)
	if c == nil {
		return nil, errorf(pos, "column %q of %s does not exist", name, t.QualifiedName())
	}
	return c, nil
}

// dropColumn removes a column and every key that contains it, as
// PostgreSQL and MySQL do.
func dropColumn(t *Table, name string) {
	cols := t.Columns[:0]
	for _, c := range t.Columns {
		if c.Name != name {
			cols = append(cols, c)
		}
	}
	t.Columns = cols
	if contains(t.PrimaryKey, name) {
		t.PrimaryKey, t.pkName = nil, ""
	}
	uniques := t.uniqueNames[:0]
	t.Uniques = t.Uniques[:0]
	for _, u := range t.uniqueNames {
		if !contains(u.cols, name) {
			uniques = append(uniques, u)
			t.Uniques = append(t.Uniques, u.cols)
		}
	}
	t.uniqueNames = uniques
}

// renameColumn renames a column and its mentions in keys.
func renameColumn(t *Table, pos Pos, from, to string) error {
	c, err := column(t, pos, from)
	if err != nil {
		return err
	}
	if t.Column(to) != nil {
		return errorf(pos, "column %q of %s already exists", to, t.QualifiedName())
	}
	c.Name = to
	rename := func(cols []string) {
		for i, k := range cols {
			if k == from {
				cols[i] = to
			}
		}
	}
	rename(t.PrimaryKey)
	for _, u := range t.uniqueNames {
		rename(u.cols)
	}
	return nil
}

// dropConstraint removes a named primary key or unique constraint.
func dropConstraint(t *Table, name string) {
	if t.pkName == name {
		t.PrimaryKey, t.pkName = nil, ""
	}
	uniques := t.uniqueNames[:0]
	t.Uniques = t.Uniques[:0]
	for _, u := range t.uniqueNames {
		if u.name != name {
			uniques = append(uniques, u)
			t.Uniques = append(t.Uniques, u.cols)
		}
	}
	t.uniqueNames = uniques
}

// renameTable renames a table within its schema.
func (b *builder) renameTable(t *Table, pos Pos, to string) error {
	if other := b.schema.Table(t.Schema, to); other != nil {
		return errorf(pos, "cannot rename %s to %s: %s is already defined at %s", t.QualifiedName(), to, qualify(t.Schema, to), other.Pos)
	}
	t.Name = to
	return nil
}

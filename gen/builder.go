package gen

import "fmt"

// builder accumulates a Schema across statements and files, reporting the
// semantic errors (duplicate tables, unknown tables and columns) that a
// parser alone cannot see.
type builder struct {
	schema Schema
	types  map[string]bool // user-defined type names (enums, domains, composites, extensions)
}

func newBuilder(engine Engine) *builder {
	return &builder{schema: Schema{Engine: engine}, types: map[string]bool{}}
}

// addTable registers a new table or view. ifNotExists makes a second
// definition a no-op, as the database treats it.
func (b *builder) addTable(t *Table, ifNotExists bool) (*Table, error) {
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

// setPrimaryKey records the primary key; its columns become NOT NULL.
func setPrimaryKey(t *Table, pos Pos, cols []string) error {
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
	return nil
}

// addUnique records a unique constraint after checking its columns exist.
func addUnique(t *Table, pos Pos, cols []string) error {
	for _, name := range cols {
		if t.Column(name) == nil {
			return errorf(pos, "unique constraint of %s names column %q, which %s does not have", t.QualifiedName(), name, t.QualifiedName())
		}
	}
	t.Uniques = append(t.Uniques, cols)
	return nil
}

func qualify(schema, name string) string {
	if schema == "" {
		return name
	}
	return fmt.Sprintf("%s.%s", schema, name)
}

package gen

import "strings"

// Engine names a SQL dialect, spelled as sqlc spells it.
type Engine string

// The engines fencegen understands.
const (
	PostgreSQL Engine = "postgresql"
	MySQL      Engine = "mysql"
	SQLite     Engine = "sqlite"
)

// Source is one schema file: the path the user named (used in every message)
// and its contents.
type Source struct {
	Path string
	Data []byte
}

// Schema is the part of a database schema that fencing needs. sqlc's plugin
// catalog lacks keys, constraints, generated/identity flags and positions, so
// fencegen builds its own from the same parsers.
type Schema struct {
	Engine Engine
	Tables []*Table // in order of creation; views included (View set)
}

// Table is a table or view.
type Table struct {
	Schema     string // "" when unqualified or in the default schema
	Name       string // as the database stores it (unquoted, case preserved)
	View       bool
	Columns    []*Column
	PrimaryKey []string   // column names in constraint order
	Uniques    [][]string // unique constraints, each in constraint order
	Comment    string
	Pos        Pos

	spelling    string       // see Column.spelling
	unfenceable string       // why fencegen cannot fence the table, if it cannot
	noRowid     bool         // a SQLite WITHOUT ROWID table
	pkName      string       // for DROP CONSTRAINT
	uniqueNames []constraint // Uniques with their names
}

// Column is one table column.
type Column struct {
	Name           string
	Type           string // the type as the parser names it, lower case (e.g. "int8", "bigint", "text")
	NotNull        bool
	Generated      bool // GENERATED ALWAYS AS (expr): never written
	IdentityAlways bool // GENERATED ALWAYS AS IDENTITY: never written by UPDATE
	AutoIncrement  bool // MySQL AUTO_INCREMENT: an insert may number the row
	Comment        string
	Pos            Pos

	// spelling is the name as a SQLite schema wrote it when it used
	// [brackets] or `backticks`: sqlc's SQLite catalog keeps those
	// characters in the name, so the queries must spell it the same way.
	spelling string
}

// QualifiedName is the table's name as a message shows it: "docs" or
// "app.settings".
func (t *Table) QualifiedName() string {
	if t.Schema == "" {
		return t.Name
	}
	return t.Schema + "." + t.Name
}

// Column returns the named column, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Table returns the table or view with the given schema and name, or nil.
func (s *Schema) Table(schema, name string) *Table {
	for _, t := range s.Tables {
		if t.Schema == schema && t.Name == name {
			return t
		}
	}
	return nil
}

// lookupName splits a user-written "schema.table" into its parts.
func lookupName(qualified string) (schema, name string) {
	if i := strings.LastIndexByte(qualified, '.'); i >= 0 {
		return qualified[:i], qualified[i+1:]
	}
	return "", qualified
}

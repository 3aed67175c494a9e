package gen

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/embed" // the SQLite build sqlc's sqlite analyzer uses too
)

// parseSQLite runs the schema files through SQLite itself, in an in-memory
// database: SQLite's own parser is the authority on what its dialect accepts,
// and its catalog (PRAGMA table_xinfo, index_list) answers keys, constraint
// order and generated columns exactly. sqlc's ANTLR SQLite grammar lives in
// an internal package that cannot be imported. Statements are prepared one
// at a time; the authorizer tells which table each statement creates or
// alters, so every table and column gets the position of its statement, and
// syntax errors get SQLite's own error offset.
func (b *builder) parseSQLite(sources []Source) error {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		return fmt.Errorf("opening in-memory SQLite: %w", err)
	}
	defer conn.Close()
	s := &sqliteSchema{b: b, conn: conn}
	if err := conn.SetAuthorizer(s.authorize); err != nil {
		return fmt.Errorf("installing SQLite authorizer: %w", err)
	}
	for _, src := range sources {
		if err := s.file(src); err != nil {
			return err
		}
	}
	return nil
}

// sqliteSchema carries the state of one parseSQLite call.
type sqliteSchema struct {
	b       *builder
	conn    *sqlite3.Conn
	actions []sqliteAction // filled by the authorizer while a statement is prepared
}

type sqliteAction struct {
	code   sqlite3.AuthorizerActionCode
	schema string // the database: "" for main, else its ATTACH name
	table  string // for ATTACH, the file name
}

func (s *sqliteSchema) authorize(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
	switch action {
	case sqlite3.AUTH_CREATE_TABLE, sqlite3.AUTH_CREATE_VIEW, sqlite3.AUTH_DROP_TABLE, sqlite3.AUTH_DROP_VIEW:
		s.actions = append(s.actions, sqliteAction{action, sqliteDB(schema), name3rd})
	case sqlite3.AUTH_ALTER_TABLE:
		s.actions = append(s.actions, sqliteAction{action, sqliteDB(name3rd), name4th})
	case sqlite3.AUTH_ATTACH, sqlite3.AUTH_CREATE_VTABLE:
		s.actions = append(s.actions, sqliteAction{code: action, table: name3rd})
	}
	return sqlite3.AUTH_OK
}

// sqliteDB names a database as fencegen's model does: "" for main.
func sqliteDB(name string) string {
	if name == "main" {
		return ""
	}
	return name
}

// attachStmt matches ATTACH [DATABASE] expr AS name.
var attachStmt = regexp.MustCompile(`(?is)^\s*ATTACH\s+(?:DATABASE\s+)?.+\s+AS\s+(.+?)\s*;?\s*$`)

// attached is the statement to run instead of an ATTACH: the same database
// name over an in-memory database, so that reading a schema never creates
// or opens a file. ok is false for any other statement.
func (s *sqliteSchema) attached(stmtText string) (sql, name string, ok bool) {
	if len(s.actions) != 1 || s.actions[0].code != sqlite3.AUTH_ATTACH {
		return "", "", false
	}
	m := attachStmt.FindStringSubmatch(maskComments(stmtText))
	if m == nil {
		return "", "", false
	}
	name = strings.Trim(m[1], "\"`[]'")
	return "ATTACH ':memory:' AS " + m[1], name, true
}

// file executes one source statement by statement.
func (s *sqliteSchema) file(src Source) error {
	file := newSourceFile(src)
	text := file.text
	rest := text
	for {
		start := len(text) - len(strings.TrimLeftFunc(skipSQLComments(rest), isSpace))
		s.actions = s.actions[:0]
		stmt, tail, err := s.conn.Prepare(rest)
		if err != nil && isDML(text[start:]) {
			// Data statements do not shape the schema, and sqlc reads its
			// own syntax (sqlc.arg) in them: skip one SQLite cannot prepare.
			rest = text[statementEnd(text, start):]
			continue
		}
		if err != nil {
			return sqliteError(src, start, err)
		}
		if stmt == nil {
			return nil
		}
		stmtText := text[start : len(text)-len(tail)]
		if sql, name, ok := s.attached(stmtText); ok {
			stmt.Close()
			if err := s.conn.Exec(sql); err != nil {
				return sqliteError(src, start, err)
			}
			if err := s.b.createSchema(file.pos(start), name, false); err != nil {
				return err
			}
			rest = tail
			continue
		}
		err = stmt.Exec()
		stmt.Close()
		if err != nil && !isDML(stmtText) { // rows that violate a constraint do not change the schema
			return sqliteError(src, start, err)
		}
		if err := s.record(file, start, stmtText); err != nil {
			return err
		}
		rest = tail
	}
}

// isDML reports whether a statement reads or writes rows only.
func isDML(stmt string) bool {
	word := strings.ToUpper(strings.TrimLeft(stmt, "( \t\r\n"))
	for _, kw := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "VALUES"} {
		if strings.HasPrefix(word, kw) && (len(word) == len(kw) || !isIdentByte(word[len(kw)])) {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// statementEnd is the offset just past the semicolon that ends the
// statement starting at start (outside comments and string literals), or
// the end of text.
func statementEnd(text string, start int) int {
	if i := strings.IndexByte(maskComments(text[start:]), ';'); i >= 0 {
		return start + i + 1
	}
	return len(text)
}

// sqliteError positions SQLite's message at its error offset when it has
// one (syntax errors), else at the statement.
func sqliteError(src Source, start int, err error) error {
	off := start
	var serr *sqlite3.Error
	msg := err.Error()
	if errors.As(err, &serr) {
		if q := serr.SQL(); q != "" {
			if i := strings.LastIndex(string(src.Data), q); i >= 0 {
				off = i
			}
		}
		msg = strings.TrimPrefix(msg, "sqlite3: ")
	}
	return errorf(posAt(src.Path, src.Data, off), "%s", msg)
}

// record updates the model after a statement ran.
func (s *sqliteSchema) record(file *sourceFile, start int, stmtText string) error {
	m := &myFile{file: file, start: start, text: stmtText} // reuse the name locator
	virtual := false
	for _, a := range s.actions {
		switch a.code {
		case sqlite3.AUTH_CREATE_VTABLE:
			virtual = true
		case sqlite3.AUTH_CREATE_TABLE, sqlite3.AUTH_CREATE_VIEW:
			// A virtual table's module creates shadow tables (fts5's
			// tbl_data, tbl_idx, ...) that sqlc does not know and nobody writes.
			if strings.HasPrefix(a.table, "sqlite_") || virtual {
				continue
			}
			t, err := s.b.addTable(&Table{Schema: a.schema, Name: sqlcName(m, a.table), View: a.code == sqlite3.AUTH_CREATE_VIEW, Pos: m.namePos(a.table), spelling: m.spelling(a.table)}, false)
			if err != nil {
				return err
			}
			if t != nil && t.Schema != "" {
				// sqlc v1.31 resolves UPDATE only in the main database.
				t.unfenceable = "sqlc cannot compile an UPDATE of a table in an attached database; keep fenced tables in main"
			}
			if t != nil && !t.View {
				if err := s.loadTable(t, m); err != nil {
					return err
				}
			}
		case sqlite3.AUTH_ALTER_TABLE:
			if t := s.table(a.schema, a.table); t != nil {
				if err := s.followRename(t, m); err != nil {
					return err
				}
				if err := s.loadTable(t, m); err != nil {
					return err
				}
			}
		case sqlite3.AUTH_DROP_TABLE, sqlite3.AUTH_DROP_VIEW:
			if t := s.table(a.schema, a.table); t != nil {
				s.b.dropTable(t.Schema, t.Name)
			}
		}
	}
	return nil
}

// sqlcName is a table or column name as sqlc's SQLite catalog keeps it:
// sqlc folds a bare name to lower case (SQLite itself matches names without
// regard to case), so a bare MixedCase is mixedcase to sqlc, and fencegen's
// queries and Go names must agree.
func sqlcName(m *myFile, name string) string {
	if i, _ := m.findName(name); i >= 0 && m.text[i] != '"' && m.text[i] != '`' && m.text[i] != '[' {
		return strings.ToLower(name)
	}
	return name
}

// table finds a table of the model the way SQLite resolves a name: without
// regard to case.
func (s *sqliteSchema) table(schema, name string) *Table {
	for _, t := range s.b.schema.Tables {
		if t.Schema == schema && strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// followRename gives t its new name after ALTER TABLE ... RENAME TO: the
// one table in SQLite's catalog that the model does not know yet.
func (s *sqliteSchema) followRename(t *Table, m *myFile) error {
	var names []string
	err := s.query(fmt.Sprintf("SELECT name FROM %s.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%%'", sqliteSchemaName(t.Schema)), func(st *sqlite3.Stmt) {
		names = append(names, st.ColumnText(0))
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if strings.EqualFold(name, t.Name) {
			return nil
		}
	}
	for _, name := range names {
		if s.table(t.Schema, name) == nil {
			t.Name = sqlcName(m, name)
		}
	}
	return nil
}

// sqliteSchemaName quotes a model schema name for SQL: main for "".
func sqliteSchemaName(schema string) string {
	if schema == "" {
		return "main"
	}
	return `"` + strings.ReplaceAll(schema, `"`, `""`) + `"`
}

// loadTable reads the table's columns, key and unique constraints from
// SQLite's catalog. Columns it has not seen yet get positions in the current
// statement; known columns keep theirs (ALTER TABLE ADD COLUMN).
func (s *sqliteSchema) loadTable(t *Table, m *myFile) error {
	type pkCol struct {
		seq  int
		name string
	}
	var pk []pkCol
	known := map[string]*Column{} // by lower-case name: SQLite's names match without regard to case
	for _, c := range t.Columns {
		known[strings.ToLower(c.Name)] = c
	}
	t.Columns = t.Columns[:0]
	err := s.query(fmt.Sprintf("SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(%s, %s)", sqliteString(t.Name), sqliteString(sqliteSchemaOrMain(t.Schema))), func(st *sqlite3.Stmt) {
		name := st.ColumnText(0)
		hidden := st.ColumnInt(4)
		if hidden == 1 { // hidden column of a virtual table
			return
		}
		c := known[strings.ToLower(name)]
		if c == nil {
			c = &Column{Name: sqlcName(m, name), Pos: m.namePos(name), spelling: m.spelling(name)}
		}
		name = c.Name
		c.Type = strings.ToLower(st.ColumnText(1))
		c.NotNull = st.ColumnInt(2) != 0
		c.Generated = hidden == 2 || hidden == 3
		if seq := st.ColumnInt(3); seq > 0 {
			pk = append(pk, pkCol{seq, name})
			c.NotNull = true
		}
		t.Columns = append(t.Columns, c)
	})
	if err != nil {
		return err
	}
	t.PrimaryKey = make([]string, len(pk))
	for _, p := range pk {
		t.PrimaryKey[p.seq-1] = p.name
	}
	err = s.query(fmt.Sprintf("SELECT wr FROM pragma_table_list WHERE name = %s AND schema = %s", sqliteString(t.Name), sqliteString(sqliteSchemaOrMain(t.Schema))), func(st *sqlite3.Stmt) {
		t.noRowid = st.ColumnInt(0) != 0
	})
	if err != nil {
		return err
	}
	return s.loadUniques(t)
}

// loadUniques reads UNIQUE constraints (index origin "u") in column order.
func (s *sqliteSchema) loadUniques(t *Table) error {
	var indexes []string
	err := s.query(fmt.Sprintf("SELECT name FROM pragma_index_list(%s, %s) WHERE origin = 'u' AND partial = 0 ORDER BY seq DESC", sqliteString(t.Name), sqliteString(sqliteSchemaOrMain(t.Schema))), func(st *sqlite3.Stmt) {
		indexes = append(indexes, st.ColumnText(0))
	})
	if err != nil {
		return err
	}
	t.Uniques = nil
	for _, idx := range indexes {
		var cols []string
		err := s.query(fmt.Sprintf("SELECT name FROM pragma_index_info(%s, %s) ORDER BY seqno", sqliteString(idx), sqliteString(sqliteSchemaOrMain(t.Schema))), func(st *sqlite3.Stmt) {
			if c := t.columnFold(st.ColumnText(0)); c != nil {
				cols = append(cols, c.Name)
			}
		})
		if err != nil {
			return err
		}
		t.Uniques = append(t.Uniques, cols)
	}
	return nil
}

// query runs a catalog query, calling row for each result row.
func (s *sqliteSchema) query(sql string, row func(*sqlite3.Stmt)) error {
	st, _, err := s.conn.Prepare(sql)
	if err != nil {
		return fmt.Errorf("reading SQLite catalog: %w", err)
	}
	defer st.Close()
	for st.Step() {
		row(st)
	}
	if err := st.Err(); err != nil {
		return fmt.Errorf("reading SQLite catalog: %w", err)
	}
	return nil
}

func sqliteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// sqliteSchemaOrMain is a model schema name as SQLite's pragmas take it.
func sqliteSchemaOrMain(schema string) string {
	if schema == "" {
		return "main"
	}
	return schema
}

// columnFold returns the column named name without regard to case, or nil.
func (t *Table) columnFold(name string) *Column {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

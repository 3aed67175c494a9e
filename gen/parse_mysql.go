package gen

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions in DEFAULT and COMMENT
	"github.com/pingcap/tidb/pkg/parser/types"
)

// parseMySQL reads one MySQL schema file with the TiDB parser (sqlc's mysql
// engine). The parser records no positions for DDL nodes, so statements are
// located by their text and columns by their name within the statement.
func (b *builder) parseMySQL(src Source) error {
	stmts, _, err := parser.New().Parse(string(src.Data), "", "")
	if err != nil {
		return mysqlSyntaxError(src, err)
	}
	m := &myFile{b: b, file: newSourceFile(src)}
	for _, stmt := range stmts {
		m.locate(stmt.Text())
		if err := m.statement(stmt); err != nil {
			return err
		}
	}
	return nil
}

// mysqlSyntaxError reads the TiDB parser's "line L column C near ..." form.
func mysqlSyntaxError(src Source, err error) error {
	msg := strings.TrimSpace(strings.SplitN(err.Error(), "\n", 2)[0])
	var line, col int
	if i := strings.Index(msg, "line "); i >= 0 {
		if _, scanErr := fmt.Sscanf(msg[i:], "line %d column %d", &line, &col); scanErr == nil {
			pos := Pos{File: src.Path, Line: line, Col: col}
			if j := strings.Index(msg, " near "); j >= 0 {
				near := msg[j+len(" near "):]
				msg = "syntax error near " + near
				pos = nearPos(src, line, strings.Trim(near, "\" "), pos)
			}
			return errorf(pos, "%s%s", msg, mysqlParserHint)
		}
	}
	return errorf(Pos{File: src.Path}, "%s%s", msg, mysqlParserHint)
}

// mysqlParserHint says whose parser refused the statement: sqlc's (TiDB's),
// which lags MySQL on a few forms (some CREATE TRIGGER bodies, DEFAULT
// (expr) calls, JSON_TABLE), so valid MySQL can land here.
const mysqlParserHint = " (fencegen and sqlc read MySQL with TiDB's parser; if MySQL accepts the statement, move it to a schema file neither reads)"

// nearPos finds the offending token: TiDB quotes the source from that token
// on, which is more precise than its column number.
func nearPos(src Source, line int, near string, fallback Pos) Pos {
	lineStart := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(string(src.Data[lineStart:]), '\n')
		if i < 0 {
			return fallback
		}
		lineStart += i + 1
	}
	if near == "" {
		return fallback
	}
	if i := strings.Index(string(src.Data[lineStart:]), near); i >= 0 {
		return posAt(src.Path, src.Data, lineStart+i)
	}
	return fallback
}

// myFile walks the statements of one file, tracking where each starts.
type myFile struct {
	b      *builder
	file   *sourceFile
	cursor int // byte offset just past the previous statement
	start  int // byte offset of the current statement
	text   string
}

// locate finds the current statement's text after the previous one.
func (m *myFile) locate(text string) {
	m.text = text
	m.start = m.cursor
	if i := strings.Index(m.file.text[m.cursor:], text); i >= 0 {
		m.start = m.cursor + i
		m.cursor = m.start + len(text)
	}
}

func (m *myFile) stmtPos() Pos { return m.file.pos(m.start) }

// namePos points at the first mention of name in the current statement,
// backquoted or bare, falling back to the statement start.
func (m *myFile) namePos(name string) Pos {
	if i, _ := m.findName(name); i >= 0 {
		return m.file.pos(m.start + i)
	}
	return m.stmtPos()
}

// spelling is name as the statement first writes it when that is in
// [brackets] or `backticks`, else "".
func (m *myFile) spelling(name string) string {
	i, n := m.findName(name)
	if i < 0 || m.text[i] != '[' && m.text[i] != '`' {
		return ""
	}
	return m.text[i : i+n]
}

// findName returns the offset and length of the first mention of name in
// the current statement's code (not its comments), quoted or bare; -1 if
// there is none.
func (m *myFile) findName(name string) (int, int) {
	if name == "" {
		return -1, 0
	}
	lower := strings.ToLower(maskComments(m.text))
	n := strings.ToLower(name)
	for _, needle := range []string{"`" + n + "`", `"` + n + `"`, "[" + n + "]", n} {
		for from := 0; ; {
			i := strings.Index(lower[from:], needle)
			if i < 0 {
				break
			}
			i += from
			if isWordBoundary(lower, i-1) && isWordBoundary(lower, i+len(needle)) {
				return i, len(needle)
			}
			from = i + len(needle)
		}
	}
	return -1, 0
}

func isWordBoundary(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	return !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
}

func (m *myFile) statement(stmt ast.StmtNode) error {
	switch s := stmt.(type) {
	case *ast.CreateTableStmt:
		return m.createTable(s)
	case *ast.AlterTableStmt:
		return m.alterTable(s)
	case *ast.CreateDatabaseStmt:
		return m.b.createSchema(m.stmtPos(), s.Name.O, s.IfNotExists)
	case *ast.CreateViewStmt:
		_, err := m.b.addTable(&Table{Schema: s.ViewName.Schema.O, Name: s.ViewName.Name.O, View: true, Pos: m.namePos(s.ViewName.Name.O)}, s.OrReplace)
		return err
	case *ast.DropTableStmt:
		for _, t := range s.Tables {
			if m.b.schema.Table(t.Schema.O, t.Name.O) == nil && !s.IfExists {
				return errorf(m.stmtPos(), "DROP of %s, which is not defined before this statement", qualify(t.Schema.O, t.Name.O))
			}
			m.b.dropTable(t.Schema.O, t.Name.O)
		}
	case *ast.RenameTableStmt:
		for _, tt := range s.TableToTables {
			t, err := m.b.table(m.namePos(tt.OldTable.Name.O), tt.OldTable.Schema.O, tt.OldTable.Name.O)
			if err != nil {
				return err
			}
			if err := m.b.renameTable(t, m.stmtPos(), tt.NewTable.Name.O); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *myFile) createTable(s *ast.CreateTableStmt) error {
	t, err := m.b.addTable(&Table{Schema: s.Table.Schema.O, Name: s.Table.Name.O, Pos: m.namePos(s.Table.Name.O)}, s.IfNotExists)
	if err != nil || t == nil {
		return err
	}
	if s.ReferTable != nil {
		return m.copyTable(t, s.ReferTable)
	}
	for _, opt := range s.Options {
		if opt.Tp == ast.TableOptionComment {
			t.Comment = opt.StrValue
		}
	}
	for _, def := range s.Cols {
		if err := m.addColumnDef(t, def); err != nil {
			return err
		}
	}
	for _, con := range s.Constraints {
		if err := m.constraint(t, con); err != nil {
			return err
		}
	}
	return nil
}

// copyTable fills t, made by CREATE TABLE t LIKE src, as MySQL does: the
// columns with their attributes, the primary key and the unique indexes.
func (m *myFile) copyTable(t *Table, ref *ast.TableName) error {
	src, err := m.b.table(m.namePos(ref.Name.O), ref.Schema.O, ref.Name.O)
	if err != nil {
		return err
	}
	for _, c := range src.Columns {
		copied := *c
		copied.Pos = t.Pos
		t.Columns = append(t.Columns, &copied)
	}
	t.PrimaryKey = append([]string(nil), src.PrimaryKey...)
	t.pkName = src.pkName
	for _, u := range src.uniqueNames {
		t.Uniques = append(t.Uniques, append([]string(nil), u.cols...))
		t.uniqueNames = append(t.uniqueNames, constraint{u.name, t.Uniques[len(t.Uniques)-1]})
	}
	return nil
}

func (m *myFile) addColumnDef(t *Table, def *ast.ColumnDef) error {
	c := &Column{Name: def.Name.Name.O, Type: mysqlType(def.Tp), Pos: m.namePos(def.Name.Name.O)}
	if err := addColumn(t, c); err != nil {
		return err
	}
	for _, opt := range def.Options {
		switch opt.Tp {
		case ast.ColumnOptionNotNull:
			c.NotNull = true
		case ast.ColumnOptionNull:
			c.NotNull = false
		case ast.ColumnOptionPrimaryKey:
			if err := setPrimaryKey(t, c.Pos, "PRIMARY", []string{c.Name}); err != nil {
				return err
			}
		case ast.ColumnOptionUniqKey:
			if err := addUnique(t, c.Pos, c.Name, []string{c.Name}); err != nil {
				return err
			}
		case ast.ColumnOptionGenerated:
			c.Generated = true
		case ast.ColumnOptionAutoIncrement:
			c.AutoIncrement = true
		case ast.ColumnOptionComment:
			if v, ok := opt.Expr.(ast.ValueExpr); ok {
				c.Comment = v.GetString()
			}
		}
	}
	return nil
}

// mysqlType names a column type the way MySQL prints it ("bigint",
// "int unsigned", "varchar").
func mysqlType(tp interface {
	GetType() byte
	GetFlag() uint
}) string {
	name := types.TypeStr(tp.GetType())
	if mysql.HasUnsignedFlag(tp.GetFlag()) {
		name += " unsigned"
	}
	return name
}

func (m *myFile) constraint(t *Table, con *ast.Constraint) error {
	cols := make([]string, 0, len(con.Keys))
	for _, k := range con.Keys {
		if k.Column != nil {
			cols = append(cols, k.Column.Name.O)
		}
	}
	pos := m.stmtPos()
	switch con.Tp {
	case ast.ConstraintPrimaryKey:
		return setPrimaryKey(t, pos, "PRIMARY", cols)
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		name := con.Name
		if name == "" && len(cols) > 0 {
			name = cols[0] // MySQL names an unnamed index after its first column
		}
		return addUnique(t, pos, name, cols)
	}
	return nil
}

func (m *myFile) alterTable(s *ast.AlterTableStmt) error {
	t, err := m.b.table(m.namePos(s.Table.Name.O), s.Table.Schema.O, s.Table.Name.O)
	if err != nil {
		return err
	}
	for _, spec := range s.Specs {
		switch spec.Tp {
		case ast.AlterTableAddColumns:
			for _, def := range spec.NewColumns {
				if spec.IfNotExists && t.Column(def.Name.Name.O) != nil {
					continue
				}
				if err := m.addColumnDef(t, def); err != nil {
					return err
				}
			}
		default:
			if err := m.alterSpec(t, spec); err != nil {
				return err
			}
		}
	}
	return nil
}

// alterSpec applies the ALTER TABLE actions that change columns or keys.
func (m *myFile) alterSpec(t *Table, spec *ast.AlterTableSpec) error {
	switch spec.Tp {
	case ast.AlterTableAddConstraint:
		return m.constraint(t, spec.Constraint)
	case ast.AlterTableDropColumn:
		name := spec.OldColumnName.Name.O
		if t.Column(name) == nil && spec.IfExists {
			return nil
		}
		if _, err := column(t, m.namePos(name), name); err != nil {
			return err
		}
		dropColumn(t, name)
	case ast.AlterTableModifyColumn, ast.AlterTableChangeColumn:
		old := spec.NewColumns[0].Name.Name.O
		if spec.OldColumnName != nil {
			old = spec.OldColumnName.Name.O
		}
		return m.replaceColumn(t, old, spec.NewColumns[0])
	case ast.AlterTableRenameColumn:
		return renameColumn(t, m.namePos(spec.OldColumnName.Name.O), spec.OldColumnName.Name.O, spec.NewColumnName.Name.O)
	case ast.AlterTableRenameTable:
		return m.b.renameTable(t, m.stmtPos(), spec.NewTable.Name.O)
	case ast.AlterTableDropPrimaryKey:
		dropConstraint(t, "PRIMARY")
	case ast.AlterTableDropIndex:
		dropConstraint(t, spec.Name)
	}
	return nil
}

// replaceColumn applies MODIFY and CHANGE COLUMN: a new definition,
// possibly under a new name, in the old column's place.
func (m *myFile) replaceColumn(t *Table, old string, def *ast.ColumnDef) error {
	c, err := column(t, m.namePos(old), old)
	if err != nil {
		return err
	}
	if name := def.Name.Name.O; name != old {
		if err := renameColumn(t, c.Pos, old, name); err != nil {
			return err
		}
	}
	fresh := &Table{Name: t.Name}
	if err := m.addColumnDef(fresh, def); err != nil {
		return err
	}
	n := fresh.Columns[0]
	c.Type, c.NotNull, c.Generated, c.Comment = n.Type, n.NotNull || contains(t.PrimaryKey, c.Name), n.Generated, n.Comment
	c.AutoIncrement = n.AutoIncrement
	return nil
}

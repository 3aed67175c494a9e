package gen

import (
	"errors"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
)

// postgresDefaultSchema is the schema unqualified names resolve to; fencegen
// stores tables in it with an empty Schema, as sqlc names them without prefix.
const postgresDefaultSchema = "public"

// parsePostgres reads one PostgreSQL schema file with pg_query, the parser
// PostgreSQL itself uses (and sqlc's postgresql engine).
func (b *builder) parsePostgres(src Source) error {
	tree, err := pg.Parse(string(src.Data))
	if err != nil {
		return postgresSyntaxError(src, err)
	}
	p := &pgFile{b: b, file: newSourceFile(src)}
	for _, raw := range tree.Stmts {
		if err := p.statement(raw); err != nil {
			return err
		}
	}
	return nil
}

// postgresSyntaxError turns pg_query's error (a 1-based character cursor)
// into a positioned diagnostic.
func postgresSyntaxError(src Source, err error) error {
	var perr *pgparser.Error
	if errors.As(err, &perr) && perr.Cursorpos > 0 {
		off := runeOffsetToByte(src.Data, perr.Cursorpos-1)
		return errorf(posAt(src.Path, src.Data, off), "%s", perr.Message)
	}
	return errorf(Pos{File: src.Path}, "%v", err)
}

// pgFile walks the statements of one file.
type pgFile struct {
	b    *builder
	file *sourceFile
}

func (p *pgFile) pos(location int32) Pos { return p.file.pos(int(location)) }

// stmtPos is the position of a statement's first token: pg_query's
// statement location includes the whitespace and comments before it.
func (p *pgFile) stmtPos(raw *pg.RawStmt) Pos {
	rest := p.file.text[raw.GetStmtLocation():]
	return p.file.pos(len(p.file.text) - len(skipSQLComments(rest)))
}

func (p *pgFile) statement(raw *pg.RawStmt) error {
	n := raw.GetStmt()
	switch {
	case n.GetCreateStmt() != nil:
		return p.createTable(n.GetCreateStmt())
	case n.GetAlterTableStmt() != nil:
		return p.alterTable(n.GetAlterTableStmt())
	case n.GetViewStmt() != nil:
		stmt := n.GetViewStmt()
		return p.addView(stmt.GetView(), stmt.GetReplace())
	case n.GetCreateTableAsStmt() != nil:
		return p.createTableAs(n.GetCreateTableAsStmt())
	case n.GetCreateSchemaStmt() != nil:
		stmt := n.GetCreateSchemaStmt()
		if stmt.GetSchemaname() == postgresDefaultSchema {
			return nil
		}
		return p.b.createSchema(p.stmtPos(raw), stmt.GetSchemaname(), stmt.GetIfNotExists())
	case n.GetCommentStmt() != nil:
		return p.comment(raw, n.GetCommentStmt())
	case n.GetDropStmt() != nil:
		return p.drop(raw, n.GetDropStmt())
	case n.GetRenameStmt() != nil:
		return p.rename(n.GetRenameStmt())
	case n.GetCreateEnumStmt() != nil:
		return p.defineType(raw, typeName(pgStrings(n.GetCreateEnumStmt().GetTypeName())))
	case n.GetCreateDomainStmt() != nil:
		return p.defineType(raw, typeName(pgStrings(n.GetCreateDomainStmt().GetDomainname())))
	case n.GetCompositeTypeStmt() != nil:
		tv := n.GetCompositeTypeStmt().GetTypevar()
		return p.defineType(raw, qualify(pgSchema(tv), tv.GetRelname()))
	case n.GetCreateRangeStmt() != nil:
		return p.defineType(raw, typeName(pgStrings(n.GetCreateRangeStmt().GetTypeName())))
	case n.GetCreateExtensionStmt() != nil:
		p.createExtension(n.GetCreateExtensionStmt().GetExtname())
	}
	return nil
}

// defineType records a user-defined type by its qualified name, rejecting a
// second definition (which sqlc would report at 1:1).
func (p *pgFile) defineType(raw *pg.RawStmt, name string) error {
	pos := p.stmtPos(raw)
	if old, ok := p.b.types[name]; ok {
		return errorf(pos, "type %s is already defined at %s; remove or rename one of them", name, old)
	}
	p.b.types[name] = pos
	return nil
}

// typeName is a type's qualified name as the types map keys it: the
// default schema folded away.
func typeName(names []string) string {
	schema, name := splitPGName(names)
	return qualify(schema, name)
}

// hasType reports whether a type named by names (qualified or not) is
// defined. An unqualified name matches a type of that name in any schema:
// which one the search path finds is no concern of fencegen's, which only
// guards against typos.
func (b *builder) hasType(names []string) bool {
	if len(names) > 1 {
		_, ok := b.types[typeName(names)]
		return ok
	}
	for t := range b.types {
		if t == names[0] || strings.HasSuffix(t, "."+names[0]) {
			return true
		}
	}
	return false
}

// extensionTypes are the types common extensions define. An extension not
// listed here may define any type: after it, unknown type names pass.
var extensionTypes = map[string][]string{
	"citext":             {"citext"},
	"hstore":             {"hstore"},
	"ltree":              {"ltree", "lquery", "ltxtquery"},
	"vector":             {"vector", "halfvec", "sparsevec"},
	"postgis":            {"geometry", "geography", "box2d", "box3d"},
	"cube":               {"cube"},
	"earthdistance":      {"earth"},
	"seg":                {"seg"},
	"intarray":           {"query_int"},
	"isn":                {"ean13", "isbn", "isbn13", "ismn", "ismn13", "issn", "issn13", "upc"},
	"pg_trgm":            {},
	"pgcrypto":           {},
	"uuid-ossp":          {},
	"btree_gin":          {},
	"btree_gist":         {},
	"fuzzystrmatch":      {},
	"unaccent":           {},
	"tablefunc":          {},
	"pg_stat_statements": {},
}

// createExtension records the types CREATE EXTENSION brings.
func (p *pgFile) createExtension(name string) {
	types, known := extensionTypes[name]
	if !known {
		p.b.anyType = true
		return
	}
	for _, t := range types {
		p.b.types[t] = Pos{}
	}
}

func pgSchema(rv *pg.RangeVar) string {
	if s := rv.GetSchemaname(); s != postgresDefaultSchema {
		return s
	}
	return ""
}

func (p *pgFile) createTable(stmt *pg.CreateStmt) error {
	rel := stmt.GetRelation()
	if typ, ok := p.b.types[qualify(pgSchema(rel), rel.GetRelname())]; ok && typ.Line > 0 {
		return errorf(p.pos(rel.GetLocation()), "table %s has the name of the type defined at %s; PostgreSQL keeps both in one namespace", rel.GetRelname(), typ)
	}
	t, err := p.b.addTable(&Table{Schema: pgSchema(rel), Name: rel.GetRelname(), Pos: p.pos(rel.GetLocation())}, stmt.GetIfNotExists())
	if err != nil || t == nil {
		return err
	}
	var tableConstraints []*pg.Constraint
	for _, elt := range stmt.GetTableElts() {
		if def := elt.GetColumnDef(); def != nil {
			if err := p.addColumnDef(t, def); err != nil {
				return err
			}
		}
		if c := elt.GetConstraint(); c != nil {
			tableConstraints = append(tableConstraints, c)
		}
		if like := elt.GetTableLikeClause(); like != nil {
			if err := p.copyLike(t, like); err != nil {
				return err
			}
		}
	}
	for _, c := range tableConstraints {
		if err := p.tableConstraint(t, c); err != nil {
			return err
		}
	}
	return nil
}

// likeIndexes is CREATE_TABLE_LIKE_INDEXES in TableLikeClause's options.
const likeIndexes = 1 << 6

// copyLike applies LIKE src inside CREATE TABLE: src's columns with their
// NOT NULL, and with INCLUDING INDEXES (or ALL) its primary key and unique
// constraints, as PostgreSQL copies them.
func (p *pgFile) copyLike(t *Table, like *pg.TableLikeClause) error {
	rel := like.GetRelation()
	src, err := p.b.table(p.pos(rel.GetLocation()), pgSchema(rel), rel.GetRelname())
	if err != nil {
		return err
	}
	for _, c := range src.Columns {
		copied := &Column{Name: c.Name, Type: c.Type, NotNull: c.NotNull, Generated: c.Generated && like.GetOptions()&(1<<4) != 0, Pos: p.pos(rel.GetLocation())}
		if err := addColumn(t, copied); err != nil {
			return err
		}
	}
	if like.GetOptions()&likeIndexes == 0 {
		return nil
	}
	if len(src.PrimaryKey) > 0 {
		if err := setPrimaryKey(t, p.pos(rel.GetLocation()), "", append([]string(nil), src.PrimaryKey...)); err != nil {
			return err
		}
	}
	for _, u := range src.Uniques {
		if err := addUnique(t, p.pos(rel.GetLocation()), "", append([]string(nil), u...)); err != nil {
			return err
		}
	}
	return nil
}

// addColumnDef adds a column with its inline constraints.
func (p *pgFile) addColumnDef(t *Table, def *pg.ColumnDef) error {
	typ, err := p.columnType(def.GetTypeName())
	if err != nil {
		return err
	}
	c := &Column{Name: def.GetColname(), Type: typ, NotNull: def.GetIsNotNull() || isSerial(typ), Pos: p.pos(def.GetLocation())}
	if err := addColumn(t, c); err != nil {
		return err
	}
	for _, n := range def.GetConstraints() {
		con := n.GetConstraint()
		pos := p.pos(con.GetLocation())
		switch con.GetContype() {
		case pg.ConstrType_CONSTR_NOTNULL:
			c.NotNull = true
		case pg.ConstrType_CONSTR_NULL:
			c.NotNull = false
		case pg.ConstrType_CONSTR_PRIMARY:
			if err := setPrimaryKey(t, pos, con.GetConname(), []string{c.Name}); err != nil {
				return err
			}
		case pg.ConstrType_CONSTR_UNIQUE:
			if err := addUnique(t, pos, con.GetConname(), []string{c.Name}); err != nil {
				return err
			}
		case pg.ConstrType_CONSTR_IDENTITY:
			c.NotNull = true
			c.IdentityAlways = con.GetGeneratedWhen() == "a"
		case pg.ConstrType_CONSTR_GENERATED:
			c.Generated = true
		}
	}
	return nil
}

// tableConstraint applies a table-level PRIMARY KEY or UNIQUE constraint.
func (p *pgFile) tableConstraint(t *Table, con *pg.Constraint) error {
	pos := p.pos(con.GetLocation())
	switch con.GetContype() {
	case pg.ConstrType_CONSTR_PRIMARY:
		return setPrimaryKey(t, pos, con.GetConname(), pgStrings(con.GetKeys()))
	case pg.ConstrType_CONSTR_UNIQUE:
		return addUnique(t, pos, con.GetConname(), pgStrings(con.GetKeys()))
	}
	return nil
}

// columnType names the column's type and rejects types PostgreSQL would not
// know, so the user hears about a typo before sqlc maps it to interface{}.
func (p *pgFile) columnType(tn *pg.TypeName) (string, error) {
	names := pgStrings(tn.GetNames())
	if len(names) == 0 {
		return "", errorf(p.pos(tn.GetLocation()), "column has no type")
	}
	name := names[len(names)-1]
	builtin := len(names) == 2 && names[0] == "pg_catalog"
	if !builtin && !isPostgresType(name) && !p.b.hasType(names) && !p.b.anyType {
		return "", errorf(p.pos(tn.GetLocation()), "unknown type %q; declare it (CREATE TYPE, CREATE DOMAIN, CREATE EXTENSION) before this table", strings.Join(names, "."))
	}
	if len(tn.GetArrayBounds()) > 0 {
		name += "[]"
	}
	return name, nil
}

func (p *pgFile) alterTable(stmt *pg.AlterTableStmt) error {
	if stmt.GetObjtype() != pg.ObjectType_OBJECT_TABLE || onlyOwner(stmt) {
		return nil
	}
	rel := stmt.GetRelation()
	t, err := p.b.table(p.pos(rel.GetLocation()), pgSchema(rel), rel.GetRelname())
	if err != nil {
		if stmt.GetMissingOk() {
			return nil
		}
		return err
	}
	pos := p.pos(rel.GetLocation())
	for _, n := range stmt.GetCmds() {
		if err := p.alterCmd(t, pos, n.GetAlterTableCmd()); err != nil {
			return err
		}
	}
	return nil
}

// onlyOwner reports whether an ALTER TABLE only changes the owner: pg_dump
// writes ALTER TABLE ... OWNER TO for sequences and views too.
func onlyOwner(stmt *pg.AlterTableStmt) bool {
	for _, n := range stmt.GetCmds() {
		if n.GetAlterTableCmd().GetSubtype() != pg.AlterTableType_AT_ChangeOwner {
			return false
		}
	}
	return len(stmt.GetCmds()) > 0
}

// alterCmd applies one ALTER TABLE action; pos is the table name's.
func (p *pgFile) alterCmd(t *Table, pos Pos, cmd *pg.AlterTableCmd) error {
	switch cmd.GetSubtype() {
	case pg.AlterTableType_AT_AddColumn:
		def := cmd.GetDef().GetColumnDef()
		if cmd.GetMissingOk() && t.Column(def.GetColname()) != nil {
			return nil
		}
		return p.addColumnDef(t, def)
	case pg.AlterTableType_AT_AddConstraint:
		return p.tableConstraint(t, cmd.GetDef().GetConstraint())
	case pg.AlterTableType_AT_SetNotNull, pg.AlterTableType_AT_DropNotNull:
		c, err := column(t, pos, cmd.GetName())
		if err != nil {
			return err
		}
		c.NotNull = cmd.GetSubtype() == pg.AlterTableType_AT_SetNotNull
	case pg.AlterTableType_AT_AlterColumnType:
		c, err := column(t, pos, cmd.GetName())
		if err != nil {
			return err
		}
		c.Type, err = p.columnType(cmd.GetDef().GetColumnDef().GetTypeName())
		return err
	case pg.AlterTableType_AT_DropColumn:
		if t.Column(cmd.GetName()) == nil && cmd.GetMissingOk() {
			return nil
		}
		if _, err := column(t, pos, cmd.GetName()); err != nil {
			return err
		}
		dropColumn(t, cmd.GetName())
	case pg.AlterTableType_AT_DropConstraint:
		dropConstraint(t, cmd.GetName())
	}
	return nil
}

// rename applies ALTER TABLE ... RENAME [COLUMN] ... TO.
func (p *pgFile) rename(stmt *pg.RenameStmt) error {
	rel := stmt.GetRelation()
	pos := p.pos(rel.GetLocation())
	switch stmt.GetRenameType() {
	case pg.ObjectType_OBJECT_TABLE, pg.ObjectType_OBJECT_VIEW, pg.ObjectType_OBJECT_MATVIEW:
		t, err := p.b.table(pos, pgSchema(rel), rel.GetRelname())
		if err != nil {
			if stmt.GetMissingOk() {
				return nil
			}
			return err
		}
		return p.b.renameTable(t, pos, stmt.GetNewname())
	case pg.ObjectType_OBJECT_COLUMN:
		t, err := p.b.table(pos, pgSchema(rel), rel.GetRelname())
		if err != nil {
			if stmt.GetMissingOk() {
				return nil
			}
			return err
		}
		return renameColumn(t, pos, stmt.GetSubname(), stmt.GetNewname())
	case pg.ObjectType_OBJECT_TYPE, pg.ObjectType_OBJECT_DOMAIN:
		p.renameType(pgStrings(stmt.GetObject().GetList().GetItems()), stmt.GetNewname())
	}
	return nil
}

// renameType follows ALTER TYPE ... RENAME TO: the type keeps its schema,
// and columns of the type now name it by its new name. A type fencegen does
// not track (an extension's) has nothing to follow.
func (p *pgFile) renameType(names []string, to string) {
	old := typeName(names)
	pos, ok := p.b.types[old]
	if len(names) == 0 || !ok {
		return
	}
	schema, from := splitPGName(names)
	delete(p.b.types, old)
	p.b.types[qualify(schema, to)] = pos
	for _, t := range p.b.schema.Tables {
		for _, c := range t.Columns {
			if base, array := strings.CutSuffix(c.Type, "[]"); base == from {
				c.Type = to
				if array {
					c.Type += "[]"
				}
			}
		}
	}
}

// addView records CREATE [OR REPLACE] VIEW. Replacing a view keeps it (its
// columns are not tracked); replacing a table is an error, as in PostgreSQL.
func (p *pgFile) addView(v *pg.RangeVar, replace bool) error {
	if old := p.b.schema.Table(pgSchema(v), v.GetRelname()); old != nil && old.View && replace {
		return nil
	}
	_, err := p.b.addTable(&Table{Schema: pgSchema(v), Name: v.GetRelname(), View: true, Pos: p.pos(v.GetLocation())}, false)
	return err
}

// createTableAs records CREATE TABLE ... AS and CREATE MATERIALIZED VIEW.
// A table made this way has no key of its own (a later ALTER TABLE can add
// one); its columns are the query's output columns that fencegen can name:
// columns of the tables in FROM by reference or star, and aliased
// expressions.
func (p *pgFile) createTableAs(stmt *pg.CreateTableAsStmt) error {
	into := stmt.GetInto()
	rel := into.GetRel()
	t := &Table{Schema: pgSchema(rel), Name: rel.GetRelname(), View: stmt.GetObjtype() == pg.ObjectType_OBJECT_MATVIEW, Pos: p.pos(rel.GetLocation())}
	t, err := p.b.addTable(t, stmt.GetIfNotExists())
	if err != nil || t == nil || t.View {
		return err
	}
	names := pgStrings(into.GetColNames())
	for i, c := range p.outputColumns(stmt.GetQuery().GetSelectStmt()) {
		if i < len(names) {
			c.Name = names[i]
		}
		c.Pos = t.Pos
		if t.Column(c.Name) == nil {
			t.Columns = append(t.Columns, c)
		}
	}
	return nil
}

// outputColumns names the output columns of a simple SELECT: a column
// reference (typed as the column of a FROM table it names), t.* and * over
// the FROM tables fencegen knows, and any aliased expression (untyped).
// NOT NULL does not carry over, as in PostgreSQL.
func (p *pgFile) outputColumns(sel *pg.SelectStmt) []*Column {
	if sel == nil {
		return nil
	}
	var from []*Table
	for _, n := range sel.GetFromClause() {
		if rv := n.GetRangeVar(); rv != nil {
			if t := p.b.schema.Table(pgSchema(rv), rv.GetRelname()); t != nil {
				from = append(from, t)
			}
		}
	}
	var cols []*Column
	for _, n := range sel.GetTargetList() {
		target := n.GetResTarget()
		fields, star := columnRef(target.GetVal().GetColumnRef())
		switch {
		case star:
			for _, t := range from {
				if len(fields) == 0 || fields[len(fields)-1] == t.Name {
					for _, c := range t.Columns {
						cols = append(cols, &Column{Name: c.Name, Type: c.Type})
					}
				}
			}
		case len(fields) > 0:
			c := &Column{Name: fields[len(fields)-1]}
			for _, t := range from {
				if src := t.Column(c.Name); src != nil && c.Type == "" {
					c.Type = src.Type
				}
			}
			if target.GetName() != "" {
				c.Name = target.GetName()
			}
			cols = append(cols, c)
		case target.GetName() != "":
			cols = append(cols, &Column{Name: target.GetName()})
		}
	}
	return cols
}

// columnRef splits a column reference into its name parts and whether it
// ends in a star.
func columnRef(ref *pg.ColumnRef) (fields []string, star bool) {
	for _, f := range ref.GetFields() {
		if s := f.GetString_(); s != nil {
			fields = append(fields, s.GetSval())
		}
		if f.GetAStar() != nil {
			star = true
		}
	}
	return fields, star
}

// comment records COMMENT ON TABLE and COMMENT ON COLUMN.
func (p *pgFile) comment(raw *pg.RawStmt, stmt *pg.CommentStmt) error {
	names := pgStrings(stmt.GetObject().GetList().GetItems())
	pos := p.stmtPos(raw)
	switch stmt.GetObjtype() {
	case pg.ObjectType_OBJECT_TABLE:
		schema, name := splitPGName(names)
		t, err := p.b.table(pos, schema, name)
		if err != nil {
			return err
		}
		t.Comment = stmt.GetComment()
	case pg.ObjectType_OBJECT_COLUMN:
		if len(names) < 2 {
			return nil
		}
		schema, name := splitPGName(names[:len(names)-1])
		t, err := p.b.table(pos, schema, name)
		if err != nil {
			return err
		}
		c := t.Column(names[len(names)-1])
		if c == nil {
			return errorf(pos, "%s has no column %q", t.QualifiedName(), names[len(names)-1])
		}
		c.Comment = stmt.GetComment()
	}
	return nil
}

func (p *pgFile) drop(raw *pg.RawStmt, stmt *pg.DropStmt) error {
	if stmt.GetRemoveType() != pg.ObjectType_OBJECT_TABLE && stmt.GetRemoveType() != pg.ObjectType_OBJECT_VIEW {
		return nil
	}
	for _, obj := range stmt.GetObjects() {
		schema, name := splitPGName(pgStrings(obj.GetList().GetItems()))
		if p.b.schema.Table(schema, name) == nil {
			if stmt.GetMissingOk() {
				continue
			}
			return errorf(p.stmtPos(raw), "DROP of %s, which is not defined before this statement", qualify(schema, name))
		}
		p.b.dropTable(schema, name)
	}
	return nil
}

// splitPGName resolves [schema,] name, folding the default schema away.
func splitPGName(names []string) (schema, name string) {
	switch len(names) {
	case 0:
		return "", ""
	case 1:
		return "", names[0]
	}
	schema, name = names[len(names)-2], names[len(names)-1]
	if schema == postgresDefaultSchema {
		schema = ""
	}
	return schema, name
}

// strings extracts the values of String nodes.
func pgStrings(nodes []*pg.Node) []string {
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if s := n.GetString_(); s != nil {
			out = append(out, s.GetSval())
		}
	}
	return out
}

func lastString(nodes []*pg.Node) string {
	s := pgStrings(nodes)
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

func isSerial(typ string) bool {
	switch typ {
	case "serial", "serial2", "serial4", "serial8", "smallserial", "bigserial":
		return true
	}
	return false
}

// isPostgresType reports whether name is a type PostgreSQL ships (names the
// parser does not already qualify with pg_catalog).
func isPostgresType(name string) bool {
	switch name {
	case "int2", "int4", "int8", "int", "integer", "smallint", "bigint",
		"serial", "serial2", "serial4", "serial8", "smallserial", "bigserial",
		"float4", "float8", "real", "numeric", "decimal", "money",
		"text", "varchar", "char", "bpchar", "name", "citext", "bytea",
		"bool", "boolean", "date", "time", "timetz", "timestamp", "timestamptz", "interval",
		"uuid", "json", "jsonb", "jsonpath", "xml", "inet", "cidr", "macaddr", "macaddr8",
		"point", "line", "lseg", "box", "path", "polygon", "circle",
		"bit", "varbit", "tsvector", "tsquery", "oid", "regclass", "regtype", "regproc",
		"int4range", "int8range", "numrange", "tsrange", "tstzrange", "daterange",
		"int4multirange", "int8multirange", "nummultirange", "tsmultirange", "tstzmultirange", "datemultirange",
		"pg_lsn", "txid_snapshot", "pg_snapshot", "xid", "xid8", "cid", "tid":
		return true
	}
	return false
}

package sqlscan

import (
	"slices"
	"strconv"
	"strings"
)

// A Schema is what a sequence of migration files says about the unique
// keys of tables: the DDL reader applies CREATE TABLE, CREATE UNIQUE
// INDEX, ALTER TABLE, DROP TABLE, DROP INDEX and RENAME as the database
// would, for PostgreSQL, MySQL/MariaDB and SQLite, and records each
// table's columns (type, NOT NULL, generated) and unique keys.
//
// It errs towards knowing less: a statement it cannot read that may
// change a table's keys marks that table unknown, and one that may change
// any table's (a DO block running DDL, CALL, EXECUTE), or a file it
// cannot tokenize, marks the whole schema unknown. A key it cannot read
// (an expression, a partial index whose predicate is not a conjunction of
// IS NULL tests) is not recorded: a missing key only makes callers report
// more.
type Schema struct {
	tables map[string]*Table // by lower-case unqualified name
	// unknown says why no table can be trusted, or "".
	unknown string
	// sqlite and other record dialect markers seen: SQLite lets primary
	// key columns hold NULL, PostgreSQL and MySQL do not.
	sqlite, other bool
	// changes records what statements did to tables the schema does not
	// define (see Changes).
	changes []Change
	// unread says why the statement being applied could not be read, or
	// "" (ApplyChecked).
	unread string
}

// A Change is what a statement did to the keys of a table the schema did
// not define when it ran: a sequence of migrations kept in one directory
// often alters tables another directory defines (schema/v1/app.sql
// creates them, schema/v2/app.sql alters them). Whoever merges schemas
// applies the changes to the other definitions, so that a key a later
// migration drops or weakens is not taken for one the table still has. A
// change that adds (a column, a key, an index) is not recorded: a key
// added where its table is not defined is simply not known.
type Change struct {
	// Table is the table changed (lower case, unqualified), or "" when a
	// statement drops an index by name alone (PostgreSQL's DROP INDEX).
	Table string
	// Key is the name of a key dropped, or "".
	Key string
	// Primary: the table's primary key is dropped.
	Primary bool
	// Column is a column dropped, renamed or redefined: a key that holds
	// it is no longer known.
	Column string
	// Unknown says why nothing about the table's keys is known any more
	// (renamed, or changed in a way that cannot be read), or "".
	Unknown string
}

// A Problem is a statement of a migration file the reader cannot read:
// its byte offset in the file and what is wrong.
type Problem struct {
	Offset int
	Msg    string
}

// A Table is a table of a Schema.
type Table struct {
	Name    string // lower case, unqualified
	Columns []*Column
	Keys    []*Key
	// Unknown says why the table's keys are not known, or "".
	Unknown string
	// withoutRowid is SQLite's WITHOUT ROWID (primary key columns NOT NULL).
	withoutRowid bool
}

// A Column is a column of a Table.
type Column struct {
	Name string // lower case
	// Type is the lower-case base type ("varchar", "bigint", "timestamp")
	// and Len the first number of its arguments (varchar(5): 5), or 0.
	Type string
	Len  int
	// NotNull: declared NOT NULL (or the column of a PostgreSQL/MySQL
	// primary key).
	NotNull bool
	// Generated: the database fills it by itself (AUTO_INCREMENT, SERIAL,
	// GENERATED ... AS IDENTITY, a generated column, a DEFAULT that draws
	// a fresh value: gen_random_uuid(), uuid_generate_v4(), nextval(), or
	// SQLite's INTEGER PRIMARY KEY rowid alias).
	Generated bool
	// Default: declared with a DEFAULT other than NULL, so that a row
	// inserted without it may hold a value.
	Default bool
}

// A Key is a primary key or a unique constraint or index.
type Key struct {
	// Columns are lower case, in order; none for a partial index on a
	// constant ((TRUE)), which admits one row among those it covers.
	Columns []string
	// NullWhere are the columns a partial index's predicate requires to be
	// NULL (WHERE deleted_at IS NULL): it covers only those rows.
	NullWhere []string
	Primary   bool
	// Names are the names the key can be dropped by: the declared one and
	// the names PostgreSQL and MySQL give it by default.
	Names []string
}

// NewSchema returns an empty schema.
func NewSchema() *Schema { return &Schema{tables: make(map[string]*Table)} }

// Unknown says why the schema as a whole cannot be trusted, or "".
func (s *Schema) Unknown() string { return s.unknown }

// Table returns the table named name (qualified or not, any case), or nil
// when the schema does not define it.
func (s *Schema) Table(name string) *Table {
	return s.tables[tableKey(name)]
}

// Tables returns the tables in name order.
func (s *Schema) Tables() []*Table {
	out := make([]*Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Table) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// UniqueKeys returns the keys of t that reject a second row with the same
// values: every column NOT NULL (a NULL is distinct from every other NULL
// in a unique key), none generated, with the columns in order. An unknown
// table or schema has none.
func (s *Schema) UniqueKeys(t *Table) []*Key {
	if t == nil || t.Unknown != "" || s.unknown != "" {
		return nil
	}
	var out []*Key
	for _, k := range t.Keys {
		ok := len(k.Columns) > 0 || len(k.NullWhere) > 0
		for _, c := range k.Columns {
			col := t.column(c)
			if col == nil || col.Generated || !col.NotNull && !(k.Primary && s.pkNotNull(t)) {
				ok = false
				break
			}
		}
		for _, c := range k.NullWhere {
			// A row left without the column must be one the index covers.
			if col := t.column(c); col == nil || col.Generated || col.Default {
				ok = false
			}
		}
		if ok {
			out = append(out, k)
		}
	}
	return out
}

// pkNotNull reports whether t's primary key columns cannot hold NULL:
// always in PostgreSQL and MySQL, in SQLite only WITHOUT ROWID.
func (s *Schema) pkNotNull(t *Table) bool {
	return t.withoutRowid || s.other && !s.sqlite
}

// Column returns t's column named name (any case), or nil.
func (t *Table) Column(name string) *Column { return t.column(strings.ToLower(name)) }

func (t *Table) column(lower string) *Column {
	for _, c := range t.Columns {
		if c.Name == lower {
			return c
		}
	}
	return nil
}

// tableKey is the map key of a table name: lower case, unqualified.
func tableKey(name string) string {
	name = strings.ToLower(name)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// IsDownMigration reports whether a migration file of this name undoes
// migrations (golang-migrate's 1_init.down.sql, down/ directories) and so
// is not part of the schema.
func IsDownMigration(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".down.sql") || strings.HasSuffix(n, "_down.sql") ||
		strings.Contains(n, "/down/") || strings.HasPrefix(n, "down/")
}

// UpSection returns the part of a migration file that migrates up: the
// text before goose's "-- +goose Down", sql-migrate's "-- +migrate Down"
// or dbmate's "-- migrate:down".
func UpSection(text string) string {
	lower := strings.ToLower(text)
	end := len(text)
	for _, marker := range []string{"-- +goose down", "-- +migrate down", "-- migrate:down"} {
		if i := strings.Index(lower, marker); i >= 0 && i < end {
			end = i
		}
	}
	return text[:end]
}

// MigrationLess orders migration file names as migration tools apply
// them: by the number they start with, compared as a number (2_x before
// 10_x), then by name.
func MigrationLess(a, b string) bool {
	na, ra := leadingNumber(a)
	nb, rb := leadingNumber(b)
	if na != nil && nb != nil && na.Cmp(nb) != 0 {
		return na.Cmp(nb) < 0
	}
	if ra != rb {
		return ra < rb
	}
	return a < b
}

// number is a decimal number of any length, compared by value.
type number string

func (n *number) Cmp(m *number) int {
	a, b := strings.TrimLeft(string(*n), "0"), strings.TrimLeft(string(*m), "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// leadingNumber splits the base name of a file into the digits it starts
// with (nil if none) and the rest.
func leadingNumber(name string) (*number, string) {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	j := 0
	for j < len(name) && isDigit(name[j]) {
		j++
	}
	if j == 0 {
		return nil, name
	}
	n := number(name[:j])
	return &n, name[j:]
}

// Opaque records a migration step the reader cannot see into (a
// migration written in Go): every table defined so far is unknown.
func (s *Schema) Opaque(why string) {
	for _, t := range s.tables {
		if t.Unknown == "" {
			t.Unknown = why
		}
	}
}

// Changes returns what the statements applied did to the keys of tables
// the schema did not define when they ran, in order.
func (s *Schema) Changes() []Change { return s.changes }

// Apply applies the up section of one migration file to the schema.
func (s *Schema) Apply(text string) { s.apply(text, nil) }

// ApplyChecked applies one migration file as Apply does and returns the
// statements it could not read: text that cannot be tokenized (an
// unterminated string or comment), and DDL whose table or key could not
// be read. A statement the reader skips because it cannot change a key
// (an INSERT, a CREATE VIEW) is no problem, nor is one it reads but must
// distrust (a trigger, CALL, ALTER TABLE ... CHANGE).
func (s *Schema) ApplyChecked(text string) []Problem {
	var problems []Problem
	s.apply(text, &problems)
	return problems
}

func (s *Schema) apply(text string, problems *[]Problem) {
	text = UpSection(text)
	lx, d := read(text, Auto)
	if lx.problem != "" {
		s.unknown = "a migration file cannot be read: " + lx.problem
		if problems != nil {
			*problems = append(*problems, Problem{Offset: lx.problemAt, Msg: lx.problem})
		}
		return
	}
	switch {
	case d == MySQL || d == PostgreSQL || lx.pgMark || lx.myMark:
		s.other = true
	}
	for _, span := range splitStatements(lx.toks) {
		toks := lx.toks[span[0]:span[1]]
		s.unread = ""
		match, balanced := matchParens(toks)
		if !balanced {
			s.unknownStatement(toks)
		} else {
			r := &ddl{s: s, st: &stmt{toks: toks, match: match, hi: len(toks)}}
			r.statement()
		}
		if problems != nil && s.unread != "" && len(toks) > 0 {
			*problems = append(*problems, Problem{Offset: toks[0].pos, Msg: s.unread})
		}
	}
}

// distrust records why the statement being applied makes a table or the
// schema unknown, and returns why: a reason that says the DDL "cannot be
// read" is a problem ApplyChecked reports (a trigger, CALL or ALTER TABLE
// ... CHANGE is read, and merely distrusted).
func (s *Schema) distrust(why string) string {
	if s.unread == "" && strings.Contains(why, "cannot be read") {
		s.unread = why
	}
	return why
}

// unknownStatement marks what an unreadable statement may change unknown.
func (s *Schema) unknownStatement(toks []token) {
	if len(toks) >= 3 && (toks[0].is("CREATE") || toks[0].is("ALTER")) {
		for i := 1; i+1 < len(toks); i++ {
			if !toks[i].is("TABLE") {
				continue
			}
			j := i + 1
			for j < len(toks) && (toks[j].is("IF") || toks[j].is("NOT") || toks[j].is("EXISTS") || toks[j].is("ONLY")) {
				j++
			}
			if j < len(toks) && toks[j].isName() {
				for j+2 < len(toks) && toks[j+1].kind == tDot && toks[j+2].isName() {
					j += 2
				}
				s.markUnknown(toks[j].text, s.distrust("its DDL cannot be read"))
				return
			}
		}
	}
	if len(toks) > 0 && (toks[0].is("ALTER") || toks[0].is("DROP") || toks[0].is("RENAME")) {
		s.unknown = s.distrust("a DDL statement cannot be read")
	}
}

// markUnknown marks a table unknown, defining it if need be.
func (s *Schema) markUnknown(name, why string) {
	t := s.tables[tableKey(name)]
	if t == nil {
		t = &Table{Name: tableKey(name)}
		s.tables[t.Name] = t
	}
	if t.Unknown == "" {
		t.Unknown = why
	}
}

// ddl reads one statement into a Schema.
type ddl struct {
	s  *Schema
	st *stmt
}

func (r *ddl) tok(i int) *token { return &r.st.toks[i] }

// statement applies one statement.
func (r *ddl) statement() {
	s := r.st
	if s.hi == 0 {
		return
	}
	r.markDialect()
	switch {
	case s.word(0, "CREATE"):
		r.create(1)
	case s.word(0, "ALTER") && s.word(1, "TABLE"):
		r.alterTable(2)
	case s.word(0, "DROP") && s.word(1, "TABLE"):
		r.dropTables(2)
	case s.word(0, "DROP") && s.word(1, "INDEX"):
		r.dropIndex(2)
	case s.word(0, "RENAME") && s.word(1, "TABLE"):
		r.renameTables(2)
	case s.word(0, "CALL") || s.word(0, "EXECUTE") || s.word(0, "PREPARE"):
		r.s.unknown = "a migration runs DDL fencelint cannot see (" + strings.ToUpper(s.toks[0].text) + ")"
	case s.word(0, "DO"):
		if r.bodyChangesSchema() {
			r.s.unknown = "a DO block runs DDL"
		}
	}
}

// markDialect notes the dialect markers of the statement.
func (r *ddl) markDialect() {
	for i := range r.st.toks {
		t := r.tok(i)
		switch {
		case t.is("AUTOINCREMENT"), t.is("ROWID") && i > 0 && r.tok(i-1).is("WITHOUT"), t.is("STRICT") && i > 0 && r.tok(i-1).kind == tRParen:
			r.s.sqlite = true
		case t.is("AUTO_INCREMENT"), t.is("SERIAL"), t.is("BIGSERIAL"), t.is("IDENTITY"), t.is("ENGINE"), t.is("UNSIGNED"):
			r.s.other = true
		}
	}
}

// bodyChangesSchema reports whether a string of the statement (a DO
// block's body) holds DDL that may change keys. A CREATE TABLE there may
// make a table a later CREATE TABLE IF NOT EXISTS then leaves as it is,
// except a partition (CREATE TABLE ... PARTITION OF parent: a month's
// audit log, named at run time), which changes no table's keys.
func (r *ddl) bodyChangesSchema() bool {
	for i := range r.st.toks {
		if t := r.tok(i); t.kind == tString {
			u := strings.ToUpper(t.text)
			for _, ddl := range []string{"ALTER TABLE", "DROP ", "CREATE UNIQUE", "RENAME"} {
				if strings.Contains(u, ddl) {
					return true
				}
			}
			if strings.Count(u, "CREATE TABLE") > strings.Count(u, "PARTITION OF") {
				return true
			}
		}
	}
	return false
}

// create reads CREATE ... at i.
func (r *ddl) create(i int) {
	s := r.st
	i = s.skipWords(i, "OR", "REPLACE")
	temp := false
	for s.word(i, "TEMP") || s.word(i, "TEMPORARY") || s.word(i, "UNLOGGED") || s.word(i, "GLOBAL") || s.word(i, "LOCAL") {
		temp = temp || s.word(i, "TEMP") || s.word(i, "TEMPORARY")
		i++
	}
	switch {
	case s.word(i, "TABLE"):
		if !temp {
			r.createTable(i + 1)
		}
	case s.word(i, "UNIQUE"):
		i = s.skipWords(i+1, "CLUSTERED", "NONCLUSTERED")
		if s.word(i, "INDEX") {
			r.createUniqueIndex(i + 1)
		}
	case s.word(i, "TRIGGER"), s.word(i, "RULE"):
		// A trigger or rule may rewrite or drop an insert: its table's
		// inserts cannot be judged by the key alone.
		if on := s.find(i, s.hi, "ON"); on < s.hi {
			j := on + 1
			if s.word(j, "INSERT") && s.word(j+1, "TO") { // CREATE RULE ... ON INSERT TO t
				j += 2
			}
			if _, last, _, ok := s.name(j); ok {
				r.s.markUnknown(last, "a trigger or rule acts on its writes")
			}
		}
	}
}

// createTable reads CREATE TABLE [IF NOT EXISTS] name (...) at i.
func (r *ddl) createTable(i int) {
	s := r.st
	if s.word(i, "IF") && s.word(i+1, "NOT") && s.word(i+2, "EXISTS") {
		i += 3
	}
	_, last, j, ok := s.name(i)
	if !ok {
		r.s.unknownStatement(s.toks)
		return
	}
	if j >= s.hi || s.toks[j].kind != tLParen {
		r.s.markUnknown(last, "defined by CREATE TABLE ... AS, LIKE or PARTITION OF")
		return
	}
	end := s.closeOf(j)
	t := &Table{Name: tableKey(last)}
	for _, part := range s.split(j+1, end) {
		if !r.element(t, part[0], part[1]) {
			r.define(t)
			r.s.markUnknown(last, r.s.distrust("a column or constraint of its CREATE TABLE cannot be read"))
			return
		}
	}
	for k := end + 1; k+1 < s.hi; k++ {
		if s.word(k, "WITHOUT") && s.word(k+1, "ROWID") {
			t.withoutRowid = true
		}
	}
	r.rowidAliases(t)
	r.define(t)
}

// define adds t to the schema. A table defined twice (migrations of two
// databases embedded together, CREATE TABLE IF NOT EXISTS again) keeps
// only what both definitions say: the keys of both, a column generated
// or nullable in either is so.
func (r *ddl) define(t *Table) {
	old := r.s.tables[t.Name]
	r.s.tables[t.Name] = t
	if old == nil {
		return
	}
	if old.Unknown != "" && t.Unknown == "" {
		t.Unknown = old.Unknown
	}
	t.withoutRowid = t.withoutRowid && old.withoutRowid
	for _, c := range t.Columns {
		if oc := old.column(c.Name); oc != nil {
			c.NotNull = c.NotNull && oc.NotNull
			c.Generated = c.Generated || oc.Generated
		}
	}
	t.Keys = slices.DeleteFunc(t.Keys, func(k *Key) bool {
		return !slices.ContainsFunc(old.Keys, func(o *Key) bool { return slices.Equal(o.Columns, k.Columns) })
	})
}

// rowidAliases marks generated SQLite's INTEGER PRIMARY KEY, which aliases
// the rowid and is filled by the database, unless the schema is evidently
// PostgreSQL's or MySQL's.
func (r *ddl) rowidAliases(t *Table) {
	if t.withoutRowid || r.s.other && !r.s.sqlite {
		return
	}
	for _, k := range t.Keys {
		if k.Primary && len(k.Columns) == 1 {
			if c := t.column(k.Columns[0]); c != nil && c.Type == "integer" {
				c.Generated = true
			}
		}
	}
}

// element reads a column definition or table constraint in [lo, hi) of
// a CREATE TABLE; false if it cannot.
func (r *ddl) element(t *Table, lo, hi int) bool {
	s := r.st
	name := ""
	if s.word(lo, "CONSTRAINT") {
		if lo+1 >= hi || !s.toks[lo+1].isName() {
			return false
		}
		name = strings.ToLower(s.toks[lo+1].text)
		lo += 2
	}
	switch {
	case s.word(lo, "PRIMARY") && s.word(lo+1, "KEY"):
		r.tableKey(t, name, true, lo+2, hi)
	case s.word(lo, "UNIQUE"):
		r.tableKey(t, name, false, s.skipWords(lo+1, "KEY", "INDEX"), hi)
	case s.word(lo, "FOREIGN") && s.word(lo+1, "KEY"), s.word(lo, "CHECK") && r.paren(lo+1),
		s.word(lo, "EXCLUDE") && (s.word(lo+1, "USING") || r.paren(lo+1)),
		(s.word(lo, "FULLTEXT") || s.word(lo, "SPATIAL")) && !r.columnType(lo+1, hi),
		(s.word(lo, "INDEX") || s.word(lo, "KEY")) && !r.columnType(lo+1, hi):
	case s.word(lo, "LIKE"), s.word(lo, "PERIOD") && s.word(lo+1, "FOR"):
		return false
	case name != "":
		return false
	default:
		return r.columnDef(t, lo, hi)
	}
	return true
}

// paren reports whether the token at i is an opening parenthesis.
func (r *ddl) paren(i int) bool { return i < r.st.hi && r.st.toks[i].kind == tLParen }

// columnType reports whether [i, hi) reads as a column's type and
// constraints rather than an index's [name] (columns): a word not
// followed by a parenthesis, or by one that holds a number (varchar(5)).
func (r *ddl) columnType(i, hi int) bool {
	s := r.st
	if i >= hi || s.toks[i].kind != tWord {
		return false
	}
	if i+1 >= hi || !r.paren(i+1) {
		return !s.word(i+1, "USING")
	}
	return i+2 < hi && s.toks[i+2].kind == tNumber
}

// tableKey reads a table-level key's [name] (cols) ... at i and adds it
// unless it cannot be read or resolves conflicts itself (SQLite's ON
// CONFLICT REPLACE or IGNORE).
func (r *ddl) tableKey(t *Table, name string, primary bool, i, hi int) {
	s := r.st
	if i < hi && s.toks[i].isName() && !s.word(i, "USING") && !s.word(i, "NULLS") {
		name = strings.ToLower(s.toks[i].text) // MySQL's UNIQUE KEY name (cols)
		i++
	}
	if s.word(i, "NULLS") {
		i = s.skipWords(i+1, "NOT", "DISTINCT")
	}
	if s.word(i, "USING") {
		i += 2
	}
	if i >= hi || s.toks[i].kind != tLParen {
		return
	}
	end := s.closeOf(i)
	cols, ok := r.keyColumns(i+1, end)
	if !ok || r.resolvesConflicts(end+1, hi) {
		return
	}
	t.addKey(&Key{Columns: cols, Primary: primary, Names: r.keyNames(t, name, cols, primary)})
}

// keyColumns reads the column list of a key in [lo, hi): names, each
// optionally with a prefix length, a collation and ASC or DESC.
func (r *ddl) keyColumns(lo, hi int) ([]string, bool) {
	s := r.st
	var cols []string
	for _, part := range s.split(lo, hi) {
		i := part[0]
		if i >= part[1] || !s.toks[i].isName() {
			return nil, false
		}
		col := strings.ToLower(s.toks[i].text)
		i++
		if i+2 < part[1] && s.toks[i].kind == tLParen && s.toks[i+1].kind == tNumber && s.closeOf(i) == i+2 {
			i += 3 // MySQL's prefix: name(10)
		}
		if s.word(i, "COLLATE") {
			i += 2
		}
		i = s.skipWords(i, "ASC", "DESC")
		if i != part[1] {
			return nil, false // an expression, an operator class, WITHOUT OVERLAPS
		}
		cols = append(cols, col)
	}
	return cols, len(cols) > 0
}

// resolvesConflicts reports a clause in [i, hi) that keeps a duplicate
// INSERT from failing at once: SQLite's ON CONFLICT REPLACE or IGNORE, or
// PostgreSQL's DEFERRABLE (checked at commit, or deferred by SET
// CONSTRAINTS).
func (r *ddl) resolvesConflicts(i, hi int) bool {
	s := r.st
	for ; i < hi; i++ {
		if i+2 < hi && s.word(i, "ON") && s.word(i+1, "CONFLICT") && (s.word(i+2, "REPLACE") || s.word(i+2, "IGNORE")) {
			return true
		}
		if s.word(i, "DEFERRABLE") && !s.word(i-1, "NOT") {
			return true
		}
	}
	return false
}

// keyNames returns the names a key can be dropped by.
func (r *ddl) keyNames(t *Table, name string, cols []string, primary bool) []string {
	var names []string
	if name != "" {
		names = append(names, name)
	}
	if primary {
		return append(names, t.Name+"_pkey", "primary")
	}
	return append(names, t.Name+"_"+strings.Join(cols, "_")+"_key", cols[0])
}

// addKey adds k unless t has a key on the same columns.
func (t *Table) addKey(k *Key) {
	for _, o := range t.Keys {
		if slices.Equal(o.Columns, k.Columns) && slices.Equal(o.NullWhere, k.NullWhere) {
			o.Names = append(o.Names, k.Names...)
			o.Primary = o.Primary || k.Primary
			return
		}
	}
	t.Keys = append(t.Keys, k)
}

// columnDef reads a column definition in [lo, hi) and adds the column and
// its inline keys to t.
func (r *ddl) columnDef(t *Table, lo, hi int) bool {
	s := r.st
	if lo >= hi || !s.toks[lo].isName() {
		return false
	}
	c := &Column{Name: strings.ToLower(s.toks[lo].text)}
	i := lo + 1
	if i < hi && s.toks[i].kind == tWord && !r.constraintWord(i) {
		c.Type = strings.ToLower(s.toks[i].text)
		i++
		for i < hi && s.toks[i].kind == tWord && !r.constraintWord(i) {
			i++ // varying, precision, unsigned, with time zone
		}
		if i < hi && s.toks[i].kind == tLParen {
			end := s.closeOf(i)
			if i+1 < end && s.toks[i+1].kind == tNumber {
				c.Len, _ = strconv.Atoi(s.toks[i+1].text)
			}
			i = end + 1
		}
	}
	switch c.Type {
	case "serial", "bigserial", "smallserial", "serial2", "serial4", "serial8":
		c.Generated = true
	case "character", "char":
		if s.word(lo+2, "VARYING") {
			c.Type = "varchar"
		}
	}
	var keys []*Key
	name := ""
	for i < hi {
		switch {
		case s.toks[i].kind == tLParen:
			i = s.closeOf(i) + 1
			continue
		case s.word(i, "CONSTRAINT") && i+1 < hi:
			name = strings.ToLower(s.toks[i+1].text)
			i += 2
			continue
		case s.word(i, "NOT") && s.word(i+1, "NULL"):
			c.NotNull = true
		case s.word(i, "PRIMARY") && s.word(i+1, "KEY"):
			if !r.resolvesConflicts(i, hi) {
				keys = append(keys, &Key{Columns: []string{c.Name}, Primary: true, Names: r.keyNames(t, name, []string{c.Name}, true)})
			}
		case s.word(i, "UNIQUE"):
			if !r.resolvesConflicts(i, hi) {
				keys = append(keys, &Key{Columns: []string{c.Name}, Names: r.keyNames(t, name, []string{c.Name}, false)})
			}
		case s.word(i, "AUTO_INCREMENT"), s.word(i, "AUTOINCREMENT"), s.word(i, "IDENTITY"):
			c.Generated = true
		case s.word(i, "GENERATED"), s.word(i, "AS") && i+1 < hi && s.toks[i+1].kind == tLParen:
			c.Generated = true // an identity or a generated column
		case s.word(i, "DEFAULT"):
			end := r.nextConstraint(i+1, hi)
			if r.drawsFresh(i+1, end) {
				c.Generated = true
			}
			c.Default = !s.word(i+1, "NULL") && !s.nullExpr(i+1, end) // NULL also starts a constraint
			i = end
			continue
		}
		i++
	}
	if old := t.column(c.Name); old != nil {
		*old = *c
	} else {
		t.Columns = append(t.Columns, c)
	}
	for _, k := range keys {
		t.addKey(k)
	}
	return true
}

// constraintWord reports whether the word at i starts a column constraint
// rather than continuing the type.
func (r *ddl) constraintWord(i int) bool {
	for _, kw := range []string{"NOT", "NULL", "PRIMARY", "UNIQUE", "DEFAULT", "CONSTRAINT", "REFERENCES", "CHECK",
		"GENERATED", "AUTO_INCREMENT", "AUTOINCREMENT", "IDENTITY", "COLLATE", "AS", "COMMENT", "ON", "CHARACTER", "CHARSET", "KEY"} {
		if r.st.toks[i].is(kw) {
			return true
		}
	}
	return false
}

// nextConstraint returns the index of the next column constraint keyword
// at top level in [i, hi), or hi.
func (r *ddl) nextConstraint(i, hi int) int {
	for i < hi {
		if r.st.toks[i].kind == tLParen {
			i = r.st.closeOf(i) + 1
			continue
		}
		for _, kw := range []string{"NOT", "NULL", "PRIMARY", "UNIQUE", "DEFAULT", "CONSTRAINT", "REFERENCES", "CHECK", "GENERATED", "AUTO_INCREMENT", "AUTOINCREMENT", "COLLATE", "COMMENT", "ON"} {
			if r.st.toks[i].is(kw) {
				return i
			}
		}
		i++
	}
	return hi
}

// freshDefault reports whether a function, called in a column's DEFAULT,
// draws a fresh identifier or a sequence's next value: the database fills
// the column.
func freshDefault(name string) bool {
	switch strings.ToLower(name) {
	case "gen_random_uuid", "uuid_generate_v1", "uuid_generate_v1mc", "uuid_generate_v4", "uuid_generate_v7", "uuidv4", "uuidv7",
		"uuid", "uuid_short", "uuid_to_bin", "newid", "nextval", "random", "randomblob", "gen_random_bytes", "rand", "gen_ulid", "generate_ulid":
		return true
	}
	return false
}

// drawsFresh reports whether the DEFAULT expression in [lo, hi) calls a
// function that draws a fresh value, at any depth.
func (r *ddl) drawsFresh(lo, hi int) bool {
	s := r.st
	for i := lo; i+1 < hi; i++ {
		if s.toks[i].kind == tWord && s.toks[i+1].kind == tLParen && freshDefault(s.toks[i].text) {
			return true
		}
	}
	return false
}

// createUniqueIndex reads [CONCURRENTLY] [IF NOT EXISTS] [name] [USING m]
// ON [ONLY] table [USING m] (cols) [WHERE predicate] at i. A partial index
// rejects duplicates only among the rows it covers: it is recorded when
// its predicate only requires columns to be NULL (NullWhere), the
// soft-deleted rows' and finished ones' way out of the key; its columns may
// then be a constant, (TRUE): at most one covered row.
func (r *ddl) createUniqueIndex(i int) {
	s := r.st
	on := s.find(i, s.hi, "ON")
	if on >= s.hi {
		return
	}
	name := ""
	for k := i; k < on; k++ {
		if s.toks[k].isName() && !s.word(k, "CONCURRENTLY") && !s.word(k, "IF") && !s.word(k, "NOT") && !s.word(k, "EXISTS") && !s.word(k, "USING") && !(k > i && s.word(k-1, "USING")) {
			name = strings.ToLower(s.toks[k].text)
		}
	}
	j := s.skipWords(on+1, "ONLY")
	_, last, j, ok := s.name(j)
	if !ok {
		return
	}
	t := r.s.Table(last)
	if t == nil {
		return
	}
	if s.word(j, "USING") {
		j += 2
	}
	if j >= s.hi || s.toks[j].kind != tLParen {
		return
	}
	end := s.closeOf(j)
	var nullWhere []string
	if where := s.find(end+1, s.hi, "WHERE"); where < s.hi {
		var ok bool
		if nullWhere, ok = s.nullTests(where+1, s.hi); !ok {
			return
		}
	}
	cols, ok := r.keyColumns(j+1, end)
	if !ok && (nullWhere == nil || !s.constantKey(j+1, end)) {
		return
	}
	names := []string{t.Name + "_" + strings.Join(cols, "_") + "_idx"} // PostgreSQL's default name
	if name != "" {
		names = append(names, name)
	}
	t.addKey(&Key{Columns: cols, NullWhere: nullWhere, Names: names})
}

// nullTests reads a partial index's predicate in [lo, hi) that is a
// conjunction of col IS NULL tests (split by the WHERE clauses' condition
// parser) and returns the columns (lower case, sorted).
func (s *stmt) nullTests(lo, hi int) ([]string, bool) {
	for hi > lo && s.toks[hi-1].kind == tSemi {
		hi--
	}
	var cols []string
	var conjuncts func(c cond) bool
	conjuncts = func(c cond) bool {
		switch c.op {
		case '&':
			for _, k := range c.kids {
				if !conjuncts(k) {
					return false
				}
			}
			return true
		case 0:
			// A bare column: the condition parser's column() reads a DML
			// statement's target and takes COALESCE(col, x) for col.
			lo, hi := s.strip(c.lo, c.hi)
			if hi-lo != 3 || !s.toks[lo].isName() || !s.word(lo+1, "IS") || !s.word(lo+2, "NULL") {
				return false
			}
			cols = append(cols, strings.ToLower(s.toks[lo].text))
			return true
		}
		return false // OR, NOT
	}
	if lo >= hi || !conjuncts(s.parseAnd(lo, hi)) {
		return nil, false
	}
	slices.Sort(cols)
	return slices.Compact(cols), true
}

// constantKey reports whether a unique index's key in [lo, hi) is one
// constant ((TRUE), (1)): every row the index covers has the same key.
func (s *stmt) constantKey(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	return hi-lo == 1 && (s.word(lo, "TRUE") || s.toks[lo].kind == tNumber)
}

// nullExpr reports whether a DEFAULT expression in [lo, hi) is NULL.
func (s *stmt) nullExpr(lo, hi int) bool {
	lo, hi = s.strip(lo, hi)
	return hi-lo == 1 && s.word(lo, "NULL")
}

// alterTable reads ALTER TABLE [IF EXISTS] [ONLY] name action, ... at i.
func (r *ddl) alterTable(i int) {
	s := r.st
	if s.word(i, "IF") && s.word(i+1, "EXISTS") {
		i += 2
	}
	i = s.skipWords(i, "ONLY")
	_, last, j, ok := s.name(i)
	if !ok {
		r.s.unknown = r.s.distrust("an ALTER TABLE cannot be read")
		return
	}
	t := r.s.Table(last)
	if t == nil {
		r.foreignAlter(tableKey(last), j) // a table another sequence may define
		return
	}
	for _, part := range s.split(j, s.hi) {
		if why := r.s.distrust(r.alterAction(t, part[0], part[1])); why != "" {
			if t.Unknown == "" {
				t.Unknown = why
			}
			return
		}
	}
}

// alterAction applies one action of an ALTER TABLE to t and returns why
// t is no longer known, or "".
func (r *ddl) alterAction(t *Table, lo, hi int) string {
	s := r.st
	switch {
	case s.word(lo, "ADD"):
		return r.addAction(t, lo+1, hi)
	case s.word(lo, "DROP"):
		return r.dropAction(t, lo+1, hi)
	case s.word(lo, "ALTER") && !s.word(lo+1, "CONSTRAINT"):
		return r.alterColumn(t, s.skipWords(lo+1, "COLUMN"), hi)
	case s.word(lo, "MODIFY"):
		if !r.columnDef(t, s.skipWords(lo+1, "COLUMN"), hi) {
			return "an ALTER TABLE ... MODIFY cannot be read"
		}
		r.rowidAliases(t)
	case s.word(lo, "RENAME"):
		return r.renameAction(t, lo+1, hi)
	case s.word(lo, "CHANGE"):
		return "a column is changed (ALTER TABLE ... CHANGE)"
	default:
		if r.noOpAction(lo) {
			return ""
		}
		return "an ALTER TABLE action cannot be read"
	}
	return ""
}

// noOpAction reports whether the ALTER TABLE action at lo leaves keys and
// columns as they are (an owner, a comment, an engine, a constraint's
// validation).
func (r *ddl) noOpAction(lo int) bool {
	for _, kw := range []string{"OWNER", "SET", "RESET", "ENABLE", "DISABLE", "VALIDATE", "ALTER", "REPLICA", "CLUSTER", "INHERIT",
		"NO", "ENGINE", "AUTO_INCREMENT", "DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "COMMENT", "CONVERT", "ROW_FORMAT",
		"FORCE", "ALGORITHM", "LOCK", "ATTACH", "DETACH", "OF", "NOT"} {
		if r.st.word(lo, kw) {
			return true
		}
	}
	return false
}

// addAction reads ADD ... of an ALTER TABLE at i.
func (r *ddl) addAction(t *Table, i, hi int) string {
	s := r.st
	name := ""
	if s.word(i, "CONSTRAINT") {
		if i+1 < hi && s.toks[i+1].isName() && !s.word(i+1, "PRIMARY") && !s.word(i+1, "UNIQUE") {
			name = strings.ToLower(s.toks[i+1].text)
			i++
		}
		i++
	}
	switch {
	case s.word(i, "PRIMARY") && s.word(i+1, "KEY"):
		r.tableKey(t, name, true, i+2, hi)
	case s.word(i, "UNIQUE"):
		r.tableKey(t, name, false, s.skipWords(i+1, "KEY", "INDEX"), hi)
	case s.word(i, "FOREIGN"), s.word(i, "CHECK"), s.word(i, "EXCLUDE"), s.word(i, "INDEX"), s.word(i, "KEY"), s.word(i, "FULLTEXT"), s.word(i, "SPATIAL"):
	case name != "":
		return "an ALTER TABLE ... ADD CONSTRAINT cannot be read"
	default:
		i = s.skipWords(i, "COLUMN")
		if s.word(i, "IF") && s.word(i+1, "NOT") && s.word(i+2, "EXISTS") {
			i += 3
		}
		if !r.columnDef(t, i, hi) {
			return "an ALTER TABLE ... ADD cannot be read"
		}
		r.rowidAliases(t)
	}
	return ""
}

// dropAction reads DROP ... of an ALTER TABLE at i.
func (r *ddl) dropAction(t *Table, i, hi int) string {
	s := r.st
	switch {
	case s.word(i, "PRIMARY") && s.word(i+1, "KEY"):
		t.Keys = slices.DeleteFunc(t.Keys, func(k *Key) bool { return k.Primary })
	case s.word(i, "CONSTRAINT"), s.word(i, "INDEX"), s.word(i, "KEY"):
		j := i + 1
		if s.word(j, "IF") && s.word(j+1, "EXISTS") {
			j += 2
		}
		if j >= hi || !s.toks[j].isName() {
			return "an ALTER TABLE ... DROP cannot be read"
		}
		name := strings.ToLower(s.toks[j].text)
		n := len(t.Keys)
		t.Keys = slices.DeleteFunc(t.Keys, func(k *Key) bool { return slices.Contains(k.Names, name) })
		if len(t.Keys) == n && s.word(i, "CONSTRAINT") && r.s.hasKeyLike(t, name) {
			return "a constraint fencelint cannot name is dropped"
		}
	case s.word(i, "FOREIGN"), s.word(i, "CHECK"), s.word(i, "DEFAULT"):
	default:
		j := s.skipWords(i, "COLUMN")
		if s.word(j, "IF") && s.word(j+1, "EXISTS") {
			j += 2
		}
		if j >= hi || !s.toks[j].isName() {
			return "an ALTER TABLE ... DROP cannot be read"
		}
		col := strings.ToLower(s.toks[j].text)
		t.Columns = slices.DeleteFunc(t.Columns, func(c *Column) bool { return c.Name == col })
		t.Keys = slices.DeleteFunc(t.Keys, func(k *Key) bool { return slices.Contains(k.Columns, col) || slices.Contains(k.NullWhere, col) })
	}
	return ""
}

// hasKeyLike reports whether t has a key a dropped constraint of an
// unrecognized name could be: any, unless the name says it is a foreign
// key or check.
func (s *Schema) hasKeyLike(t *Table, name string) bool {
	if strings.HasSuffix(name, "_fkey") || strings.HasSuffix(name, "_check") || strings.HasPrefix(name, "fk_") || strings.HasPrefix(name, "chk_") {
		return false
	}
	return len(t.Keys) > 0
}

// alterColumn reads ALTER [COLUMN] col ... at i.
func (r *ddl) alterColumn(t *Table, i, hi int) string {
	s := r.st
	if i >= hi || !s.toks[i].isName() {
		return "an ALTER COLUMN cannot be read"
	}
	c := t.Column(s.toks[i].text)
	if c == nil {
		return ""
	}
	j := i + 1
	switch {
	case s.word(j, "SET") && s.word(j+1, "NOT") && s.word(j+2, "NULL"):
		c.NotNull = true
	case s.word(j, "DROP") && s.word(j+1, "NOT") && s.word(j+2, "NULL"):
		c.NotNull = false
	case s.word(j, "SET") && s.word(j+1, "DEFAULT"):
		if r.drawsFresh(j+2, hi) {
			c.Generated = true
		}
		c.Default = !s.nullExpr(j+2, hi)
	case s.word(j, "DROP") && s.word(j+1, "DEFAULT"):
		c.Default = false
	case s.word(j, "ADD") && s.word(j+1, "GENERATED"):
		c.Generated = true
	case s.word(j, "TYPE") || s.word(j, "SET") && s.word(j+1, "DATA"):
		k := j + 1
		if s.word(j, "SET") {
			k = j + 3
		}
		if k < hi && s.toks[k].kind == tWord {
			c.Type, c.Len = strings.ToLower(s.toks[k].text), 0
			if k+2 < hi && s.toks[k+1].kind == tLParen && s.toks[k+2].kind == tNumber {
				c.Len, _ = strconv.Atoi(s.toks[k+2].text)
			}
		}
	}
	return ""
}

// renameAction reads RENAME [COLUMN] a TO b, RENAME [TO|AS] name of an
// ALTER TABLE at i.
func (r *ddl) renameAction(t *Table, i, hi int) string {
	s := r.st
	switch {
	case s.word(i, "COLUMN") || (i+2 < hi && s.toks[i].isName() && s.word(i+1, "TO") && !s.word(i, "TO")):
		j := s.skipWords(i, "COLUMN")
		if j+2 >= hi || !s.word(j+1, "TO") {
			return "an ALTER TABLE ... RENAME cannot be read"
		}
		from, to := strings.ToLower(s.toks[j].text), strings.ToLower(s.toks[j+2].text)
		if c := t.column(from); c != nil {
			c.Name = to
		}
		for _, k := range t.Keys {
			for _, cols := range [][]string{k.Columns, k.NullWhere} {
				for n, col := range cols {
					if col == from {
						cols[n] = to
					}
				}
			}
			slices.Sort(k.NullWhere) // kept sorted, as keys are compared by it
		}
	case s.word(i, "INDEX"), s.word(i, "KEY"), s.word(i, "CONSTRAINT"):
		if i+3 < hi && s.word(i+2, "TO") {
			from, to := strings.ToLower(s.toks[i+1].text), strings.ToLower(s.toks[i+3].text)
			for _, k := range t.Keys {
				if slices.Contains(k.Names, from) {
					k.Names = append(k.Names, to)
				}
			}
		}
	default:
		j := s.skipWords(i, "TO", "AS")
		_, last, _, ok := s.name(j)
		if !ok {
			return "an ALTER TABLE ... RENAME cannot be read"
		}
		r.move(t.Name, last)
	}
	return ""
}

// move renames table from to to.
func (r *ddl) move(from, to string) {
	t := r.s.tables[tableKey(from)]
	if t == nil {
		return
	}
	delete(r.s.tables, t.Name)
	t.Name = tableKey(to)
	r.define(t)
}

// renameTables reads MySQL's RENAME TABLE a TO b, ... at i.
func (r *ddl) renameTables(i int) {
	s := r.st
	for _, part := range s.split(i, s.hi) {
		_, from, j, ok := s.name(part[0])
		if !ok || !s.word(j, "TO") {
			r.s.unknown = r.s.distrust("a RENAME TABLE cannot be read")
			return
		}
		_, to, _, ok := s.name(j + 1)
		if !ok {
			r.s.unknown = r.s.distrust("a RENAME TABLE cannot be read")
			return
		}
		r.move(from, to)
	}
}

// dropTables reads DROP TABLE [IF EXISTS] a, b [CASCADE] at i.
func (r *ddl) dropTables(i int) {
	s := r.st
	if s.word(i, "IF") && s.word(i+1, "EXISTS") {
		i += 2
	}
	for _, part := range s.split(i, s.hi) {
		if _, last, _, ok := s.name(part[0]); ok {
			delete(r.s.tables, tableKey(last))
		}
	}
}

// dropIndex reads DROP INDEX [CONCURRENTLY] [IF EXISTS] name, ... [ON
// table] at i and removes the keys so named.
func (r *ddl) dropIndex(i int) {
	s := r.st
	i = s.skipWords(i, "CONCURRENTLY")
	if s.word(i, "IF") && s.word(i+1, "EXISTS") {
		i += 2
	}
	end := s.find(i, s.hi, "ON", "CASCADE", "RESTRICT")
	var tables []*Table
	if s.word(end, "ON") {
		if _, last, _, ok := s.name(end + 1); ok {
			if t := r.s.Table(last); t != nil {
				tables = []*Table{t}
			}
		}
	} else {
		tables = r.s.Tables()
	}
	on := ""
	if s.word(end, "ON") {
		if _, last, _, ok := s.name(end + 1); ok {
			on = tableKey(last)
		}
	}
	for _, part := range s.split(i, end) {
		_, last, _, ok := s.name(part[0])
		if !ok {
			continue
		}
		name := strings.ToLower(last)
		found := false
		for _, t := range tables {
			n := len(t.Keys)
			t.Keys = slices.DeleteFunc(t.Keys, func(k *Key) bool { return slices.Contains(k.Names, name) })
			found = found || len(t.Keys) < n
		}
		if !found {
			// An index of a table defined elsewhere, or a plain index.
			r.s.changes = append(r.s.changes, Change{Table: on, Key: name})
		}
	}
}

// foreignAlter records what ALTER TABLE table action, ... at i does to
// the keys of a table the schema does not define (see Change).
func (r *ddl) foreignAlter(table string, i int) {
	s := r.st
	change := func(c Change) {
		c.Table = table
		r.s.distrust(c.Unknown)
		r.s.changes = append(r.s.changes, c)
	}
	name := func(j, hi int) string {
		j = s.skipWords(j, "COLUMN", "CONSTRAINT", "INDEX", "KEY")
		if s.word(j, "IF") && s.word(j+1, "EXISTS") {
			j += 2
		}
		if j >= hi || !s.toks[j].isName() {
			return ""
		}
		return strings.ToLower(s.toks[j].text)
	}
	for _, part := range s.split(i, s.hi) {
		lo, hi := part[0], part[1]
		switch {
		case s.word(lo, "ADD"):
			// a column, key or index added: nothing known is weakened
		case s.word(lo, "DROP") && s.word(lo+1, "PRIMARY"):
			change(Change{Primary: true})
		case s.word(lo, "DROP") && (s.word(lo+1, "FOREIGN") || s.word(lo+1, "CHECK") || s.word(lo+1, "DEFAULT")):
		case s.word(lo, "DROP") && (s.word(lo+1, "CONSTRAINT") || s.word(lo+1, "INDEX") || s.word(lo+1, "KEY")):
			if n := name(lo+1, hi); n != "" {
				change(Change{Key: n})
			} else {
				change(Change{Unknown: "an ALTER TABLE ... DROP cannot be read"})
			}
		case s.word(lo, "RENAME") && (s.word(lo+1, "INDEX") || s.word(lo+1, "KEY") || s.word(lo+1, "CONSTRAINT")):
			if n := name(lo+1, hi); n != "" {
				change(Change{Key: n}) // known by another name from here on
			}
		case s.word(lo, "RENAME") && (s.word(lo+1, "COLUMN") || s.word(lo+2, "TO") && !s.word(lo+1, "TO")):
			if n := name(lo+1, hi); n != "" {
				change(Change{Column: n})
			}
		case s.word(lo, "RENAME"):
			change(Change{Unknown: "the table is renamed"})
			if _, to, _, ok := s.name(s.skipWords(lo+1, "TO", "AS")); ok {
				r.s.changes = append(r.s.changes, Change{Table: tableKey(to), Unknown: "a table is renamed to it"})
			}
		case s.word(lo, "DROP"), s.word(lo, "MODIFY"), s.word(lo, "CHANGE"),
			s.word(lo, "ALTER") && !s.word(lo+1, "CONSTRAINT"):
			if n := name(lo+1, hi); n != "" {
				change(Change{Column: n})
			} else {
				change(Change{Unknown: "an ALTER TABLE action cannot be read"})
			}
		default:
			if !r.noOpAction(lo) {
				change(Change{Unknown: "an ALTER TABLE action cannot be read"})
			}
		}
	}
}

// MayHoldFreshID reports whether column c's type can hold a freshly drawn
// identifier: a UUID, ULID, xid, KSUID or random string (any text, uuid,
// or binary type of 12 bytes or more, or of no stated length), or a
// 64-bit integer (Snowflake IDs, random ints). A key with such a column
// may be given a new value by every writer, so it does not stop a second
// row for the same thing. Booleans, dates and times, enums, floats and
// integers of 32 bits or less cannot (SQLite's INT and INTEGER are 64-bit;
// a schema that does not show PostgreSQL or MySQL is read as SQLite's).
func (s *Schema) MayHoldFreshID(c *Column) bool {
	switch c.Type {
	case "bool", "boolean", "enum", "set", "real", "float", "float4", "float8", "double", "bit", "year", "interval", "money":
		return false
	case "tinyint", "smallint", "mediumint", "int1", "int2", "int3", "int4", "serial", "serial2", "serial4", "smallserial":
		return false
	case "int", "integer":
		return s.sqlite || !s.other
	case "char", "varchar", "character", "nchar", "nvarchar", "binary", "varbinary", "varchar2", "nvarchar2", "bpchar":
		return c.Len == 0 || c.Len >= 12
	}
	return !IsTimeType(c.Type)
}

// IsTimeType reports whether a column type holds a date or time.
func IsTimeType(typ string) bool {
	switch typ {
	case "date", "time", "timetz", "datetime", "datetime2", "timestamp", "timestamptz", "smalldatetime":
		return true
	}
	return false
}

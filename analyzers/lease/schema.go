package lease

import (
	"fmt"
	"go/token"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// An INSERT that supplies a whole natural key is a create-if-absent. A
// rollup job under a lease does this:
//
//	tx, _ := db.Begin()
//	_, err := tx.Exec(`INSERT INTO rollups (end_time, chain_id, period, total) VALUES (?, ?, ?, ?)`, ...)
//	if err != nil {
//		return err                                   // a duplicate: roll back
//	}
//	tx.Exec(`UPDATE totals SET n = n + ? WHERE chain_id = ?`, ...)
//
// and its migrations (embedded with //go:embed) say
//
//	CREATE TABLE rollups (..., PRIMARY KEY (end_time, chain_id, period));
//
// The next holder that already rolled this interval up inserted the same
// key, so a stale holder's INSERT fails and its transaction rolls back;
// while the next holder's transaction is open the stale one waits on the
// key and fails after it commits. The INSERT creates the one row with that
// key or fails, exactly like INSERT ... ON CONFLICT DO NOTHING whose
// conflict is an error, and only the holder that created the row gets
// past it, so the accumulating update after it (below) happens once per
// key. Precisely, a plain INSERT (no ON CONFLICT, ON
// DUPLICATE KEY UPDATE, IGNORE or REPLACE) whose error is returned or
// compared with nil (for an INSERT ... RETURNING sent by QueryRow, its
// Scan's) is fenced when the schema the package or a dependency
// embeds gives its table a primary key or unique constraint or index
// (partial only where its predicate requires columns to be NULL: WHERE
// deleted_at IS NULL, a soft-deleted row's way out of the key) such that:
//
//   - the INSERT's column list names every column of the key, and every
//     row gives each a placeholder or a literal, not an expression the
//     database computes (now(), gen_random_uuid()), NULL or DEFAULT;
//   - every column of the key is NOT NULL (a NULL is distinct from every
//     other NULL in a unique key) and none is filled by the database
//     (AUTO_INCREMENT, SERIAL, an identity, a generated column, a DEFAULT
//     that draws a UUID or a sequence value, SQLite's INTEGER PRIMARY KEY);
//   - no column of the key can hold a freshly drawn identifier: its type is
//     not text, uuid, binary of 12 bytes or more, or a 64-bit integer
//     (sqlscan.Schema.MayHoldFreshID). A key a writer fills with uuid.New()
//     or a Snowflake ID is new for every writer, so a stale holder's
//     INSERT adds a second row for the same thing; that a caller in another
//     function does not is not something fencelint can see, so such keys
//     are not trusted at all;
//   - no key value the write's function binds is drawn there: a fresh
//     identifier (freshkey.go's generators) or the current time
//     (time.Now(), also as UTC or a Unix time);
//   - for a partial index, the INSERT leaves the columns its predicate
//     requires to be NULL out of its column list, and none of them has a
//     DEFAULT: the row is one the index covers. An index on a constant
//     (CREATE UNIQUE INDEX one_live ON runs ((TRUE)) WHERE ended_at IS
//     NULL) has no key columns: it admits one live row, so any INSERT of a
//     live row is a create-if-absent.
//
// The schema is read from the .sql files a package embeds: each directory
// is one migration sequence, applied in file-name order (numbers compared
// as numbers), down migrations left out; several sequences, or several
// packages' schemas, that define one table keep only the keys they all
// give it. A table a migration changes in a way the reader cannot follow
// is unknown and has no key, and what a sequence does to a table another
// one defines (schema/v1/app.sql creates it, schema/v2/app.sql drops one
// of its keys) is kept as a SchemaChange and applied to every definition
// merged (applyChanges). A standalone driver may also pass the schema of
// SQL files the code does not embed (ReadSchemaFiles: a schema/ directory
// beside the module, a dump), read by the same rules; the analysis itself
// reads no file. Under go vet, which lists no embedded files to analyzers,
// no schema is read and such INSERTs are reported.

// SchemaFact: the package embeds SQL migrations that define these tables,
// with their natural keys (schema.go). Tables are in name order.
type SchemaFact struct {
	Tables []SchemaTable
	// Changes lists what the migrations did to tables a sequence of them
	// does not define, in order: applied to every definition merged with
	// this one (applyChanges), so that a key a later migration drops is
	// not taken for one the table still has.
	Changes []SchemaChange
}

// A SchemaChange is what a migration did to the keys of a table its own
// sequence does not define (sqlscan.Change): it dropped the key named Key
// (Table "" for a PostgreSQL DROP INDEX that names no table), the primary
// key, or the keys holding Column, or made the table Unknown.
type SchemaChange struct {
	Table   string
	Key     string
	Primary bool
	Column  string
	Unknown bool
}

// A SchemaTable is a table of a SchemaFact.
type SchemaTable struct {
	Name string // lower case, unqualified
	// Unknown: a migration changes the table in a way fencelint cannot
	// read; its INSERTs are judged as if it had no key.
	Unknown bool
	// Keys lists the unique keys: each a list of columns (lower case)
	// that are NOT NULL and not filled by the database. Those with a
	// column that can hold a freshly drawn identifier are marked Fresh;
	// the others are natural keys.
	Keys []SchemaKey
}

// A SchemaKey is a unique key whose whole value an INSERT must supply to
// be a create-if-absent: a natural key of a SchemaTable, or a key a goctl
// model's finder says its table has (goctl.go).
type SchemaKey struct {
	Columns []string // lower case
	// Names are the names a migration can drop a schema's key by, and
	// Primary says it is the primary key (sqlscan.Key).
	Names   []string
	Primary bool
	// Finder is, for a goctl model's key, the FindOneBy<Fields> method
	// that looks a row up by it, and "" for a schema's. A goctl key's
	// columns may hold a freshly drawn identifier: such a column is
	// trusted only with a value the writer looked the row up by with the
	// finder. A schema's natural key has no such column.
	Finder string
	// Fresh marks a schema's key a column of which can hold a freshly
	// drawn identifier: no natural key, it makes an INSERT a
	// create-if-absent only with values built from the key of a lease
	// held there (leasekeys.go).
	Fresh bool
	// NullWhere are the columns a partial index's predicate requires to be
	// NULL (sqlscan.Key): an INSERT must leave them out to be a row the
	// index covers.
	NullWhere []string
}

// sameShape reports whether k and o are the same key: the same columns,
// over the same rows.
func (k SchemaKey) sameShape(o SchemaKey) bool {
	return slices.Equal(k.Columns, o.Columns) && slices.Equal(k.NullWhere, o.NullWhere)
}

// String says what the key is over: "(a,b)", "(a) where c null", "() where c null".
func (k SchemaKey) String() string {
	s := "(" + strings.Join(k.Columns, ",") + ")"
	if len(k.NullWhere) > 0 {
		s += " where " + strings.Join(k.NullWhere, ",") + " null"
	}
	return s
}

func (*SchemaFact) AFact() {}
func (f *SchemaFact) String() string {
	var parts []string
	for _, t := range f.Tables {
		if t.Unknown {
			parts = append(parts, t.Name+"?")
			continue
		}
		for _, k := range t.Keys {
			fresh := ""
			if k.Fresh {
				fresh = "~"
			}
			parts = append(parts, t.Name+k.String()+fresh)
		}
	}
	for _, c := range f.Changes {
		switch {
		case c.Unknown:
			parts = append(parts, "-"+c.Table+"?")
		case c.Key != "":
			parts = append(parts, "-"+c.Table+"."+c.Key)
		case c.Primary:
			parts = append(parts, "-"+c.Table+".primary")
		default:
			parts = append(parts, "-"+c.Table+"("+c.Column+")")
		}
	}
	return "schema " + strings.Join(parts, " ")
}

// exportSchema exports the schema of the SQL migrations the package
// embeds, if any.
func (b *builder) exportSchema() {
	if f := b.embeddedSchema(); f != nil {
		b.pass.ExportPackageFact(f)
	}
}

// embeddedSchema reads the package's embedded .sql files as migrations,
// one sequence per directory, or returns nil when they define no table.
func (b *builder) embeddedSchema() *SchemaFact {
	var files []embedded
	seen := make(map[string]bool)
	for _, fs := range b.embedded().byVar {
		for _, f := range fs {
			if !seen[f.name] {
				seen[f.name] = true
				files = append(files, f)
			}
		}
	}
	return readMigrations(files)
}

// readMigrations reads files (slash-separated names) as migrations, one
// sequence per directory, each applied in migration order; it returns nil
// when they define no table and change none. Files that are not steps of
// a migration, and down migrations, are left out.
func readMigrations(files []embedded) *SchemaFact {
	byDir := make(map[string][]embedded)
	for _, f := range files {
		if migrationStep(f.name) && !sqlscan.IsDownMigration(f.name) {
			dir := path.Dir(f.name)
			byDir[dir] = append(byDir[dir], f)
		}
	}
	dirs := make([]string, 0, len(byDir))
	for dir := range byDir {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs) // changes in a fixed order
	var merged map[string]*SchemaTable
	f := &SchemaFact{}
	for _, dir := range dirs {
		files := byDir[dir]
		slices.SortFunc(files, func(x, y embedded) int {
			switch {
			case sqlscan.MigrationLess(x.name, y.name):
				return -1
			case sqlscan.MigrationLess(y.name, x.name):
				return 1
			}
			return 0
		})
		if !slices.ContainsFunc(files, func(f embedded) bool { return strings.EqualFold(path.Ext(f.name), ".sql") }) {
			continue // Go files named by a number, and no SQL: not migrations fencelint reads
		}
		s := sqlscan.NewSchema()
		for _, f := range files {
			if strings.EqualFold(path.Ext(f.name), ".sql") {
				s.Apply(f.text)
			} else {
				s.Opaque("a migration fencelint cannot read (" + path.Base(f.name) + ") runs after its definition")
			}
		}
		merged = mergeTables(merged, schemaTables(s))
		f.Changes = append(f.Changes, schemaChanges(s)...)
	}
	if len(merged) == 0 && len(f.Changes) == 0 {
		return nil
	}
	for _, t := range merged {
		f.Tables = append(f.Tables, *t)
	}
	slices.SortFunc(f.Tables, func(x, y SchemaTable) int { return strings.Compare(x.Name, y.Name) })
	return f
}

// schemaChanges returns what a migration sequence did to tables it does
// not define.
func schemaChanges(s *sqlscan.Schema) []SchemaChange {
	var out []SchemaChange
	for _, c := range s.Changes() {
		out = append(out, SchemaChange{Table: c.Table, Key: c.Key, Primary: c.Primary, Column: c.Column, Unknown: c.Unknown != ""})
	}
	return out
}

// applyChanges applies changes to the merged tables m: a key dropped by
// name, a primary key dropped, or a key over a changed column is no
// longer known, and a table changed beyond reading is unknown.
func applyChanges(m map[string]*SchemaTable, changes []SchemaChange) {
	for _, c := range changes {
		for name, t := range m {
			if c.Table != "" && c.Table != name {
				continue
			}
			if c.Unknown {
				t.Unknown = true
				continue
			}
			t.Keys = slices.DeleteFunc(t.Keys, func(k SchemaKey) bool {
				return k.Finder == "" && (c.Key != "" && slices.Contains(k.Names, c.Key) ||
					c.Primary && k.Primary || c.Column != "" && (slices.Contains(k.Columns, c.Column) || slices.Contains(k.NullWhere, c.Column)))
			})
		}
	}
}

// migrationStep reports whether an embedded file is a step of a migration
// sequence: an .sql file, or another file whose name starts with its
// number (a Go migration, 1522178770_add_job_tags.up.go, embedded with the
// SQL ones), whose effect on the schema cannot be read.
func migrationStep(name string) bool {
	base := path.Base(name)
	if strings.EqualFold(path.Ext(base), ".sql") {
		return true
	}
	return base != "" && base[0] >= '0' && base[0] <= '9'
}

// schemaTables returns what a migration sequence says of each table.
func schemaTables(s *sqlscan.Schema) []SchemaTable {
	var out []SchemaTable
	for _, t := range s.Tables() {
		st := SchemaTable{Name: t.Name, Unknown: t.Unknown != "" || s.Unknown() != ""}
		for _, k := range s.UniqueKeys(t) {
			fresh := false
			for _, c := range k.Columns {
				fresh = fresh || s.MayHoldFreshID(t.Column(c))
			}
			st.Keys = append(st.Keys, SchemaKey{Columns: slices.Clone(k.Columns), Names: slices.Clone(k.Names), Primary: k.Primary, Fresh: fresh, NullWhere: slices.Clone(k.NullWhere)})
		}
		out = append(out, st)
	}
	return out
}

// mergeTables adds tables to m: a table defined more than once keeps only
// the keys every definition gives it, and is unknown if any says so.
func mergeTables(m map[string]*SchemaTable, tables []SchemaTable) map[string]*SchemaTable {
	if m == nil {
		m = make(map[string]*SchemaTable)
	}
	for _, t := range tables {
		old := m[t.Name]
		if old == nil {
			c := t
			c.Keys = slices.Clone(t.Keys)
			m[t.Name] = &c
			continue
		}
		old.Unknown = old.Unknown || t.Unknown
		old.Keys = slices.DeleteFunc(old.Keys, func(k SchemaKey) bool {
			return !slices.ContainsFunc(t.Keys, k.sameShape)
		})
		for i, k := range old.Keys { // the names either definition gives it
			o := t.Keys[slices.IndexFunc(t.Keys, k.sameShape)]
			k.Names = append(slices.Clone(k.Names), o.Names...)
			k.Primary = k.Primary || o.Primary
			k.Fresh = k.Fresh || o.Fresh
			old.Keys[i] = k
		}
	}
	return m
}

// schemaFiles returns the schema of the SQL files the driver passed, or
// nil.
func (b *builder) schemaFiles() *SchemaFact {
	if b.files != nil {
		return b.files
	}
	if b.prog != nil {
		return b.prog.files
	}
	return nil
}

// A SchemaFile is a SQL file a driver found or was given: its path (any
// separator) and its text.
type SchemaFile struct {
	Path string
	Text string
}

// ReadSchemaFiles reads SQL files the code does not embed (a schema/
// directory beside the module, a dump) as embedded migrations are read:
// one sequence per directory in migration order, down migrations left out,
// a table defined in several keeping only the keys they all give it, and a
// key another directory's migration drops or weakens not known. A driver
// reads the files (analyzers read none) and hands the result to every
// package's analysis (FactAnalyzer, NewProgram). It returns nil when the
// files define no table and change none.
func ReadSchemaFiles(files []SchemaFile) *SchemaFact {
	es := make([]embedded, 0, len(files))
	for _, f := range files {
		es = append(es, embedded{name: filepath.ToSlash(f.Path), text: f.Text})
	}
	return readMigrations(es)
}

// A SchemaProblem is a statement of a schema file that cannot be read:
// its byte offset in the file and what is wrong.
type SchemaProblem = sqlscan.Problem

// CheckSchemaFile returns the statements of a schema file's text that
// cannot be read (see sqlscan.Schema.ApplyChecked), for a driver that
// must refuse a file the user named.
func CheckSchemaFile(text string) []SchemaProblem {
	return sqlscan.NewSchema().ApplyChecked(text)
}

// schemaTables returns the program's tables in name order.
func (p *Program) schemaTables() []SchemaTable {
	out := make([]SchemaTable, 0, len(p.schema))
	for _, t := range p.schema {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(x, y SchemaTable) int { return strings.Compare(x.Name, y.Name) })
	return out
}

// schemaTable returns what the schemas the package and its dependencies
// embed (and, in a standalone run, every package of the program, and the
// schema files the driver passed) say of a table, or nil when none
// defines it.
func (b *builder) schemaTable(name string) *SchemaTable {
	if b.schemas == nil {
		var m map[string]*SchemaTable
		var changes []SchemaChange
		for _, pf := range b.pass.AllPackageFacts() {
			if f, ok := pf.Fact.(*SchemaFact); ok {
				m = mergeTables(m, f.Tables)
				changes = append(changes, f.Changes...)
			}
		}
		if b.prog != nil {
			for _, t := range b.prog.schemaTables() {
				m = mergeTables(m, []SchemaTable{t})
			}
			changes = append(changes, b.prog.schemaChanges...)
		}
		if f := b.schemaFiles(); f != nil {
			m = mergeTables(m, f.Tables)
			changes = append(changes, f.Changes...)
		}
		if m == nil {
			m = make(map[string]*SchemaTable)
		}
		applyChanges(m, changes)
		b.schemas = m
	}
	name = strings.ToLower(name)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return b.schemas[name]
}

// keyedInsert returns how st, the one write of the SQL that call sends,
// is a create-if-absent by a natural key of its table (see above), or "".
func (b *builder) keyedInsert(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) string {
	if st.Verb != "INSERT" || st.Conflict != "" || len(st.With) > 0 || st.Unknown || len(st.Inserts) == 0 || strings.Contains(st.Table, "?") {
		return ""
	}
	t := b.schemaTable(st.Table)
	if t == nil || t.Unknown || !slices.ContainsFunc(t.Keys, func(k SchemaKey) bool { return !k.Fresh }) {
		return ""
	}
	if row := gormRow(call, st); row != nil { // GORM's Create (gormkeys.go)
		if c, ok := call.(*ssa.Call); !ok || !gormErrorHeeded(c) {
			return ""
		}
		return b.suppliedKey(t.Keys, t.Name, row)
	}
	if !errorHeeded(call) && !scanErrorHeeded(call) || b.templateErrorLost(call) {
		return "" // a duplicate's error must reach the caller: the call's, or an INSERT ... RETURNING row's Scan
	}
	return b.suppliedKey(t.Keys, t.Name, statementKeys{st, text, args, argsKnown})
}

// A keySource says which values an INSERT gives the columns of a unique
// key: its SQL statement's (statementKeys), or the row a goctl model's
// Insert is handed (rowKeys, goctl.go). Both kinds of key are judged by
// suppliedKey.
type keySource interface {
	// values returns the values the INSERT gives col, one per row it
	// inserts (nil for a literal, or a value not seen), or false when it
	// gives col none of its own (a value the database computes, NULL,
	// DEFAULT, or no value).
	values(col string) ([]ssa.Value, bool)
	// identity reports whether v, the value given to k's column i, is the
	// row's identity rather than an identifier drawn for this row alone:
	// only asked for a goctl key (k.Finder set).
	identity(k SchemaKey, i int, v ssa.Value) bool
	// omits reports whether the INSERT leaves col out of its column list.
	omits(col string) bool
}

// suppliedKey returns how an INSERT whose key values src gives is a
// create-if-absent by one of keys, the unique keys of what (a table), or
// "": it gives each column of the key a value of its own, none drawn fresh
// in its function (a fresh identifier, the current time), and for a goctl
// key the row's identity.
func (b *builder) suppliedKey(keys []SchemaKey, what string, src keySource) string {
	for _, k := range keys {
		if !k.Fresh && b.keySupplied(k, src) {
			return insertReason(k, what)
		}
	}
	return ""
}

// insertReason says why an INSERT that supplies k, a key of what, is a
// create-if-absent.
func insertReason(k SchemaKey, what string) string {
	key := strings.Join(k.Columns, ", ")
	if k.Finder != "" {
		key += ", looked up by " + k.Finder
	}
	if len(k.NullWhere) == 0 {
		return fmt.Sprintf("an INSERT that supplies the whole key (%s) of %s: a duplicate fails", key, what)
	}
	live := strings.Join(k.NullWhere, " and ") + " NULL"
	if len(k.Columns) == 0 {
		return fmt.Sprintf("an INSERT of a row with %s into %s, which a unique index admits once among such rows: a second fails", live, what)
	}
	return fmt.Sprintf("an INSERT that supplies the whole key (%s) of %s's rows with %s: a duplicate fails", key, what, live)
}

// keySupplied reports whether src gives each column of k a value of its
// own that is not drawn fresh here, and leaves out the columns a partial
// key's rows have NULL (see suppliedKey).
func (b *builder) keySupplied(k SchemaKey, src keySource) bool {
	for _, col := range k.NullWhere {
		if !src.omits(col) {
			return false
		}
	}
	for i, col := range k.Columns {
		values, ok := src.values(col)
		if !ok {
			return false
		}
		for _, v := range values {
			if v != nil && b.drawnFresh(v) {
				return false
			}
			if k.Finder != "" && (v == nil || !src.identity(k, i, v)) {
				return false
			}
		}
	}
	return true
}

// statementKeys is the keySource of an INSERT statement, read with the
// arguments of the call that sends it.
type statementKeys struct {
	st        *sqlscan.Statement
	text      sqlText
	args      []ssa.Value
	argsKnown bool
}

func (s statementKeys) values(col string) ([]ssa.Value, bool) {
	i := slices.IndexFunc(s.st.Inserts, func(c sqlscan.InsertCol) bool { return strings.EqualFold(c.Column, col) })
	if i < 0 || !s.st.Inserts[i].Plain {
		return nil, false
	}
	var out []ssa.Value
	for _, p := range s.st.Inserts[i].Values {
		if p.IsZero() {
			out = append(out, nil) // a literal
			continue
		}
		out = append(out, boundValue(p, s.text, s.args, s.argsKnown))
	}
	return out, true
}

// identity is never asked: a schema's natural key has no column that can
// hold a freshly drawn identifier.
func (statementKeys) identity(SchemaKey, int, ssa.Value) bool { return false }

func (s statementKeys) omits(col string) bool {
	return !slices.ContainsFunc(s.st.Inserts, func(c sqlscan.InsertCol) bool { return strings.EqualFold(c.Column, col) })
}

// drawnFresh reports whether v is built from a fresh identifier drawn by a
// generator in its function or from the current time.
func (b *builder) drawnFresh(v ssa.Value) bool {
	if currentTime(v, 0) {
		return true
	}
	var sources []ssa.Value
	b.freshSources(v, 0, &sources)
	for _, src := range sources {
		if _, ok := src.(*ssa.Call); ok {
			return true
		}
	}
	return false
}

// currentTime reports whether v is time.Now(), also through UTC, Local, In,
// a Unix time or its text.
func currentTime(v ssa.Value, depth int) bool {
	if depth > 6 || v == nil {
		return false
	}
	switch x := unwrap(v).(type) {
	case *ssa.Convert:
		return currentTime(x.X, depth+1)
	case *ssa.UnOp:
		if x.Op == token.MUL { // a variable of its own block: t := time.Now(); &t
			if alloc, ok := x.X.(*ssa.Alloc); ok {
				if st := onlyStoreInto(alloc); st != nil {
					return currentTime(st.Val, depth+1)
				}
			}
		}
	case *ssa.Call:
		f := calleeFunc(x.Common())
		if f == nil || f.Pkg() == nil || f.Pkg().Path() != "time" {
			return false
		}
		if f.Name() == "Now" {
			return true
		}
		switch f.Name() {
		case "UTC", "Local", "In", "Unix", "UnixMilli", "UnixMicro", "UnixNano", "Format", "String":
			if len(x.Call.Args) > 0 {
				return currentTime(x.Call.Args[0], depth+1)
			}
		}
	}
	return false
}

// errorHeeded reports whether the error of a write call is returned or
// compared with nil, so that a failed INSERT does not carry on as if it
// had created the row.
func errorHeeded(call ssa.CallInstruction) bool {
	c, ok := call.(*ssa.Call)
	if !ok || !lastResultError(c.Common().Signature()) {
		return false
	}
	if len(nilErrorEdges(c)) > 0 {
		return true
	}
	last := c.Common().Signature().Results().Len() - 1
	if returnedAt(c.Parent(), c, last) >= 0 {
		return true
	}
	errv := errorResult(c)
	if errv == nil {
		return false
	}
	for _, ref := range referrers(errv) {
		if st, ok := ref.(*ssa.Store); ok && st.Val == errv && returnedFromSlot(st) {
			return true
		}
	}
	return false
}

// returnedFromSlot reports whether the value st stores is returned: a
// function with deferred calls stores its results in slots and returns
// what it loads from them after running the defers.
func returnedFromSlot(st *ssa.Store) bool {
	blk := st.Block()
	for _, instr := range blk.Instrs[instrIndex(blk, st)+1:] {
		switch x := instr.(type) {
		case *ssa.Store:
			if x.Addr == st.Addr {
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || x.X != st.Addr {
				continue
			}
			for _, r := range referrers(x) {
				if _, ok := r.(*ssa.Return); ok {
					return true
				}
			}
		}
	}
	return false
}

// A create-if-absent INSERT also gates what follows it: the holder whose
// INSERT created the row is the only one that gets past it for that key,
// so a write that replaces no value (an append, or an update that adds to
// a column's own value: SET n = n + $1, ON DUPLICATE KEY UPDATE n = n +
// VALUES(n)) reached only after the INSERT succeeded happens once per key,
// whichever holder makes it. An overwrite after it is still reported: the
// next holder, past its own INSERT of another key, may overwrite the same
// row first. A function that returns no nil error before such an INSERT
// succeeded gets a CASFact marked Keyed, so that its callers' writes after
// it are judged alike.

// fenceByKeyedInsert marks fenced the unfenced writes that replace no value
// and are reached only after a create-if-absent INSERT succeeded.
func (b *builder) fenceByKeyedInsert() {
	b.exportKeyedFacts()
	for _, w := range b.model.Writes {
		if w.Fenced || w.LockImpl || w.Unseen != "" || w.Call == nil || !w.accumulates || len(w.Fn.Blocks) == 0 {
			continue
		}
		cut, what := b.keyedEdges(w.Fn)
		if what != "" && !reachesAvoiding(w.Fn, w.Call.Block(), cut) {
			w.Fenced, w.FencedBy = true, what+", which this write follows and only its creator gets past"
		}
	}
}

// exportKeyedFacts records a Keyed CASFact for each declared function of
// the package that returns no nil error before a create-if-absent INSERT
// (or a call of such a function) succeeded.
func (b *builder) exportKeyedFacts() {
	for _, fn := range b.funcs {
		obj := declaredFunc(fn)
		if obj == nil || len(fn.Blocks) == 0 || !lastResultError(fn.Signature) {
			continue
		}
		if old := new(CASFact); b.fact(obj, old) && !old.Keyed {
			continue // a compare-and-swap: it says more
		}
		cut, what := b.keyedEdges(fn)
		for _, blk := range fn.Blocks {
			ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) == 0 {
				continue
			}
			if k := b.keyedErrorReturned(ret); k != "" {
				if what == "" {
					what = k
				}
				continue
			}
			if !b.errNotNil(ret) && reachesAvoiding(fn, blk, cut) {
				what = ""
				break
			}
		}
		if what != "" {
			b.setLocal(obj, &CASFact{What: what, SQL: true, Keyed: true})
		}
	}
}

// keyedErrorReturned names the create-if-absent call whose error ret
// returns as its own, or "".
func (b *builder) keyedErrorReturned(ret *ssa.Return) string {
	v := ret.Results[len(ret.Results)-1]
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL { // a result slot, with defers
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if st := lastStoreBefore(load, alloc); st != nil {
				v = st.Val
			}
		}
	}
	switch x := v.(type) {
	case *ssa.Call:
		return b.keyedCall(x)
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && errorResult(call) == x {
			return b.keyedCall(call)
		}
	}
	return ""
}

// lastStoreBefore returns the store to addr (a local variable, or one a
// closure captured) made in load's block before it, or nil.
func lastStoreBefore(load ssa.Instruction, addr ssa.Value) *ssa.Store {
	blk := load.Block()
	for i := instrIndex(blk, load) - 1; i >= 0; i-- {
		if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == addr {
			return st
		}
	}
	return nil
}

// keyedEdges returns the edges of fn taken when a create-if-absent INSERT,
// or a call of a function with a Keyed CASFact, returned a nil error, and
// names the first.
func (b *builder) keyedEdges(fn *ssa.Function) (map[edge]bool, string) {
	cut := make(map[edge]bool)
	first := ""
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			what := b.keyedCall(call)
			if what == "" {
				continue
			}
			edges := nilErrorEdges(call)
			if len(edges) > 0 && first == "" {
				first = what
			}
			for _, e := range edges {
				cut[e] = true
			}
		}
	}
	return cut, first
}

// keyedCall names call when it is a create-if-absent INSERT or a call of a
// function that succeeds only after one, or returns "".
func (b *builder) keyedCall(call *ssa.Call) string {
	if b.keyed[call] != "" {
		return "the create-if-absent INSERT at " + b.shortPos(call.Pos())
	}
	if fn := calleeFunc(call.Common()); fn != nil {
		var f CASFact
		if b.fact(fn, &f) && f.Keyed {
			return shortName(fn) + " (" + f.What + ")"
		}
	}
	return ""
}

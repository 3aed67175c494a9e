package gen

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// A MySQL statement is read twice: by the TiDB parser (sqlc's MySQL
// parser), which says what it is and which table it writes, and, with
// strings, comments and quoted names normalized to keep every offset, by
// PostgreSQL's scanner, which says where its top-level clauses are. The
// token is always sqlc.arg(fencegen_token): sqlc's MySQL engine binds it
// in place beside ? parameters, which keep their places.

// newMySQLRewriter returns a rewriter when q writes a fenced table with a
// single-table UPDATE or DELETE, nil when it passes through.
func newMySQLRewriter(opts Options, schema *Schema, q *userQuery) (*rewriter, error) {
	stmt, err := parser.New().ParseOneStmt(q.Text, "", "")
	if err != nil {
		return nil, errorf(q.pos(0), "%s", mysqlMessage(err))
	}
	text, params := normalizeMySQL(q.Text, false)
	rw := &rewriter{opts: opts, d: newDialect(opts.Engine), q: q, text: text, orig: q.Text, params: params}
	var refs *ast.TableRefsClause
	var multi bool
	switch s := stmt.(type) {
	case *ast.UpdateStmt:
		rw.kind, refs, multi = "update", s.TableRefs, s.MultipleTable
	case *ast.DeleteStmt:
		rw.kind, refs, multi = "delete", s.TableRefs, s.IsMultiTable
	case *ast.InsertStmt:
		t, fence := mysqlTarget(opts, schema, s.Table)
		switch {
		case fence == nil || q.Unfenced != "":
			return nil, nil
		case s.IsReplace:
			return nil, errorf(q.NamePos, "%s writes fenced table %s with REPLACE, which overwrites a newer holder's row; use INSERT ... ON DUPLICATE KEY UPDATE or fencegen's Upsert%s, or mark the query \"-- %s <reason>\"", q.Name, t.QualifiedName(), goTypeName(t), unfencedDirective)
		case len(s.OnDuplicate) == 0:
			return nil, nil // a plain insert cannot overwrite a newer holder's row
		}
		rw.kind, rw.table, rw.fence, rw.ins = "upsert", t, fence, s
		rw.alias = rw.d.ident(t.Name)
		return rw, rw.scan()
	default:
		return nil, nil
	}
	if multi || refs != nil && refs.TableRefs != nil && refs.TableRefs.Right != nil {
		// A join: any fenced table in it may be written.
		for _, tn := range joinedTables(refs.TableRefs) {
			t, fence := fencedTableOf(opts, schema, &pg.RangeVar{Schemaname: tn.Schema.O, Relname: tn.Name.O})
			if fence != nil && q.Unfenced == "" {
				return nil, errorf(q.NamePos, "%s writes fenced table %s in a multiple-table %s, which fencegen does not fence; write that table in a statement of its own, or mark the query \"-- %s <reason>\"", q.Name, t.QualifiedName(), strings.ToUpper(rw.kind), unfencedDirective)
			}
		}
		return nil, nil
	}
	rw.table, rw.fence = mysqlTarget(opts, schema, refs)
	if rw.fence == nil {
		return nil, nil
	}
	if s, ok := stmt.(*ast.UpdateStmt); ok {
		for _, a := range s.List {
			if strings.EqualFold(a.Column.Name.O, rw.fence.Name) {
				return nil, rw.setsFenceError()
			}
		}
	}
	rw.alias = rw.d.ident(rw.table.Name)
	if ts, ok := refs.TableRefs.Left.(*ast.TableSource); ok && ts.AsName.O != "" {
		rw.alias = rw.d.ident(ts.AsName.O)
	}
	return rw, rw.scan()
}

func (rw *rewriter) setsFenceError() error {
	return errorf(rw.q.NamePos, "%s sets fence column %q of %s itself; fencegen sets it from the token: remove the assignment and any fence condition, or mark the query \"-- %s <reason>\"", rw.q.Name, rw.fence.Name, rw.table.QualifiedName(), unfencedDirective)
}

// mysqlTarget returns the table a single-table clause names and its fence.
func mysqlTarget(opts Options, schema *Schema, refs *ast.TableRefsClause) (*Table, *Column) {
	if refs == nil || refs.TableRefs == nil {
		return nil, nil
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, nil
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, nil
	}
	return fencedTableOf(opts, schema, &pg.RangeVar{Schemaname: tn.Schema.O, Relname: tn.Name.O})
}

// joinedTables lists the tables of a join.
func joinedTables(n ast.ResultSetNode) []*ast.TableName {
	switch n := n.(type) {
	case *ast.Join:
		out := joinedTables(n.Left)
		if n.Right != nil {
			out = append(out, joinedTables(n.Right)...)
		}
		return out
	case *ast.TableSource:
		return joinedTables(n.Source)
	case *ast.TableName:
		return []*ast.TableName{n}
	}
	return nil
}

// mysqlMessage is the TiDB parser's message without its prefix.
func mysqlMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "near"); i >= 0 {
		return "syntax error " + msg[i:]
	}
	return msg
}

// modifiers counts MySQL's modifiers after UPDATE (LOW_PRIORITY, IGNORE),
// which precede the table.
func (rw *rewriter) modifiers(verb int) int {
	n := 0
	for i := verb + 1; i < len(rw.toks) && rw.opts.Engine == MySQL; i++ {
		switch strings.ToUpper(rw.text[rw.toks[i].start:rw.toks[i].end]) {
		case "LOW_PRIORITY", "IGNORE":
			n++
			continue
		}
		break
	}
	return n
}

// normalizeMySQL blanks the text of MySQL's strings and # comments (and
// the others unless keepComments), turns `name` into "name" and ? into an
// identifier, keeping every offset, and lists the ? parameters in order.
func normalizeMySQL(text string, keepComments bool) (string, paramStyle) {
	b := []byte(text)
	var ps paramStyle
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#' || strings.HasPrefix(text[i:], "-- "):
			end := skipTo(text, i, "\n")
			if c == '#' || !keepComments {
				blank(i, end)
			}
			i = end
		case strings.HasPrefix(text[i:], "/*"):
			end := skipTo(text, i+2, "*/")
			if !keepComments {
				blank(i, end)
			}
			i = end
		case c == '\'' || c == '"':
			end := skipMySQLString(text, i)
			b[i] = '\''
			for j := i + 1; j < end-1; j++ {
				b[j] = 'x'
			}
			if end-1 > i {
				b[end-1] = '\''
			}
			i = end
		case c == '`':
			end := skipQuoted(text, i, '`')
			b[i] = '"'
			if end-1 > i {
				b[end-1] = '"'
			}
			i = end
		case c == '?':
			ps.list = append(ps.list, param{start: i, end: i + 1, n: len(ps.list) + 1, bare: true})
			b[i] = 'x'
			i++
		default:
			i++
		}
	}
	return string(b), ps
}

// skipMySQLString returns the offset past the string starting at i, which
// escapes with a backslash or a doubled quote.
func skipMySQLString(text string, i int) int {
	quote := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case quote:
			if j+1 < len(text) && text[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}

// A fenced MySQL upsert counts the rows its fence rejects in
// LAST_INSERT_ID, from 2^64-2^32 (-1<<32 as Go reads LastInsertId), so the
// statement's LastInsertId tells them whatever clientFoundRows says. The
// affected-rows count cannot: an unchanged row counts 0, or 1 with that
// flag, like an insert. A one-row upsert sets the base plus one when it
// rejects (a statement that calls LAST_INSERT_ID(expr) nowhere reports an
// inserted AUTO_INCREMENT id or 0); a many-row one sets the base with its
// first row's token and adds one per rejected row.
const (
	mysqlRejectBase = "18446744069414584320"
	mysqlRejectOne  = "18446744069414584321"
)

// mysqlUpsert fences INSERT ... ON DUPLICATE KEY UPDATE. MySQL's conflict
// update has no WHERE, so each assignment keeps the row's value unless the
// fence admits the token (VALUES(fence), the inserted token), and the fence
// is assigned last: assignments run left to right and see the ones before
// them. The rejecting branch counts in LAST_INSERT_ID (see mysqlRejectBase).
func (rw *rewriter) mysqlUpsert(fq *fencedQuery) error {
	s, name, table := rw.ins, rw.q.Name, rw.table.QualifiedName()
	if len(s.Columns) == 0 {
		return errorf(rw.q.NamePos, "%s inserts into fenced table %s without a column list; list the columns so fencegen can add the fence", name, table)
	}
	for _, c := range s.Columns {
		if strings.EqualFold(c.Name.O, rw.fence.Name) {
			return rw.setsFenceError()
		}
	}
	for _, a := range s.OnDuplicate {
		if strings.EqualFold(a.Column.Name.O, rw.fence.Name) {
			return rw.setsFenceError()
		}
	}
	if strings.Contains(strings.ToUpper(rw.text), "LAST_INSERT_ID") {
		return errorf(rw.q.NamePos, "%s calls LAST_INSERT_ID, in which fencegen counts the rows of %s its fence rejects; move that call to a statement of its own, or mark the query \"-- %s <reason>\"", name, table, unfencedDirective)
	}
	if s.Select != nil {
		return rw.mysqlUpsertSelect(fq)
	}
	fq.Tuples, fq.Counted = max(len(s.Lists), 1), true
	if auto := autoIncrementColumn(rw.table); auto != nil && fq.Tuples > 1 {
		return errorf(rw.q.NamePos, "%s upserts %d rows into fenced table %s, whose AUTO_INCREMENT column %s hides from MySQL's result how many rows the fence rejected; upsert one row per query, or mark the query \"-- %s <reason>\"", name, fq.Tuples, table, auto.Name, unfencedDirective)
	}
	fence, tok := rw.fenceCol(), rw.token()
	first, reject := tok, "LAST_INSERT_ID("+mysqlRejectOne+")"
	if fq.Tuples > 1 {
		first = fmt.Sprintf("IF(LAST_INSERT_ID(%s), %s, %s)", mysqlRejectBase, tok, tok)
		reject = "LAST_INSERT_ID(LAST_INSERT_ID() + 1)"
	}
	upd, err := rw.mysqlInsertFence(s.Setlist, len(s.PartitionNames) > 0, fence, first, tok)
	if err != nil {
		return err
	}
	rw.fenceAssignments(upd, fence, reject, false)
	return nil
}

// mysqlUpsertSelect fences INSERT ... SELECT ... ON DUPLICATE KEY UPDATE:
// the token is inserted as each row's fence (the last column and the last
// item of the SELECT), and the assignments are fenced as for VALUES, with
// the row's columns qualified by the table (the SELECT's tables are in
// scope there too). The rejected rows are counted in LAST_INSERT_ID from a
// base set once, before any row is inserted, by a one-row derived table
// of literals joined first: MySQL and MariaDB never merge such a table
// into the query (it has no underlying table; MariaDB reads it as a
// constant table while optimizing). The rows written are not counted:
// MySQL's affected-rows count cannot tell an update from two inserts, or
// a rejected row from an unchanged one, and the number of rows the SELECT
// gives is not known, so only :exec is fenced.
func (rw *rewriter) mysqlUpsertSelect(fq *fencedQuery) error {
	s, name, table := rw.ins, rw.q.Name, rw.table.QualifiedName()
	refuse := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return errorf(rw.q.NamePos, "%s upserts fenced table %s from a query %s, or mark the query \"-- %s <reason>\"", name, table, msg, unfencedDirective)
	}
	sel, ok := s.Select.(*ast.SelectStmt)
	switch {
	case !ok || sel.IsInBraces:
		return refuse("that is not one SELECT (a UNION, or one in parentheses); fencegen fences INSERT ... SELECT ... FROM ... ON DUPLICATE KEY UPDATE: move a UNION into a subquery of the FROM")
	case sel.From == nil:
		return refuse("without FROM; write its row as VALUES")
	case rw.q.Cmd != cmdExec:
		return refuse("as %s; MySQL's result tells how many of its rows the fence rejected but not how many were written, so fencegen fences it as :exec (ErrStale when any row was rejected): make it :exec", rw.q.Cmd)
	}
	if auto := autoIncrementColumn(rw.table); auto != nil {
		return refuse("into a table whose AUTO_INCREMENT column %s hides from MySQL's result how many rows the fence rejected; upsert one row per query with VALUES", auto.Name)
	}
	cols := rw.find(0, pg.Token_ASCII_40)
	if len(s.PartitionNames) > 0 { // PARTITION (p0, ...) comes before the column list
		cols = rw.find(rw.find(cols+1, pg.Token_ASCII_41)+1, pg.Token_ASCII_40)
	}
	closing := rw.find(cols+1, pg.Token_ASCII_41)
	selTok := rw.find(closing+1, pg.Token_SELECT)
	from := rw.find(selTok+1, pg.Token_FROM)
	_, upd := rw.duplicateUpdate()
	if cols < 0 || closing < 0 || selTok < 0 || from < 0 || upd < 0 {
		return errorf(rw.q.pos(0), "cannot find the clauses of %s; please report this as a fencegen bug", name)
	}
	fq.Counted = true // Tuples stays 0: the SELECT's rows are not known
	fence := rw.fenceCol()
	rw.insert(rw.toks[closing].start, ", "+fence)
	rw.insert(rw.toks[from-1].end, ", "+rw.token())
	rw.insert(rw.toks[from].end, " (SELECT LAST_INSERT_ID("+mysqlRejectBase+") LIMIT 1) AS fencegen_start,")
	rw.fenceAssignments(upd, rw.alias+"."+fence, "LAST_INSERT_ID(LAST_INSERT_ID() + 1)", true)
	return nil
}

// fenceAssignments makes each assignment after ON DUPLICATE KEY UPDATE
// (token upd) keep the row's value unless the fence admits the token, and
// assigns the fence last. ref is the row's fence in an expression and
// qualify qualifies the kept columns, when a SELECT's tables are in scope;
// reject counts a rejected row.
func (rw *rewriter) fenceAssignments(upd int, ref, reject string, qualify bool) {
	fence := rw.fenceCol()
	admit := fmt.Sprintf("%s %s VALUES(%s)", ref, rw.opts.Compare, fence)
	if !rw.fence.NotNull {
		admit = fmt.Sprintf("(%s IS NULL OR %s)", ref, admit)
	}
	for _, a := range rw.assignments(upd + 1) {
		target := rw.orig[rw.toks[a[0]].start:rw.toks[a[1]-1].end]
		if qualify && a[1]-a[0] == 1 {
			target = rw.alias + "." + target
		}
		rw.insert(rw.toks[a[1]+1].start, "IF("+admit+", ")
		rw.insert(rw.toks[a[2]].end, ", "+target+")")
	}
	rw.insert(rw.toks[len(rw.toks)-1].end, fmt.Sprintf(",\n  %s = IF(%s, VALUES(%s), IF(%s, %s, %s))", fence, admit, fence, reject, ref, ref))
}

// duplicateUpdate returns the indexes of ON DUPLICATE KEY UPDATE's ON
// (the last top-level ON: a SELECT's joins come before it) and UPDATE
// tokens; upd is -1 if there is none.
func (rw *rewriter) duplicateUpdate() (on, upd int) {
	on = -1
	for i, t := range rw.toks {
		if t.depth == 0 && t.kind == pg.Token_ON {
			on = i
		}
	}
	if on < 0 {
		return -1, -1
	}
	return on, rw.find(on, pg.Token_UPDATE)
}

// mysqlInsertFence adds the fence to the inserted rows, the first row's
// token being first, and returns the index of ON DUPLICATE KEY UPDATE's
// UPDATE token.
func (rw *rewriter) mysqlInsertFence(setList, partitions bool, fence, first, tok string) (int, error) {
	on, upd := rw.duplicateUpdate()
	if upd < 0 {
		return 0, errorf(rw.q.pos(0), "cannot find ON DUPLICATE KEY UPDATE in %s; please report this as a fencegen bug", rw.q.Name)
	}
	if setList {
		set := rw.find(0, pg.Token_SET)
		if set < 0 || set > on {
			return 0, errorf(rw.q.pos(0), "cannot find the SET clause of %s; please report this as a fencegen bug", rw.q.Name)
		}
		rw.insert(rw.toks[set].end, " "+fence+" = "+first+",")
		return upd, nil
	}
	cols, values := rw.find(0, pg.Token_ASCII_40), -1
	if partitions { // PARTITION (p0, ...) comes before the column list
		cols = rw.find(rw.find(cols+1, pg.Token_ASCII_41)+1, pg.Token_ASCII_40)
	}
	for i := max(cols, 0); i < on; i++ {
		if w := strings.ToUpper(rw.text[rw.toks[i].start:rw.toks[i].end]); rw.toks[i].depth == 0 && (w == "VALUES" || w == "VALUE") {
			values = i
			break
		}
	}
	if cols < 0 || values < 0 {
		return 0, errorf(rw.q.pos(0), "cannot find the clauses of %s; please report this as a fencegen bug", rw.q.Name)
	}
	rw.insert(rw.toks[cols].end, fence+", ")
	value := first
	for i := values + 1; i < on; i++ {
		if t := rw.toks[i]; t.depth == 0 && t.kind == pg.Token_ASCII_40 {
			rw.insert(t.end, value+", ")
			value = tok
		}
	}
	return upd, nil
}

// assignments splits the top-level "col = expr" list starting at token
// from into token indexes: the column's first token, the "=" and the
// expression's last token.
func (rw *rewriter) assignments(from int) [][3]int {
	var out [][3]int
	start, eq := from, -1
	for i := from; i <= len(rw.toks); i++ {
		if i < len(rw.toks) {
			t := rw.toks[i]
			if t.depth != 0 || t.kind != pg.Token_ASCII_44 && t.kind != pg.Token_ASCII_61 {
				continue
			}
			if t.kind == pg.Token_ASCII_61 {
				if eq < 0 {
					eq = i
				}
				continue
			}
		}
		if eq > start && i-1 > eq {
			out = append(out, [3]int{start, eq, i - 1})
		}
		start, eq = i+1, -1
	}
	return out
}

// autoIncrementColumn returns t's AUTO_INCREMENT column, if any.
func autoIncrementColumn(t *Table) *Column {
	for _, c := range t.Columns {
		if c.AutoIncrement {
			return c
		}
	}
	return nil
}

package gen

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// The rewrite works on the statement's text: pg_query's tree says what the
// statement is and which table it writes, its scanner says where the
// clauses are (keywords outside parentheses), and the fence assignment and
// predicate are spliced in, so everything else stays as the user wrote it
// (comments, parameters, sqlc.arg and @name forms, formatting).

// splitQueries splits a queries file at its semicolons with PostgreSQL's
// scanner, collecting the comments before each statement.
func splitQueries(engine Engine, src Source) ([]queryBlock, error) {
	text := string(src.Data)
	scanned := text
	switch engine {
	case SQLite:
		scanned = normalizeSQLite(text)
	case MySQL:
		scanned, _ = normalizeMySQL(text, true)
	}
	res, err := pg.Scan(scanned)
	if err != nil {
		return nil, postgresSyntaxError(src, err)
	}
	var blocks []queryBlock
	cur := queryBlock{start: -1}
	for _, t := range res.GetTokens() {
		switch t.GetToken() {
		case pg.Token_SQL_COMMENT, pg.Token_C_COMMENT:
			if cur.start < 0 {
				cur.comments = append(cur.comments, comment{text: text[t.GetStart():t.GetEnd()], offset: int(t.GetStart())})
			}
		case pg.Token_ASCII_59:
			if cur.start >= 0 {
				blocks = append(blocks, cur)
			}
			cur = queryBlock{start: -1}
		default:
			if cur.start < 0 {
				cur.start = int(t.GetStart())
			}
			cur.end = int(t.GetEnd())
		}
	}
	if cur.start >= 0 {
		blocks = append(blocks, cur)
	}
	return blocks, nil
}

// sqlToken is a scanner token outside comments, with its parenthesis depth.
type sqlToken struct {
	kind       pg.Token
	start, end int
	depth      int // 0 at the statement's top level; '(' and ')' count as outside
}

// rewriter fences one statement.
type rewriter struct {
	opts   Options
	d      *dialect
	q      *userQuery
	text   string // what pg_query reads: the statement, normalized for SQLite
	orig   string // the statement as written; edits are spliced into it
	toks   []sqlToken
	stmt   *pg.Node
	table  *Table
	fence  *Column
	alias  string // the name the statement's rows go by: alias or table name
	kind   string
	params paramStyle

	returning bool
	edits     []edit

	ins *ast.InsertStmt // a MySQL upsert, as the TiDB parser read it
}

// paramStyle is how a query writes its parameters: named (sqlc.arg,
// @name) or numbered ($n, SQLite's ?NNN and ?, which fencegen numbers).
type paramStyle struct {
	positional bool
	max        int     // the highest number
	list       []param // the numbered parameters in text order
}

// param is one numbered parameter in the statement's text.
type param struct {
	start, end int
	n          int
	bare       bool // SQLite's "?", numbered by fencegen in the rewrite
}

type edit struct {
	at   int
	text string
}

// newRewriter parses q and returns a rewriter when q writes a fenced table,
// nil when it passes through unchanged.
func newRewriter(opts Options, schema *Schema, q *userQuery) (*rewriter, error) {
	text := q.Text
	if opts.Engine == SQLite {
		text = normalizeSQLite(q.Text)
	}
	tree, err := pg.Parse(text)
	if err != nil && opts.Engine == SQLite {
		return nil, sqliteUnparsed(opts, schema, q, text)
	}
	if err != nil {
		return nil, q.syntaxError(err)
	}
	if len(tree.GetStmts()) != 1 {
		return nil, errorf(q.NamePos, "%s holds %d statements; sqlc runs one statement per query", q.Name, len(tree.GetStmts()))
	}
	rw := &rewriter{opts: opts, d: newDialect(opts.Engine), q: q, text: text, orig: q.Text, stmt: tree.GetStmts()[0].GetStmt()}
	if err := rw.scan(); err != nil {
		return nil, err
	}
	if opts.Engine == SQLite {
		rw.params = sqliteParams(q.Text)
		if rw.params.positional {
			for _, p := range rw.params.list {
				if p.bare {
					rw.insert(p.end, strconv.Itoa(p.n))
				}
			}
		}
	}
	if err := rw.checkCTEs(schema); err != nil {
		return nil, err
	}
	var rel *pg.RangeVar
	switch n := rw.stmt; {
	case n.GetUpdateStmt() != nil:
		rw.kind, rel = "update", n.GetUpdateStmt().GetRelation()
		rw.returning = len(n.GetUpdateStmt().GetReturningList()) > 0
	case n.GetDeleteStmt() != nil:
		rw.kind, rel = "delete", n.GetDeleteStmt().GetRelation()
		rw.returning = len(n.GetDeleteStmt().GetReturningList()) > 0
	case n.GetInsertStmt().GetOnConflictClause().GetAction() == pg.OnConflictAction_ONCONFLICT_UPDATE:
		rw.kind, rel = "upsert", n.GetInsertStmt().GetRelation()
		rw.returning = len(n.GetInsertStmt().GetReturningList()) > 0
	default:
		return nil, nil
	}
	rw.table, rw.fence = fencedTableOf(opts, schema, rel)
	if rw.fence == nil {
		return nil, nil
	}
	rw.alias = rw.d.ident(rel.GetRelname())
	if rw.table.spelling != "" {
		rw.alias = rw.table.spelling
	}
	if a := rel.GetAlias().GetAliasname(); a != "" {
		rw.alias = rw.d.ident(a)
	}
	return rw, nil
}

// fencedTableOf returns the table rel names and its fence column, or a nil
// column when the table is not fenced (or not in the schema).
func fencedTableOf(opts Options, schema *Schema, rel *pg.RangeVar) (*Table, *Column) {
	t := schema.Table(pgSchema(rel), rel.GetRelname())
	if t == nil || t.View {
		return nil, nil
	}
	name, ok := opts.Fences[t.QualifiedName()]
	if !ok {
		name = opts.Fence
	}
	return t, t.Column(name)
}

// checkCTEs refuses a write of a fenced table inside WITH: its effect and
// the statement's cannot be told apart, so fencegen cannot fence it.
func (rw *rewriter) checkCTEs(schema *Schema) error {
	if rw.q.Unfenced != "" {
		return nil
	}
	var with *pg.WithClause
	switch n := rw.stmt; {
	case n.GetSelectStmt() != nil:
		with = n.GetSelectStmt().GetWithClause()
	case n.GetUpdateStmt() != nil:
		with = n.GetUpdateStmt().GetWithClause()
	case n.GetDeleteStmt() != nil:
		with = n.GetDeleteStmt().GetWithClause()
	case n.GetInsertStmt() != nil:
		with = n.GetInsertStmt().GetWithClause()
	}
	for _, c := range with.GetCtes() {
		cte := c.GetCommonTableExpr()
		q := cte.GetCtequery()
		var rel *pg.RangeVar
		switch {
		case q.GetUpdateStmt() != nil:
			rel = q.GetUpdateStmt().GetRelation()
		case q.GetDeleteStmt() != nil:
			rel = q.GetDeleteStmt().GetRelation()
		case q.GetInsertStmt() != nil:
			rel = q.GetInsertStmt().GetRelation()
		default:
			continue
		}
		if t, fence := fencedTableOf(rw.opts, schema, rel); fence != nil {
			return errorf(rw.q.pos(int(cte.GetLocation())), "%s writes fenced table %s inside WITH, which fencegen cannot fence; make that write a query of its own, or mark the query \"-- %s <reason>\"", rw.q.Name, t.QualifiedName(), unfencedDirective)
		}
	}
	return nil
}

// syntaxError positions pg_query's error in the user's file.
func (q *userQuery) syntaxError(err error) error {
	var perr *pgparser.Error
	if errors.As(err, &perr) && perr.Cursorpos > 0 {
		return errorf(q.pos(runeOffsetToByte([]byte(q.Text), perr.Cursorpos-1)), "%s", perr.Message)
	}
	return errorf(q.pos(0), "%v", err)
}

// scan tokenizes the statement and notes its parameter style.
func (rw *rewriter) scan() error {
	res, err := pg.Scan(rw.text)
	if err != nil {
		return rw.q.syntaxError(err)
	}
	depth := 0
	for _, t := range res.GetTokens() {
		tok := sqlToken{kind: t.GetToken(), start: int(t.GetStart()), end: int(t.GetEnd())}
		switch tok.kind {
		case pg.Token_SQL_COMMENT, pg.Token_C_COMMENT:
			continue
		case pg.Token_ASCII_41:
			depth--
		case pg.Token_PARAM:
			n, _ := strconv.Atoi(rw.text[tok.start+1 : tok.end])
			rw.params.positional = true
			rw.params.max = max(rw.params.max, n)
			rw.params.list = append(rw.params.list, param{start: tok.start, end: tok.end, n: n})
		}
		tok.depth = depth
		if tok.kind == pg.Token_ASCII_40 {
			depth++
		}
		rw.toks = append(rw.toks, tok)
	}
	return nil
}

// find returns the index of the first top-level token of kind at or after
// from, stopping at any of the stop kinds; -1 if none.
func (rw *rewriter) find(from int, kind pg.Token, stop ...pg.Token) int {
	for i := max(from, 0); i < len(rw.toks); i++ {
		t := rw.toks[i]
		if t.depth != 0 {
			continue
		}
		if t.kind == kind {
			return i
		}
		for _, s := range stop {
			if t.kind == s {
				return -1
			}
		}
	}
	return -1
}

// findTail returns the first top-level clause after from that follows the
// condition: RETURNING, or MySQL's ORDER BY and LIMIT; -1 if none.
func (rw *rewriter) findTail(from int) int {
	for i := max(from, 0); i < len(rw.toks); i++ {
		switch t := rw.toks[i]; {
		case t.depth != 0:
		case t.kind == pg.Token_RETURNING, rw.opts.Engine == MySQL && (t.kind == pg.Token_ORDER || t.kind == pg.Token_LIMIT):
			return i
		}
	}
	return -1
}

// token renders the token parameter of the write.
func (rw *rewriter) token() string {
	if rw.params.positional {
		return rw.numbered(rw.params.max + 1)
	}
	return rw.d.token()
}

// numbered renders parameter n in the engine's numbered form.
func (rw *rewriter) numbered(n int) string {
	if rw.opts.Engine == SQLite {
		return "?" + strconv.Itoa(n)
	}
	return fmt.Sprintf("$%d::bigint", n)
}

// fenceCol renders the fence column as the schema spells it.
func (rw *rewriter) fenceCol() string {
	if rw.fence.spelling != "" {
		return rw.fence.spelling
	}
	return rw.d.ident(rw.fence.Name)
}

// guard is the fence predicate on the written row for token tok.
func (rw *rewriter) guard(tok string) string {
	ref := rw.alias + "." + rw.fenceCol()
	cond := fmt.Sprintf("%s %s %s", ref, rw.opts.Compare, tok)
	if rw.fence.NotNull {
		return cond
	}
	return fmt.Sprintf("(%s IS NULL OR %s)", ref, cond)
}

func (rw *rewriter) insert(at int, text string) { rw.edits = append(rw.edits, edit{at, text}) }

// apply returns the statement with the edits spliced in.
func (rw *rewriter) apply() string {
	sort.SliceStable(rw.edits, func(i, j int) bool { return rw.edits[i].at < rw.edits[j].at })
	var b strings.Builder
	last := 0
	for _, e := range rw.edits {
		b.WriteString(rw.orig[last:e.at])
		b.WriteString(e.text)
		last = e.at
	}
	b.WriteString(rw.orig[last:])
	return b.String()
}

// rewrite fences the statement.
func (rw *rewriter) rewrite() (*fencedQuery, error) {
	fq := &fencedQuery{Kind: rw.kind, Table: rw.table, Fence: rw.fence, Positional: rw.params.positional, ByIndex: len(rw.params.list) > 0}
	var err error
	switch rw.kind {
	case "update":
		err = rw.update(fq)
	case "delete":
		err = rw.delete(fq)
	case "upsert":
		if rw.ins != nil {
			err = rw.mysqlUpsert(fq)
		} else {
			err = rw.upsert(fq)
		}
	}
	if err != nil {
		return nil, err
	}
	fq.SQL = rw.apply()
	fq.Limited = rw.opts.Engine == MySQL && rw.find(0, pg.Token_LIMIT) >= 0
	return fq, nil
}

// setsFence refuses a statement that assigns the fence itself: fencegen
// sets it from the token.
func (rw *rewriter) setsFence(targets []*pg.Node) error {
	for _, n := range targets {
		rt := n.GetResTarget()
		if rt.GetName() == rw.fence.Name {
			return errorf(rw.q.pos(int(rt.GetLocation())), "%s sets fence column %q of %s itself; fencegen sets it from the token: remove the assignment and any fence condition, or mark the query \"-- %s <reason>\"", rw.q.Name, rw.fence.Name, rw.table.QualifiedName(), unfencedDirective)
		}
	}
	return nil
}

// clauses are the positions of an UPDATE's or DELETE's top-level clauses:
// token indexes, -1 when absent.
type clauses struct {
	verb, set, from, using, where, returning int
}

// tailEnd is the byte after the condition: before RETURNING, or the end.
func (rw *rewriter) tailEnd(c clauses) int {
	if c.returning >= 0 {
		return rw.toks[c.returning-1].end
	}
	return rw.toks[len(rw.toks)-1].end
}

// clauseEnd is the end of the text of clause i: the start of the next
// clause present, else the tail.
func (rw *rewriter) clauseEnd(c clauses, next ...int) int {
	for _, n := range next {
		if n >= 0 {
			return rw.toks[n-1].end
		}
	}
	return rw.tailEnd(c)
}

// fenceWhere adds the fence predicate to the statement's condition.
func (rw *rewriter) fenceWhere(c clauses) { rw.fenceWhereWith(c, rw.token()) }

// fenceWhereWith adds the fence predicate against tok.
func (rw *rewriter) fenceWhereWith(c clauses, tok string) {
	if c.where >= 0 {
		rw.insert(rw.toks[c.where+1].start, "(")
		rw.insert(rw.tailEnd(c), ") AND "+rw.guard(tok))
		return
	}
	rw.insert(rw.tailEnd(c), "\nWHERE "+rw.guard(tok))
}

func (rw *rewriter) update(fq *fencedQuery) error {
	u := rw.stmt.GetUpdateStmt() // nil for MySQL, checked by newMySQLRewriter
	if err := rw.setsFence(u.GetTargetList()); err != nil {
		return err
	}
	if err := rw.currentOf(u.GetWhereClause()); err != nil {
		return err
	}
	var c clauses
	c.verb = rw.find(0, pg.Token_UPDATE)
	c.set = rw.find(c.verb, pg.Token_SET)
	c.from = rw.find(c.set, pg.Token_FROM, pg.Token_WHERE, pg.Token_RETURNING)
	c.where = rw.find(c.set, pg.Token_WHERE, pg.Token_RETURNING)
	c.returning = rw.findTail(c.set)
	if c.verb < 0 || c.set < 0 {
		return errorf(rw.q.pos(0), "cannot find the SET clause of %s; please report this as a fencegen bug", rw.q.Name)
	}
	target := [2]int{rw.toks[c.verb+rw.modifiers(c.verb)+1].start, rw.toks[c.set-1].end}
	rw.insert(rw.toks[c.set].end, " "+rw.fenceCol()+" = "+rw.token()+",")
	rw.fenceWhere(c)
	var extra [2]int
	if c.from >= 0 {
		extra = [2]int{rw.toks[c.from+1].start, rw.clauseEnd(c, c.where, c.returning)}
	}
	fq.Check, fq.CheckParams = rw.check(c, target, extra)
	return nil
}

func (rw *rewriter) delete(fq *fencedQuery) error {
	d := rw.stmt.GetDeleteStmt()
	if err := rw.currentOf(d.GetWhereClause()); err != nil {
		return err
	}
	var c clauses
	c.verb = rw.find(0, pg.Token_DELETE_P)
	c.from = rw.find(c.verb, pg.Token_FROM)
	c.using = rw.find(c.from, pg.Token_USING, pg.Token_WHERE, pg.Token_RETURNING)
	c.where = rw.find(c.from, pg.Token_WHERE, pg.Token_RETURNING)
	c.returning = rw.findTail(c.from)
	if c.verb < 0 || c.from < 0 {
		return errorf(rw.q.pos(0), "cannot find the FROM clause of %s; please report this as a fencegen bug", rw.q.Name)
	}
	rw.fenceWhere(c)
	target := [2]int{rw.toks[c.from+1].start, rw.clauseEnd(c, c.using, c.where, c.returning)}
	var extra [2]int
	if c.using >= 0 {
		extra = [2]int{rw.toks[c.using+1].start, rw.clauseEnd(c, c.where, c.returning)}
	}
	fq.Check, fq.CheckParams = rw.check(c, target, extra)
	return nil
}

// currentOf refuses WHERE CURRENT OF, whose row fencegen cannot guard.
func (rw *rewriter) currentOf(where *pg.Node) error {
	if where.GetCurrentOfExpr() != nil {
		return errorf(rw.q.NamePos, "%s writes through a cursor (WHERE CURRENT OF), which fencegen cannot fence; name the row by its key", rw.q.Name)
	}
	return nil
}

// check renders the query that labels an update's or delete's outcome:
// how many rows its condition matches, how many of them a newer token
// holds, and the newest fence. target is the text naming the written table
// (with its alias), extra the FROM or USING list, both as byte ranges.
// Rows are counted by ctid, since a join may match a row more than once.
func (rw *rewriter) check(c clauses, target, extra [2]int) (string, []int) {
	ranges := [][2]int{{0, rw.toks[c.verb].start}, target}
	if extra[1] > 0 {
		ranges = append(ranges, extra)
	}
	if c.where >= 0 {
		ranges = append(ranges, [2]int{rw.toks[c.where+1].start, rw.tailEnd(c)})
	}
	renumber, old := rw.renumbering(ranges)
	part := func(i int) string { return rw.slice(ranges[i], renumber) }
	tok := rw.d.token()
	if rw.params.positional {
		tok = rw.numbered(len(old) + 1)
	}
	ref := rw.alias + "." + rw.fenceCol()
	row, newest := rw.alias+".ctid", "COALESCE(max("+ref+"), 0)::bigint"
	count := "count(DISTINCT "
	switch {
	case rw.opts.Engine == MySQL: // single-table statements only: a row matches once
		row, newest, count = "1", "CAST(COALESCE(MAX("+ref+"), 0) AS SIGNED)", "count("
	case rw.table.noRowid: // SQLite WITHOUT ROWID; sqlc reads no UPDATE ... FROM there, so a row matches once
		row, newest, count = "1", "CAST(COALESCE(max("+ref+"), 0) AS INTEGER)", "count("
	case rw.opts.Engine == SQLite:
		row, newest = rw.alias+".rowid", "CAST(COALESCE(max("+ref+"), 0) AS INTEGER)"
	}
	var b strings.Builder
	b.WriteString(part(0))
	fmt.Fprintf(&b, "SELECT %s%s) AS matched, %sCASE WHEN %s > %s THEN %s END) AS newer, %s AS newest\nFROM %s", count, row, count, ref, tok, row, newest, part(1))
	i := 2
	if extra[1] > 0 {
		b.WriteString(", " + part(i))
		i++
	}
	if c.where >= 0 {
		b.WriteString("\nWHERE " + part(i))
	}
	return b.String(), old
}

// renumbering numbers the positional parameters used in ranges densely
// from 1, in the order of their old numbers (sqlc orders a positional
// query's parameters by number). It returns old -> new and the old numbers
// in new order.
func (rw *rewriter) renumbering(ranges [][2]int) (map[int]int, []int) {
	if len(rw.params.list) == 0 {
		return nil, nil
	}
	used := map[int]bool{}
	for _, p := range rw.params.list {
		for _, r := range ranges {
			if p.start >= r[0] && p.end <= r[1] {
				used[p.n] = true
			}
		}
	}
	var old []int
	for n := range used {
		old = append(old, n)
	}
	sort.Ints(old)
	if !rw.params.positional {
		return nil, old // MySQL's ? keep their places; only the mapping is needed
	}
	renumber := map[int]int{}
	for i, n := range old {
		renumber[n] = i + 1
	}
	return renumber, old
}

// slice returns the text of r with positional parameters renumbered.
func (rw *rewriter) slice(r [2]int, renumber map[int]int) string {
	if renumber == nil {
		return rw.orig[r[0]:r[1]]
	}
	var b strings.Builder
	last := r[0]
	for _, p := range rw.params.list {
		if p.start < r[0] || p.end > r[1] {
			continue
		}
		b.WriteString(rw.orig[last:p.start])
		b.WriteString(rw.orig[p.start:p.start+1] + strconv.Itoa(renumber[p.n]))
		last = p.end
	}
	b.WriteString(rw.orig[last:r[1]])
	return b.String()
}

// upsert fences INSERT ... ON CONFLICT DO UPDATE: the new rows carry the
// token as their fence, and the conflict update applies only if the
// existing row's fence admits the token. Rows come from VALUES or a SELECT.
func (rw *rewriter) upsert(fq *fencedQuery) error {
	ins := rw.stmt.GetInsertStmt()
	if len(ins.GetCols()) == 0 {
		return errorf(rw.q.NamePos, "%s inserts into fenced table %s without a column list; list the columns so fencegen can add the fence", rw.q.Name, rw.table.QualifiedName())
	}
	if err := rw.setsFence(ins.GetCols()); err != nil {
		return err
	}
	if err := rw.setsFence(ins.GetOnConflictClause().GetTargetList()); err != nil {
		return err
	}
	into := rw.find(0, pg.Token_INTO)
	cols := rw.find(into, pg.Token_ASCII_40)
	source := rw.find(cols+1, pg.Token_ASCII_41) + 1 // VALUES, SELECT or WITH
	on := rw.find(rw.find(source, pg.Token_CONFLICT)-1, pg.Token_ON)
	do := rw.find(on, pg.Token_DO)
	set := rw.find(do, pg.Token_SET)
	if into < 0 || cols < 0 || source <= 0 || source >= on || on < 0 || do < 0 || set < 0 {
		return errorf(rw.q.pos(0), "cannot find the clauses of %s; please report this as a fencegen bug", rw.q.Name)
	}
	tok := rw.token()
	rw.insert(rw.toks[cols].end, rw.fenceCol()+", ")
	sel := ins.GetSelectStmt().GetSelectStmt()
	fromQuery := len(sel.GetValuesLists()) == 0
	if fromQuery {
		if sel.GetOp() != pg.SetOperation_SETOP_NONE || len(sel.GetTargetList()) == 0 {
			return errorf(rw.q.NamePos, "%s upserts fenced table %s from a UNION or another set operation; fencegen fences INSERT ... VALUES and INSERT ... SELECT: upsert from one SELECT (a UNION can move into a subquery of its FROM), or mark the query \"-- %s <reason>\"", rw.q.Name, rw.table.QualifiedName(), unfencedDirective)
		}
		rw.insert(int(sel.GetTargetList()[0].GetResTarget().GetLocation()), tok+", ")
	} else {
		for i := source + 1; i < on; i++ {
			if t := rw.toks[i]; t.depth == 0 && t.kind == pg.Token_ASCII_40 {
				rw.insert(t.end, tok+", ")
				fq.Tuples++
			}
		}
	}
	// The conflict update reads the token from the proposed row (excluded),
	// so no parameter is needed there (sqlc's SQLite engine leaves named
	// parameters in DO UPDATE unrewritten).
	excluded := "excluded." + rw.fenceCol()
	rw.insert(rw.toks[set].end, " "+rw.fenceCol()+" = "+excluded+",")
	c := clauses{verb: set, where: rw.find(set, pg.Token_WHERE, pg.Token_RETURNING), returning: rw.find(set, pg.Token_RETURNING)}
	rw.fenceWhereWith(c, excluded)
	if c.where < 0 && !fromQuery {
		return nil // a VALUES row not written was rejected by the fence
	}
	// A SELECT's rows are not known in advance, and your own condition
	// may skip a row too: a check of the conflicting rows tells those held
	// by a newer token.
	keys, idx, err := rw.conflictKeys(ins, c.where >= 0)
	if err != nil {
		return err
	}
	if fromQuery {
		fq.Check, fq.CheckParams = rw.selectCheck(ins, into, cols, keys, [2]int{rw.toks[source].start, rw.toks[on-1].end})
	} else {
		fq.Check, fq.CheckParams, err = rw.valuesCheck(into, cols, keys, idx, rw.valuesRows(source, on))
	}
	return err
}

// conflictKeys returns the columns of an upsert's conflict target, which
// its check matches rows by, and their places in the insert column list.
func (rw *rewriter) conflictKeys(ins *pg.InsertStmt, ownCondition bool) ([]string, []int, error) {
	why := "upserts from a query, so fencegen finds the rows a newer token kept"
	if ownCondition {
		why = "has a DO UPDATE condition of its own, so fencegen must tell the rows it skips from those a newer token holds"
	}
	refuse := func(what string) error {
		return errorf(rw.q.NamePos, "%s %s by the conflict target's columns; %s, or mark the query \"-- %s <reason>\"", rw.q.Name, why, what, unfencedDirective)
	}
	inserted := map[string]int{}
	for i, n := range ins.GetCols() {
		inserted[n.GetResTarget().GetName()] = i
	}
	var keys []string
	var idx []int
	for _, e := range ins.GetOnConflictClause().GetInfer().GetIndexElems() {
		name := e.GetIndexElem().GetName()
		i, ok := inserted[name]
		if !ok {
			return nil, nil, refuse("name inserted columns in ON CONFLICT (...)")
		}
		keys, idx = append(keys, name), append(idx, i)
	}
	if len(keys) == 0 {
		return nil, nil, refuse("name them in ON CONFLICT (...) rather than ON CONSTRAINT")
	}
	return keys, idx, nil
}

// checkSelect is the select list of an upsert's check: the conflicting
// rows, those whose fence rejects the token (under "<" the rows just
// written hold it too, and the method takes them away) and the newest
// fence.
func (rw *rewriter) checkSelect(tok string) string {
	rejects := ">"
	if rw.opts.Compare == CompareLT {
		rejects = ">="
	}
	ref := rw.alias + "." + rw.fenceCol()
	newest := "COALESCE(max(" + ref + "), 0)::bigint"
	if rw.opts.Engine == SQLite {
		newest = "CAST(COALESCE(max(" + ref + "), 0) AS INTEGER)"
	}
	return fmt.Sprintf("SELECT count(*) AS matched, count(CASE WHEN %s %s %s THEN 1 END) AS newer, %s AS newest", ref, rejects, tok, newest)
}

// checkToken is the token parameter of a check query whose parameters are
// old, renumbered.
func (rw *rewriter) checkToken(old []int) string {
	if rw.params.positional {
		return rw.numbered(len(old) + 1)
	}
	return rw.d.token()
}

// valuesCheck renders the check of an upsert from VALUES: the rows whose
// conflict-target columns hold a VALUES row's values.
func (rw *rewriter) valuesCheck(into, cols int, keys []string, idx []int, rows [][][2]int) (string, []int, error) {
	var ranges [][2]int
	for _, row := range rows {
		for _, i := range idx {
			if i >= len(row) {
				return "", nil, errorf(rw.q.NamePos, "%s has a VALUES row with fewer values than columns", rw.q.Name)
			}
			ranges = append(ranges, row[i])
		}
	}
	renumber, old := rw.renumbering(ranges)
	var match []string
	for r := range rows {
		var conj []string
		for k, key := range keys {
			conj = append(conj, rw.alias+"."+rw.d.ident(key)+" = "+rw.slice(ranges[r*len(keys)+k], renumber))
		}
		match = append(match, "("+strings.Join(conj, " AND ")+")")
	}
	target := rw.orig[rw.toks[into+1].start:rw.toks[cols-1].end]
	return fmt.Sprintf("%s\nFROM %s\nWHERE %s", rw.checkSelect(rw.checkToken(old)), target, strings.Join(match, " OR ")), old, nil
}

// selectCheck renders the check of an upsert from a SELECT (text range
// query): the rows whose conflict-target columns hold a row the query
// returns, run again as a WITH query named by the insert's columns.
func (rw *rewriter) selectCheck(ins *pg.InsertStmt, into, cols int, keys []string, query [2]int) (string, []int) {
	ranges := [][2]int{query}
	with := ""
	if ins.GetWithClause() != nil { // the query may read the insert's own WITH queries
		verb := rw.find(0, pg.Token_INSERT)
		ranges = append(ranges, [2]int{rw.toks[0].start, rw.toks[verb-1].end})
	}
	renumber, old := rw.renumbering(ranges)
	if len(ranges) > 1 {
		with = rw.slice(ranges[1], renumber) + ",\n"
	} else {
		with = "WITH "
	}
	var names, on []string
	for _, n := range ins.GetCols() {
		names = append(names, rw.d.ident(n.GetResTarget().GetName()))
	}
	for _, k := range keys {
		on = append(on, rw.alias+"."+rw.d.ident(k)+" = fencegen_rows."+rw.d.ident(k))
	}
	target := rw.orig[rw.toks[into+1].start:rw.toks[cols-1].end]
	return fmt.Sprintf("%sfencegen_rows (%s) AS (\n%s\n)\n%s\nFROM %s\nJOIN fencegen_rows ON %s",
		with, strings.Join(names, ", "), rw.slice(query, renumber), rw.checkSelect(rw.checkToken(old)), target, strings.Join(on, " AND ")), old
}

// valuesRows returns the byte ranges of the values of each VALUES row
// between tokens values and end.
func (rw *rewriter) valuesRows(values, end int) [][][2]int {
	var rows [][][2]int
	var row [][2]int
	start := -1
	for i := values + 1; i < end; i++ {
		t := rw.toks[i]
		switch {
		case t.depth == 0 && t.kind == pg.Token_ASCII_40:
			row, start = nil, i+1
		case start >= 0 && start < i && (t.depth == 0 && t.kind == pg.Token_ASCII_41 || t.depth == 1 && t.kind == pg.Token_ASCII_44):
			row = append(row, [2]int{rw.toks[start].start, rw.toks[i-1].end})
			start = i + 1
			if t.kind == pg.Token_ASCII_41 {
				rows, start = append(rows, row), -1
			}
		}
	}
	return rows
}

package sqlscan

import (
	"cmp"
	"slices"
	"strings"
)

// stmt is the state of reading one statement. Positions are indices into
// toks; a statement (or a WITH body read as a statement) spans [lo, hi).
type stmt struct {
	toks  []token
	match []int // index of the matching parenthesis, -1 if unmatched
	lo    int
	hi    int
	st    Statement

	// alias and tableLast qualify the target's columns ("d.fence").
	alias     string
	tableLast string
	// inserted maps an INSERT column (lower case) to the value inserted,
	// for EXCLUDED.col, VALUES(col) and row-alias references.
	inserted map[string]value
	// rowAlias is MySQL 8's "INSERT ... VALUES (...) AS new".
	rowAlias string
	// joined reports other tables in the write (UPDATE ... FROM, MERGE
	// ... USING) whose columns may carry the token.
	joined bool
	// depth is the nesting of recursive reading, bounded by maxDepth.
	depth int
	// whereLo and whereHi span the WHERE condition of an UPDATE or DELETE.
	whereLo, whereHi int
	// ctes maps the WITH queries' names (lower case) to their bodies.
	ctes map[string][2]int
}

// maxDepth bounds the nesting of conditions and WITH clauses read, so that
// hostile input cannot exhaust the stack. Deeper text is Unknown.
const maxDepth = 100

// enter increases the nesting depth and reports whether reading may go on;
// every call must be paired with leave.
func (s *stmt) enter() bool {
	s.depth++
	if s.depth > maxDepth {
		s.unknown("nested too deeply")
		return false
	}
	return true
}

// leave undoes enter.
func (s *stmt) leave() { s.depth-- }

// unknown marks the statement as not understood, keeping the first reason.
func (s *stmt) unknown(why string) {
	if !s.st.Unknown {
		s.st.Unknown, s.st.Problem = true, why
	}
}

// value is what an INSERT put into a column.
type value struct {
	param   Param // the placeholder, or zero
	literal bool  // a plain literal: nothing a token could flow through
}

// analyze reads the statement made of toks.
func analyze(toks []token) Statement {
	match, balanced := matchParens(toks)
	s := &stmt{toks: toks, match: match, hi: len(toks)}
	s.read()
	if !balanced {
		s.unknown("unbalanced parentheses")
	}
	return s.st
}

// matchParens pairs parentheses and reports whether all of them pair up.
func matchParens(toks []token) ([]int, bool) {
	match := make([]int, len(toks))
	var stack []int
	ok := true
	for i := range toks {
		match[i] = -1
		switch toks[i].kind {
		case tLParen:
			stack = append(stack, i)
		case tRParen:
			if len(stack) == 0 {
				ok = false
				continue
			}
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			match[i], match[j] = j, i
		}
	}
	return match, ok && len(stack) == 0
}

// sub returns a reader for the statement nested in [lo, hi).
func (s *stmt) sub(lo, hi int) *stmt {
	return &stmt{toks: s.toks, match: s.match, lo: lo, hi: hi, depth: s.depth}
}

// read fills s.st.
func (s *stmt) read() {
	s.st.Params = s.params()
	s.st.Calls = s.calls()
	i := s.lo
	for i < s.hi && s.toks[i].kind == tLParen {
		i++
	}
	if i < s.hi && s.toks[i].is("WITH") {
		i = s.with(i + 1)
	}
	if i >= s.hi || s.toks[i].kind != tWord {
		s.unknown("does not start with a keyword")
		return
	}
	s.st.Verb = strings.ToUpper(s.toks[i].text)
	s.readVerb(i)
	if s.st.Table == "" && len(s.st.With) > 0 {
		s.st.Table = s.st.With[0].Table
	}
}

// readVerb dispatches on the statement's verb at index i.
func (s *stmt) readVerb(i int) {
	if s.st.Server = s.serverChange(i); s.st.Server != "" {
		return
	}
	switch s.st.Verb {
	case "UPDATE":
		s.update(i + 1)
	case "DELETE":
		s.delete(i + 1)
	case "INSERT", "REPLACE", "UPSERT":
		s.insert(i + 1)
	case "MERGE":
		s.merge(i + 1)
	case "TRUNCATE":
		s.truncate(i + 1)
	case "COPY":
		s.copy(i + 1)
	case "LOAD":
		s.load(i + 1)
	case "SELECT", "VALUES", "TABLE":
		if s.st.ForUpdate = s.lockingRead(i + 1); s.st.ForUpdate {
			s.lockedTable(i + 1)
		}
	case "EXPLAIN":
		s.explain(i + 1)
	case "CALL", "EXEC", "EXECUTE", "DO", "CREATE", "ALTER", "DROP", "SET", "SHOW", "BEGIN", "START",
		"COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "LOCK", "UNLOCK", "GRANT", "REVOKE", "ANALYZE",
		"VACUUM", "PRAGMA", "LISTEN", "NOTIFY", "UNLISTEN", "DECLARE", "FETCH", "CLOSE",
		"PREPARE", "DEALLOCATE", "DISCARD", "RESET", "REFRESH", "REINDEX", "CLUSTER", "COMMENT", "USE",
		"DESCRIBE", "DESC", "HANDLER", "ATTACH", "DETACH", "END", "ABORT", "CHECKPOINT", "RENAME", "OPTIMIZE":
		// Understood well enough: none of these writes table data directly.
	default:
		s.unknown("unknown statement " + s.st.Verb)
	}
}

// explain reads EXPLAIN [options] statement. EXPLAIN ANALYZE runs the
// statement, so it is read as that statement; a plain EXPLAIN runs nothing.
func (s *stmt) explain(i int) {
	analyze := false
	for i < s.hi {
		switch t := &s.toks[i]; {
		case t.kind == tLParen: // PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) ...
			end := s.closeOf(i)
			analyze = analyze || s.find(i+1, end, "ANALYZE", "ANALYSE") < end
			i = end + 1
			continue
		case t.is("ANALYZE") || t.is("ANALYSE"):
			analyze = true
		case t.is("FORMAT"):
			i++
		case t.is("VERBOSE") || t.is("EXTENDED") || t.is("PARTITIONS") || t.is("QUERY") || t.is("PLAN"):
		default:
			if analyze && t.kind == tWord {
				s.st.Verb = strings.ToUpper(t.text)
				s.readVerb(i)
			}
			return
		}
		i++
	}
}

// params returns every placeholder of the statement in order.
func (s *stmt) params() []Param {
	var ps []Param
	for i := s.lo; i < s.hi; i++ {
		if s.toks[i].kind == tParam {
			ps = append(ps, s.toks[i].param())
		}
	}
	return ps
}

// maxCallArgs bounds the placeholders reported per call: the functions this
// package knows take at most three arguments, and a bound keeps nested
// calls from making the report quadratic in the query's size.
const maxCallArgs = 8

// calls returns the calls of known functions, and the bare keywords
// (CURRENT_TIMESTAMP) that stand for them.
func (s *stmt) calls() []Call {
	var cs []Call
	for i := s.lo; i < s.hi; i++ {
		t := &s.toks[i]
		if t.kind != tWord {
			continue
		}
		called := i+1 < s.hi && s.toks[i+1].kind == tLParen
		if !called && !bareFunc(t.text) {
			continue
		}
		name := strings.ToLower(t.text)
		if KnownFunc(name) == RoleNone {
			continue
		}
		c := Call{Name: name, Pos: t.pos}
		if called {
			c.Args = s.argsOf(i+1, s.closeOf(i+1))
		}
		cs = append(cs, c)
	}
	return cs
}

// argsOf returns the first maxCallArgs placeholders of the statement
// between the parentheses at open and closing.
func (s *stmt) argsOf(open, closing int) []Param {
	lo, hi := s.toks[open].pos, s.toks[min(closing, s.hi-1)].end
	ps := s.st.Params
	first, _ := slices.BinarySearchFunc(ps, lo, func(p Param, pos int) int { return cmp.Compare(p.Pos, pos) })
	var args []Param
	for _, p := range ps[first:] {
		if p.Pos >= hi || len(args) == maxCallArgs {
			break
		}
		args = append(args, p)
	}
	return args
}

// bareFunc reports SQL keywords that call a function without parentheses,
// in any case.
func bareFunc(name string) bool {
	for _, f := range [...]string{"current_timestamp", "localtimestamp", "current_time", "current_date", "localtime"} {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// closeOf returns the index of the parenthesis closing the one at i, or
// s.hi if it is unmatched or beyond the statement.
func (s *stmt) closeOf(i int) int {
	if i < s.lo || i >= s.hi || s.match[i] < 0 || s.match[i] >= s.hi || s.match[i] < i {
		return s.hi
	}
	return s.match[i]
}

// skip returns the index after the token at i, jumping over a parenthesized
// group if i opens one.
func (s *stmt) skip(i int) int {
	if s.toks[i].kind == tLParen {
		return s.closeOf(i) + 1
	}
	return i + 1
}

// find returns the index of the first top-level token in [i, hi) that is
// one of the keywords kws, or hi.
func (s *stmt) find(i, hi int, kws ...string) int {
	for i < hi {
		t := &s.toks[i]
		if t.kind == tWord {
			for _, kw := range kws {
				if t.is(kw) {
					return i
				}
			}
		}
		i = s.skip(i)
	}
	return hi
}

// hasComma reports a top-level comma in [lo, hi).
func (s *stmt) hasComma(lo, hi int) bool {
	for i := lo; i < hi; i = s.skip(i) {
		if s.toks[i].kind == tComma {
			return true
		}
	}
	return false
}

// word reports whether the token at i is the keyword kw.
func (s *stmt) word(i int, kw string) bool { return i >= s.lo && i < s.hi && s.toks[i].is(kw) }

// skipWords skips any of the given keywords at i.
func (s *stmt) skipWords(i int, kws ...string) int {
	for i < s.hi {
		hit := false
		for _, kw := range kws {
			if s.toks[i].is(kw) {
				hit = true
				break
			}
		}
		if !hit {
			return i
		}
		i++
	}
	return i
}

// name reads a possibly qualified name at i and returns it joined with
// dots, its last part, and the index after it. ok is false if there is none.
func (s *stmt) name(i int) (full, last string, j int, ok bool) {
	if i >= s.hi || !s.namePart(i) {
		return "", "", i, false
	}
	parts := []string{s.partText(i)}
	j = i + 1
	for j+1 < s.hi && s.toks[j].kind == tDot && s.namePart(j+1) {
		parts = append(parts, s.partText(j+1))
		j += 2
	}
	return strings.Join(parts, "."), parts[len(parts)-1], j, true
}

// namePart reports whether the token at i can be part of a qualified name:
// a name, or a hole (a table named at run time).
func (s *stmt) namePart(i int) bool { return s.toks[i].isName() || s.isHole(i) }

// partText is the text of a name part; a hole reads as "?".
func (s *stmt) partText(i int) string {
	if s.isHole(i) {
		return "?"
	}
	return s.toks[i].text
}

// target reads the target table and its alias at i and returns the index
// after them.
func (s *stmt) target(i int) int {
	i = s.skipWords(i, "ONLY")
	full, last, j, ok := s.name(i)
	if !ok || (s.toks[i].kind == tWord && reserved(s.toks[i].text)) {
		s.unknown("no table name after " + s.st.Verb)
		return s.hi
	}
	s.st.Table, s.tableLast = full, last
	s.st.TableHole = s.holeAlone(i, j)
	if j < s.hi && s.toks[j].isOp("*") {
		j++
	}
	if s.word(j, "AS") {
		j++
	}
	if j < s.hi && s.toks[j].isName() && !(s.toks[j].kind == tWord && reserved(s.toks[j].text)) {
		s.alias = s.toks[j].text
		s.st.Alias = s.alias
		j++
	}
	return j
}

// reserved reports words that end a table reference rather than alias it.
func reserved(w string) bool {
	switch strings.ToUpper(w) {
	case "SET", "WHERE", "FROM", "USING", "VALUES", "VALUE", "SELECT", "DEFAULT", "ON", "JOIN", "INNER",
		"LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "STRAIGHT_JOIN", "OUTER", "RETURNING", "ORDER", "LIMIT",
		"WITH", "AS", "PARTITION", "OVERRIDING", "TABLE", "WHEN", "USE", "FORCE", "IGNORE", "INDEXED", "NOT",
		"AND", "OR", "NULL", "TRUE", "FALSE", "IS", "IN", "TO", "CASE", "CONFLICT", "DUPLICATE", "UNION",
		"GROUP", "HAVING", "WINDOW", "FOR", "INTO", "OUTPUT":
		return true
	}
	return false
}

// with reads the CTE list after WITH at i and returns the index of the main
// statement's verb. Data-modifying CTE bodies become s.st.With.
func (s *stmt) with(i int) int {
	i = s.skipWords(i, "RECURSIVE")
	for i < s.hi {
		if !s.toks[i].isName() {
			break
		}
		name := strings.ToLower(s.toks[i].text)
		i++
		if i < s.hi && s.toks[i].kind == tLParen {
			i = s.closeOf(i) + 1
		}
		if !s.word(i, "AS") {
			break
		}
		i = s.skipWords(i+1, "NOT", "MATERIALIZED")
		if i >= s.hi || s.toks[i].kind != tLParen {
			break
		}
		end := s.closeOf(i)
		if s.ctes == nil {
			s.ctes = make(map[string][2]int)
		}
		s.ctes[name] = [2]int{i + 1, end}
		body := s.sub(i+1, end)
		if !body.enter() {
			s.unknown("WITH nested too deeply")
			return s.hi
		}
		body.read()
		if body.st.Writes {
			s.st.Writes = true
			s.st.With = append(s.st.With, body.st)
		}
		if body.st.Unknown {
			s.unknown("WITH " + body.st.Problem)
		}
		i = end + 1
		if i < s.hi && s.toks[i].kind == tComma {
			i++
			continue
		}
		return i
	}
	s.unknown("malformed WITH clause")
	return s.hi
}

// update reads UPDATE [modifiers] table [alias] [joins] SET ... [FROM ...]
// [WHERE ...] [RETURNING ...].
func (s *stmt) update(i int) {
	s.st.Writes = true
	i = s.skipWords(i, "LOW_PRIORITY", "IGNORE")
	if s.word(i, "OR") {
		s.st.Conflict = orConflict(s.toks, i+1, s.hi)
		i += 2
	}
	i = s.target(i)
	set := s.find(i, s.hi, "SET")
	if set == s.hi {
		s.unknown("UPDATE without SET")
		return
	}
	end := s.find(set+1, s.hi, "FROM", "WHERE", "RETURNING", "ORDER", "LIMIT")
	s.joined = s.word(end, "FROM") || s.find(i, set, "JOIN") < set || s.hasComma(i, set)
	s.st.Stored = append(s.st.Stored, s.assignments(set+1, end)...)
	s.st.Assigned = s.assignedColumns(set+1, end)
	s.st.Accumulates = s.accumulates(set+1, end)
	if !s.where(end) {
		s.openClauses(set+1, s.hi)
	}
	if s.whereHi <= s.whereLo && !s.joined && end == s.hi {
		s.reset(set+1, end)
	}
	if s.whereHi > s.whereLo {
		s.versions(set+1, end, s.whereLo, s.whereHi)
		if !s.joined {
			s.claims(set+1, end, s.whereLo, s.whereHi)
			s.flags(set+1, end, s.whereLo, s.whereHi)
			s.softDelete(set+1, end, s.whereLo, s.whereHi)
			s.bounds(set+1, end, s.whereLo, s.whereHi)
		}
		s.transition(set+1, end, s.whereLo, s.whereHi)
		if s.joined {
			s.derived(set+1, end, s.whereLo, s.whereHi)
		}
	}
	s.st.Returning = s.find(end, s.hi, "RETURNING") < s.hi
}

// orConflict names SQLite's "OR REPLACE"-style conflict resolution.
func orConflict(toks []token, i, hi int) string {
	if i < hi && toks[i].kind == tWord {
		return strings.ToUpper(toks[i].text)
	}
	return ""
}

// where reads the WHERE clause found at or after i (if any) for fences,
// and reports whether there is one.
func (s *stmt) where(i int) bool {
	w := s.find(i, s.hi, "WHERE")
	if w == s.hi {
		return false
	}
	end := s.find(w+1, s.hi, "RETURNING", "ORDER", "LIMIT")
	s.st.Fences = append(s.st.Fences, s.fences(w+1, end, "WHERE")...)
	s.whereLo, s.whereHi = w+1, end
	return true
}

// delete reads DELETE [modifiers] FROM table [alias] [USING ...] [WHERE ...]
// [RETURNING ...], and MySQL's multi-table DELETE t1 FROM t1 JOIN ....
func (s *stmt) delete(i int) {
	s.st.Writes = true
	i = s.skipWords(i, "LOW_PRIORITY", "QUICK", "IGNORE")
	if s.word(i, "FROM") {
		i = s.target(i + 1)
	} else {
		i = s.target(i)
		s.alias = "" // "DELETE t FROM t AS x": the first name is the target itself
	}
	if !s.where(i) {
		s.openClauses(i, s.hi)
	}
	if s.whereHi > s.whereLo && !s.joined {
		s.expiry(s.whereLo, s.whereHi)
		if w := s.whereLo - 1; s.find(i, w, "USING", "JOIN") == w && !s.hasComma(i, w) {
			s.pins(s.whereLo, s.whereHi) // one table: every column is the target's
			s.st.Where = s.wherePins(s.whereLo, s.whereHi)
		}
	}
	s.st.Returning = s.find(i, s.hi, "RETURNING") < s.hi
}

// truncate reads TRUNCATE [TABLE] [ONLY] name.
func (s *stmt) truncate(i int) {
	s.st.Writes = true
	s.target(s.skipWords(i, "TABLE"))
}

// copy reads COPY name [(cols)] FROM|TO ...; only COPY ... FROM writes.
func (s *stmt) copy(i int) {
	if i < s.hi && s.toks[i].kind == tLParen {
		return // COPY (query) TO: a read
	}
	full, _, j, ok := s.name(i)
	if !ok {
		s.unknown("COPY without a table or query")
		return
	}
	if j < s.hi && s.toks[j].kind == tLParen {
		j = s.closeOf(j) + 1
	}
	if s.word(j, "FROM") {
		s.st.Writes, s.st.Table = true, full
	}
}

// load reads MySQL's LOAD DATA ... INTO TABLE name.
func (s *stmt) load(i int) {
	into := s.find(i, s.hi, "INTO")
	if !s.word(i, "DATA") && !s.word(i, "XML") || into == s.hi || !s.word(into+1, "TABLE") {
		s.unknown("LOAD without DATA ... INTO TABLE")
		return
	}
	s.st.Writes = true
	s.target(into + 2)
}

// lockedTable records the select list of a locking read at i and the
// first table its top-level FROM clause names.
func (s *stmt) lockedTable(i int) {
	i = s.skipWords(i, "DISTINCT", "ALL")
	from := s.find(i, s.hi, "FROM")
	s.st.LockedColumns = s.columnList(i, from)
	if full, _, j, ok := s.name(from + 1); from < s.hi && ok {
		s.st.Locked, s.st.LockedHole = full, s.holeAlone(from+1, j)
	}
}

// assignedColumns returns the columns the assignments in [lo, hi) assign.
func (s *stmt) assignedColumns(lo, hi int) []string {
	var cols []string
	for _, part := range s.split(lo, hi) {
		eq := s.equals(part[0], part[1])
		if eq >= part[1] {
			continue
		}
		if _, last, j, ok := s.name(part[0]); ok && j == eq {
			cols = append(cols, last)
		}
	}
	return cols
}

// holeAlone returns the hole that makes up the name in [i, j) alone, or
// the zero Param.
func (s *stmt) holeAlone(i, j int) Param {
	if j == i+1 && s.isHole(i) {
		return s.toks[i].param()
	}
	return Param{}
}

// lockingRead reports FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE at the top
// level of a query starting at i.
func (s *stmt) lockingRead(i int) bool {
	for j := s.find(i, s.hi, "FOR", "LOCK"); j < s.hi; j = s.find(j+1, s.hi, "FOR", "LOCK") {
		switch {
		case s.word(j, "FOR") && (s.word(j+1, "UPDATE") || s.word(j+1, "SHARE") || s.word(j+1, "NO") || s.word(j+1, "KEY")):
			return true
		case s.word(j, "LOCK") && s.word(j+1, "IN"):
			return true
		}
	}
	return false
}

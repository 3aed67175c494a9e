package sqlscan

import (
	"strconv"
	"strings"
)

// Parse reads the SQL text of one Exec/Query call, choosing the lexical
// rules itself (see Auto). It never panics and never fails: text it cannot
// read yields a Script marked Unknown.
func Parse(query string) *Script { return ParseDialect(query, Auto) }

// ParseDialect is Parse with the dialect known from the driver, which
// settles the readings that differ between dialects (backslashes in
// strings, # comments, ? and @name).
func ParseDialect(query string, d Dialect) *Script {
	lx, chosen := read(query, d)
	s := &Script{Dialect: chosen}
	if lx.problem != "" {
		s.Unknown, s.Problem = true, lx.problem
	}
	for i := range lx.toks {
		if lx.toks[i].kind == tParam {
			s.Params = append(s.Params, lx.toks[i].param())
		}
	}
	spans := splitStatements(lx.toks)
	s.Statements = make([]Statement, 0, len(spans))
	for _, span := range spans {
		st := analyze(lx.toks[span[0]:span[1]])
		st.Pos, st.End = lx.toks[span[0]].pos, lx.toks[span[1]-1].end
		st.Name, st.Cmd = sqlcAnnotation(lx.comments, prevEnd(lx.toks, span[0]), st.Pos)
		switch {
		case s.Unknown && !st.Unknown:
			st.Unknown, st.Problem = true, s.Problem
		case st.Unknown && !s.Unknown:
			s.Unknown = true
			s.Problem = "statement " + strconv.Itoa(len(s.Statements)+1) + ": " + st.Problem
		}
		s.Statements = append(s.Statements, st)
	}
	resolveUserVars(s, lx.toks, spans)
	return s
}

// resolveUserVars replaces MySQL user variables used as tokens by the
// placeholder an earlier statement of the script assigned them:
// "SET @tok = ?; INSERT ... ON DUPLICATE KEY UPDATE v = IF(fence < @tok, ...)".
func resolveUserVars(s *Script, toks []token, spans [][2]int) {
	var vars map[string]Param
	for k := range s.Statements {
		st := &s.Statements[k]
		for i, f := range st.Fences {
			if p, ok := vars[userVar(f.Token)]; ok {
				st.Fences[i].Token = p
			}
		}
		if st.Verb != "SET" {
			continue
		}
		for _, a := range userVarAssignments(toks[spans[k][0]:spans[k][1]]) {
			if vars == nil {
				vars = make(map[string]Param)
			}
			vars[a.Column] = a.Value
		}
	}
}

// userVar returns the name of the user variable p stands for, or "".
func userVar(p Param) string {
	if p.Style != AtName {
		return ""
	}
	return p.Name
}

// userVarAssignments reads "SET @a = ?, @b := ?" and returns the variables
// assigned a single placeholder (Column holds the name without @).
func userVarAssignments(toks []token) []Assign {
	var out []Assign
	for i := 1; i+3 <= len(toks); i++ {
		t := &toks[i]
		name := ""
		switch {
		case t.kind == tParam && t.style == AtName:
			name = t.text[1:]
		case t.kind == tWord && strings.HasPrefix(t.text, "@") && !strings.HasPrefix(t.text, "@@"):
			name = t.text[1:]
		default:
			continue
		}
		eq, v := &toks[i+1], &toks[i+2]
		last := i+3 == len(toks) || toks[i+3].kind == tComma
		if (eq.isOp("=") || eq.isOp(":=")) && v.kind == tParam && v.style != AtName && last && (toks[i-1].is("SET") || toks[i-1].kind == tComma) {
			out = append(out, Assign{Column: name, Value: v.param()})
		}
	}
	return out
}

// read tokenizes query for dialect d. For Auto it reads with PostgreSQL
// rules and, if the text uses a dialect-sensitive construct, with MySQL
// rules too, and keeps the reading the text's markers point to.
func read(query string, d Dialect) (lexed, Dialect) {
	if d != Auto {
		return lex(query, rulesFor(d)), d
	}
	pg := lex(query, rulesFor(Auto))
	if !pg.sensitive {
		return pg, Auto
	}
	my := lex(query, rulesFor(MySQL))
	if pg.problem == "" && my.problem == "" && sameBoundaries(pg.toks, my.toks) {
		return pg, Auto
	}
	pgLike := pg.problem == "" && pg.pgMark
	myLike := my.problem == "" && (my.myMark || hasMySQLMarks(my.toks))
	switch {
	case pg.problem == "" && my.problem != "":
		return pg, PostgreSQL
	case my.problem == "" && pg.problem != "":
		return my, MySQL
	case pgLike && !myLike:
		return pg, PostgreSQL
	case myLike && !pgLike:
		return my, MySQL
	}
	if pg.problem == "" {
		pg.problem = "the text reads differently as PostgreSQL and as MySQL and names neither"
	}
	return pg, Auto
}

// sameBoundaries reports whether two readings split the text identically.
func sameBoundaries(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].pos != b[i].pos || a[i].end != b[i].end {
			return false
		}
	}
	return true
}

// hasMySQLMarks reports constructs only MySQL accepts that the lexer does not
// flag by itself: ON DUPLICATE KEY and ? placeholders (which PostgreSQL
// drivers do not take).
func hasMySQLMarks(toks []token) bool {
	for i := range toks {
		if toks[i].kind == tParam && toks[i].style == Question {
			return true
		}
		if toks[i].is("DUPLICATE") && i > 0 && toks[i-1].is("ON") {
			return true
		}
	}
	return false
}

// splitStatements returns the [start, end) token spans of the statements,
// split at top-level semicolons. Inside CREATE statements it keeps
// BEGIN ... END bodies (triggers, procedures) whole.
func splitStatements(toks []token) [][2]int {
	var spans [][2]int
	start, depth, block := 0, 0, 0
	for i := 0; i < len(toks); i++ {
		t := &toks[i]
		switch {
		case t.kind == tLParen:
			depth++
		case t.kind == tRParen:
			if depth > 0 {
				depth--
			}
		case t.kind == tWord && start < len(toks) && toks[start].is("CREATE"):
			block += blockDelta(toks, i)
			if block < 0 {
				block = 0
			}
		case t.kind == tSemi && depth == 0 && block == 0:
			if i > start {
				spans = append(spans, [2]int{start, i})
			}
			start = i + 1
		}
	}
	if start < len(toks) {
		spans = append(spans, [2]int{start, len(toks)})
	}
	return spans
}

// blockDelta returns how the word at i changes BEGIN ... END nesting inside
// a CREATE statement.
func blockDelta(toks []token, i int) int {
	t := &toks[i]
	switch {
	case t.is("BEGIN"), t.is("CASE"):
		if i > 0 && toks[i-1].is("END") {
			return 0 // END CASE closes, it does not open
		}
		return 1
	case t.is("END"):
		if i+1 < len(toks) && (toks[i+1].is("IF") || toks[i+1].is("LOOP") || toks[i+1].is("WHILE") || toks[i+1].is("REPEAT") || toks[i+1].is("FOR")) {
			return 0
		}
		return -1
	}
	return 0
}

// prevEnd returns the end offset of the token before index i, or 0.
func prevEnd(toks []token, i int) int {
	if i == 0 {
		return 0
	}
	return toks[i-1].end
}

// sqlcAnnotation finds a sqlc "-- name: X :cmd" comment between offsets
// from and to and returns X and :cmd.
func sqlcAnnotation(comments []token, from, to int) (name, cmd string) {
	for _, c := range comments {
		if c.pos < from || c.pos >= to {
			continue
		}
		f := strings.Fields(c.text)
		if len(f) >= 3 && f[0] == "name:" && strings.HasPrefix(f[2], ":") {
			name, cmd = f[1], f[2]
		}
	}
	return name, cmd
}

package sqlscan

import "strings"

// tokKind classifies a token.
type tokKind uint8

const (
	tWord   tokKind = iota + 1 // unquoted identifier or keyword; also @@sysvar and MySQL @uservar
	tQIdent                    // quoted identifier: "x", `x`, [x]; text holds the unquoted name
	tString                    // string literal of any form
	tNumber                    // numeric literal
	tParam                     // placeholder
	tOp                        // operator or other punctuation
	tLParen
	tRParen
	tComma
	tSemi
	tDot
)

// token is one lexical token of a query.
type token struct {
	kind     tokKind
	style    ParamStyle // for tParam
	pos, end int        // byte offsets in the query
	n        int        // for tParam: the number of $n, ?n, or the ordinal of ?
	text     string     // word as written, unquoted identifier, operator, or raw literal
}

// param returns the placeholder a tParam token stands for.
func (t *token) param() Param {
	p := Param{Style: t.style, Index: t.n, Pos: t.pos}
	switch t.style {
	case AtName, ColonName, DollarName:
		p.Name = t.text[1:]
	}
	return p
}

// is reports whether t is the keyword kw (given in upper case).
func (t *token) is(kw string) bool {
	return t.kind == tWord && len(t.text) == len(kw) && strings.EqualFold(t.text, kw)
}

// isOp reports whether t is the operator op.
func (t *token) isOp(op string) bool { return t.kind == tOp && t.text == op }

// isName reports whether t can name a column or table.
func (t *token) isName() bool { return t.kind == tWord || t.kind == tQIdent }

// rules are the lexical rules of a dialect.
type rules struct {
	backslash      bool // backslash escapes inside '..' and ".." (MySQL)
	dqString       bool // ".." is a string, not an identifier (MySQL)
	hashComment    bool // # starts a line comment (MySQL)
	dashNeedsSpace bool // -- starts a comment only before a space or control char (MySQL)
	nested         bool // block comments nest (PostgreSQL)
	dollarQuote    bool // $$..$$ and $tag$..$tag$ strings (PostgreSQL)
	bracketIdent   bool // [x] is an identifier (SQLite)
	atVar          bool // @name is a user variable, not a placeholder (MySQL)
	qmarkOp        bool // ? is an operator (PostgreSQL jsonb), not a placeholder
}

// rulesFor returns the lexical rules of d. Auto uses PostgreSQL's reading
// of comments and quotes but accepts every placeholder style.
func rulesFor(d Dialect) rules {
	switch d {
	case PostgreSQL:
		return rules{nested: true, dollarQuote: true, qmarkOp: true}
	case MySQL:
		return rules{backslash: true, dqString: true, hashComment: true, dashNeedsSpace: true, atVar: true}
	case SQLite:
		return rules{bracketIdent: true}
	}
	return rules{nested: true, dollarQuote: true}
}

// lexed is the outcome of reading a query with one set of rules.
type lexed struct {
	toks     []token
	comments []token // line comments, text without the leading marker
	problem  string  // why the text cannot be read; "" if it can
	// problemAt is the byte offset of the token whose reading failed.
	problemAt int
	// sensitive reports a construct whose token boundaries depend on the
	// dialect: a backslash in a quoted string, #, a nested or executable
	// block comment, -- not followed by a space.
	sensitive bool
	pgMark    bool // saw something only PostgreSQL accepts: $1, ::, $$, E''
	myMark    bool // saw something only MySQL accepts: `x`, @@var, ON DUPLICATE KEY
}

// lexer reads one query.
type lexer struct {
	src string
	r   rules
	out lexed
	// questions counts ? placeholders, to number them.
	questions int
	// start is the offset of the token being read.
	start int
}

// lex tokenizes src with rules r.
func lex(src string, r rules) lexed {
	lx := lexer{src: src, r: r}
	lx.out.toks = make([]token, 0, len(src)/4+4)
	lx.run()
	return lx.out
}

// run is the main scanning loop.
func (lx *lexer) run() {
	src := lx.src
	i := 0
	for i < len(src) && lx.out.problem == "" {
		c := src[i]
		lx.start = i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-' && lx.dashComment(i):
			i = lx.lineComment(i, i+2)
		case c == '#':
			lx.out.sensitive = true
			if lx.r.hashComment {
				i = lx.lineComment(i, i+1)
			} else {
				i = lx.op(i)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = lx.blockComment(i)
		case c == '\'':
			i = lx.quoted(i, i, '\'', lx.r.backslash, tString)
		case c == '"':
			if lx.r.dqString {
				i = lx.quoted(i, i, '"', lx.r.backslash, tString)
			} else {
				i = lx.quoted(i, i, '"', false, tQIdent)
			}
		case c == '`':
			lx.out.myMark = true
			i = lx.quoted(i, i, '`', false, tQIdent)
		case c == '[' && lx.r.bracketIdent:
			i = lx.bracket(i)
		case c == '$':
			i = lx.dollar(i)
		case c == '?':
			i = lx.question(i)
		case c == '@':
			i = lx.at(i)
		case c == ':':
			i = lx.colon(i)
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			i = lx.number(i)
		case isIdentStart(c):
			i = lx.word(i)
		case c == '(':
			i = lx.emit(tLParen, i, i+1)
		case c == ')':
			i = lx.emit(tRParen, i, i+1)
		case c == ',':
			i = lx.emit(tComma, i, i+1)
		case c == ';':
			i = lx.emit(tSemi, i, i+1)
		case c == '.':
			i = lx.emit(tDot, i, i+1)
		case c == holeByte:
			i = lx.hole(i)
		default:
			i = lx.op(i)
		}
	}
}

// emit appends a token spanning src[pos:end] and returns end.
func (lx *lexer) emit(k tokKind, pos, end int) int {
	lx.out.toks = append(lx.out.toks, token{kind: k, pos: pos, end: end, text: lx.src[pos:end]})
	return end
}

// fail records why the text cannot be read and stops the scan.
func (lx *lexer) fail(msg string) int {
	lx.out.problem, lx.out.problemAt = msg, lx.start
	return len(lx.src)
}

// dashComment reports whether the "--" at i starts a comment.
func (lx *lexer) dashComment(i int) bool {
	if i+2 >= len(lx.src) {
		return true
	}
	c := lx.src[i+2]
	if c <= ' ' {
		return true
	}
	lx.out.sensitive = true
	return !lx.r.dashNeedsSpace
}

// lineComment skips a line comment starting at pos whose text starts at
// body, and returns the offset after it.
func (lx *lexer) lineComment(pos, body int) int {
	end := strings.IndexByte(lx.src[body:], '\n')
	if end < 0 {
		end = len(lx.src)
	} else {
		end += body
	}
	lx.out.comments = append(lx.out.comments, token{pos: pos, end: end, text: lx.src[body:end]})
	return end
}

// blockComment skips a /* */ comment starting at i.
func (lx *lexer) blockComment(i int) int {
	src := lx.src
	if i+2 < len(src) && src[i+2] == '!' {
		lx.out.sensitive = true
		if lx.r.hashComment {
			return lx.fail("MySQL executable comment /*! ... */")
		}
	}
	depth := 1
	j := i + 2
	for j < len(src) {
		switch {
		case src[j] == '*' && j+1 < len(src) && src[j+1] == '/':
			depth--
			j += 2
			if depth == 0 || !lx.r.nested {
				return j
			}
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '*':
			lx.out.sensitive = true
			if lx.r.nested {
				depth++
			}
			j += 2
		default:
			j++
		}
	}
	return lx.fail("unterminated /* comment")
}

// quoted reads a literal or identifier starting at pos whose opening quote q
// is at open. A doubled quote stands for itself; with backslash, \x stands
// for x. It returns the offset after the closing quote.
func (lx *lexer) quoted(pos, open int, q byte, backslash bool, k tokKind) int {
	src := lx.src
	j := open + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\':
			if q != '`' {
				lx.out.sensitive = true
			}
			if backslash {
				j += 2
				continue
			}
			j++
		case c == q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			t := token{kind: k, pos: pos, end: j + 1, text: src[pos : j+1]}
			if k == tQIdent {
				if n, ok := holeNumber(src[open+1 : j]); ok { // `<hole>`: a name given at run time
					return lx.param(pos, j+1, Hole, n)
				}
				t.text = unquoteIdent(src[open+1:j], q)
			}
			lx.out.toks = append(lx.out.toks, t)
			return j + 1
		default:
			j++
		}
	}
	return lx.fail("unterminated " + string(q) + "-quoted text")
}

// unquoteIdent undoubles the quote characters of a quoted identifier.
func unquoteIdent(s string, q byte) string {
	d := string([]byte{q, q})
	if !strings.Contains(s, d) {
		return s
	}
	return strings.ReplaceAll(s, d, d[:1])
}

// bracket reads a SQLite [identifier].
func (lx *lexer) bracket(i int) int {
	end := strings.IndexByte(lx.src[i+1:], ']')
	if end < 0 {
		return lx.fail("unterminated [identifier]")
	}
	end += i + 1
	lx.out.toks = append(lx.out.toks, token{kind: tQIdent, pos: i, end: end + 1, text: lx.src[i+1 : end]})
	return end + 1
}

// dollar reads $n, a dollar-quoted string, or a SQLite $name.
func (lx *lexer) dollar(i int) int {
	src := lx.src
	j := i + 1
	if j < len(src) && isDigit(src[j]) {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		lx.out.pgMark = true
		return lx.param(i, j, Dollar, atoi(src[i+1:j]))
	}
	for j < len(src) && isIdentPart(src[j]) && src[j] != '$' {
		j++
	}
	if lx.r.dollarQuote && j < len(src) && src[j] == '$' && (j == i+1 || !isDigit(src[i+1])) {
		return lx.dollarString(i, j+1)
	}
	if j > i+1 {
		return lx.param(i, j, DollarName, 0)
	}
	return lx.op(i)
}

// dollarString reads a $tag$...$tag$ string whose opening delimiter ends at body.
func (lx *lexer) dollarString(i, body int) int {
	delim := lx.src[i:body]
	end := strings.Index(lx.src[body:], delim)
	if end < 0 {
		return lx.fail("unterminated " + delim + " string")
	}
	end += body + len(delim)
	lx.out.pgMark = true
	lx.out.toks = append(lx.out.toks, token{kind: tString, pos: i, end: end, text: lx.src[i:end]})
	return end
}

// question reads ?, ?NNN, or a PostgreSQL jsonb operator.
func (lx *lexer) question(i int) int {
	src := lx.src
	j := i + 1
	if lx.r.qmarkOp || (j < len(src) && (src[j] == '|' || src[j] == '&')) {
		return lx.op(i)
	}
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	if j > i+1 {
		return lx.param(i, j, QuestionNum, atoi(src[i+1:j]))
	}
	lx.questions++
	return lx.param(i, j, Question, lx.questions)
}

// at reads @name, @@sysvar, or the @ operator.
func (lx *lexer) at(i int) int {
	src := lx.src
	if i+1 < len(src) && src[i+1] == '@' {
		j := i + 2
		for j < len(src) && (isIdentPart(src[j]) || src[j] == '.') {
			j++
		}
		lx.out.myMark = true
		return lx.emit(tWord, i, j)
	}
	j := i + 1
	for j < len(src) && isIdentPart(src[j]) {
		j++
	}
	if j == i+1 {
		return lx.op(i)
	}
	if lx.r.atVar {
		return lx.emit(tWord, i, j)
	}
	return lx.param(i, j, AtName, 0)
}

// colon reads ::, :=, :name or a lone colon.
func (lx *lexer) colon(i int) int {
	src := lx.src
	if i+1 < len(src) && src[i+1] == ':' {
		lx.out.pgMark = true
		return lx.emit(tOp, i, i+2)
	}
	if i+1 < len(src) && src[i+1] == '=' {
		return lx.emit(tOp, i, i+2)
	}
	j := i + 1
	if j < len(src) && isIdentStart(src[j]) {
		for j < len(src) && isIdentPart(src[j]) {
			j++
		}
		return lx.param(i, j, ColonName, 0)
	}
	return lx.emit(tOp, i, i+1)
}

// param appends a placeholder token.
func (lx *lexer) param(i, j int, style ParamStyle, n int) int {
	lx.out.toks = append(lx.out.toks, token{kind: tParam, style: style, pos: i, end: j, n: n, text: lx.src[i:j]})
	return j
}

// number reads a numeric literal (decimal, exponent, 0x hex).
func (lx *lexer) number(i int) int {
	src := lx.src
	j := i
	if src[j] == '0' && j+1 < len(src) && (src[j+1] == 'x' || src[j+1] == 'X') {
		j += 2
		for j < len(src) && isHex(src[j]) {
			j++
		}
		return lx.emit(tNumber, i, j)
	}
	for j < len(src) && (isDigit(src[j]) || src[j] == '_') {
		j++
	}
	if j < len(src) && src[j] == '.' && !(j+1 < len(src) && src[j+1] == '.') {
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			j = k
			for j < len(src) && isDigit(src[j]) {
				j++
			}
		}
	}
	return lx.emit(tNumber, i, j)
}

// word reads an identifier or keyword, or a prefixed string (E'..', N'..',
// X'..', B'..').
func (lx *lexer) word(i int) int {
	src := lx.src
	j := i + 1
	for j < len(src) && isIdentPart(src[j]) {
		j++
	}
	if j == i+1 && j < len(src) && src[j] == '\'' {
		switch src[i] {
		case 'E', 'e':
			lx.out.pgMark = true
			return lx.quoted(i, j, '\'', true, tString)
		case 'N', 'n', 'X', 'x', 'B', 'b':
			return lx.quoted(i, j, '\'', lx.r.backslash, tString)
		}
	}
	return lx.emit(tWord, i, j)
}

// op reads an operator: the longest of the multi-character operators that
// matter here, else one byte.
func (lx *lexer) op(i int) int {
	rest := lx.src[i:]
	for _, m := range [...]string{"<=>", "->>", "<=", ">=", "<>", "!=", "==", "||", "->", "=>", "<<", ">>"} {
		if strings.HasPrefix(rest, m) {
			return lx.emit(tOp, i, i+len(m))
		}
	}
	return lx.emit(tOp, i, i+1)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

func isIdentStart(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '_' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// atoi parses a run of ASCII digits, saturating instead of overflowing.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if n > 1<<30 {
			return 1 << 30
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

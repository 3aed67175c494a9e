package luascan

import (
	"strconv"
	"strings"
)

// tokKind classifies a Lua token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tName           // identifier or keyword
	tString         // string literal; text holds the decoded value
	tNumber         // numeric literal as written
	tOp             // operator or punctuation
)

// token is one Lua token.
type token struct {
	kind tokKind
	pos  int
	text string
}

// lexer turns Lua source into tokens on demand.
type lexer struct {
	src     string
	i       int
	problem string
}

// fail records the first lexical error and ends the token stream.
func (lx *lexer) fail(pos int, msg string) token {
	if lx.problem == "" {
		lx.problem = msg + " at offset " + strconv.Itoa(pos)
	}
	lx.i = len(lx.src)
	return token{kind: tEOF, pos: len(lx.src)}
}

// next returns the next token, skipping white space and comments.
func (lx *lexer) next() token {
	for {
		lx.space()
		if lx.i >= len(lx.src) || lx.problem != "" {
			return token{kind: tEOF, pos: len(lx.src)}
		}
		if !strings.HasPrefix(lx.src[lx.i:], "--") {
			break
		}
		if !lx.comment() {
			return token{kind: tEOF, pos: len(lx.src)}
		}
	}
	start := lx.i
	c := lx.src[start]
	switch {
	case isLetter(c):
		j := start + 1
		for j < len(lx.src) && (isLetter(lx.src[j]) || isDigit(lx.src[j])) {
			j++
		}
		lx.i = j
		return token{kind: tName, pos: start, text: lx.src[start:j]}
	case isDigit(c) || (c == '.' && start+1 < len(lx.src) && isDigit(lx.src[start+1])):
		return lx.number()
	case c == '"' || c == '\'':
		return lx.shortString(c)
	case c == '[':
		if level, ok := lx.longOpen(); ok {
			s, ok := lx.longBody(level)
			if !ok {
				return lx.fail(start, "unterminated long string")
			}
			return token{kind: tString, pos: start, text: s}
		}
	}
	return lx.op()
}

// space skips white space.
func (lx *lexer) space() {
	for lx.i < len(lx.src) {
		switch lx.src[lx.i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			lx.i++
		default:
			return
		}
	}
}

// comment skips a "--" comment, short or long. It reports false after a
// lexical error.
func (lx *lexer) comment() bool {
	start := lx.i
	lx.i += 2
	if lx.i < len(lx.src) && lx.src[lx.i] == '[' {
		if level, ok := lx.longOpen(); ok {
			if _, ok := lx.longBody(level); !ok {
				lx.fail(start, "unterminated long comment")
				return false
			}
			return true
		}
	}
	if nl := strings.IndexByte(lx.src[lx.i:], '\n'); nl >= 0 {
		lx.i += nl + 1
	} else {
		lx.i = len(lx.src)
	}
	return true
}

// longOpen reads "[" "="* "[" at lx.i and returns the level (number of =).
// If the text is not a long bracket it consumes nothing.
func (lx *lexer) longOpen() (int, bool) {
	j := lx.i + 1
	for j < len(lx.src) && lx.src[j] == '=' {
		j++
	}
	if j < len(lx.src) && lx.src[j] == '[' {
		level := j - lx.i - 1
		lx.i = j + 1
		return level, true
	}
	return 0, false
}

// longBody reads up to the closing "]" "="*level "]" and returns the text,
// without a first newline (as Lua does).
func (lx *lexer) longBody(level int) (string, bool) {
	closer := "]" + strings.Repeat("=", level) + "]"
	end := strings.Index(lx.src[lx.i:], closer)
	if end < 0 {
		return "", false
	}
	s := lx.src[lx.i : lx.i+end]
	lx.i += end + len(closer)
	if strings.HasPrefix(s, "\r\n") {
		s = s[2:]
	} else if strings.HasPrefix(s, "\n") {
		s = s[1:]
	}
	return s, true
}

// shortString reads a '...' or "..." string and decodes its escapes.
func (lx *lexer) shortString(q byte) token {
	start := lx.i
	var b strings.Builder
	j := start + 1
	for j < len(lx.src) {
		c := lx.src[j]
		switch {
		case c == q:
			lx.i = j + 1
			return token{kind: tString, pos: start, text: b.String()}
		case c == '\n':
			return lx.fail(start, "unfinished string")
		case c == '\\':
			n, ok := escape(lx.src, j, &b)
			if !ok {
				return lx.fail(j, "invalid escape in string")
			}
			j = n
		default:
			b.WriteByte(c)
			j++
		}
	}
	return lx.fail(start, "unfinished string")
}

// escape decodes the escape sequence at src[i] == '\\' into b and returns
// the offset after it.
func escape(src string, i int, b *strings.Builder) (int, bool) {
	if i+1 >= len(src) {
		return 0, false
	}
	c := src[i+1]
	switch c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v':
		b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
		return i + 2, true
	case '\\', '"', '\'', '\n':
		b.WriteByte(c)
		return i + 2, true
	case 'z':
		j := i + 2
		for j < len(src) && strings.IndexByte(" \t\n\r\f\v", src[j]) >= 0 {
			j++
		}
		return j, true
	case 'x':
		if i+3 < len(src) && isHex(src[i+2]) && isHex(src[i+3]) {
			v, _ := strconv.ParseUint(src[i+2:i+4], 16, 8)
			b.WriteByte(byte(v))
			return i + 4, true
		}
		return 0, false
	case 'u':
		end := strings.IndexByte(src[i:], '}')
		if i+2 >= len(src) || src[i+2] != '{' || end < 0 {
			return 0, false
		}
		v, err := strconv.ParseUint(src[i+3:i+end], 16, 31)
		if err != nil {
			return 0, false
		}
		b.WriteRune(rune(v))
		return i + end + 1, true
	}
	if isDigit(c) {
		j := i + 1
		for j < len(src) && j < i+4 && isDigit(src[j]) {
			j++
		}
		v, _ := strconv.Atoi(src[i+1 : j])
		if v > 255 {
			return 0, false
		}
		b.WriteByte(byte(v))
		return j, true
	}
	return 0, false
}

// number reads a decimal or hexadecimal numeral.
func (lx *lexer) number() token {
	start := lx.i
	j := start
	expo := "eE"
	if strings.HasPrefix(lx.src[j:], "0x") || strings.HasPrefix(lx.src[j:], "0X") {
		j += 2
		expo = "pP"
	}
	for j < len(lx.src) {
		c := lx.src[j]
		switch {
		case strings.IndexByte(expo, c) >= 0:
			j++
			if j < len(lx.src) && (lx.src[j] == '+' || lx.src[j] == '-') {
				j++
			}
		case isHex(c) || c == '.':
			j++
		default:
			lx.i = j
			return token{kind: tNumber, pos: start, text: lx.src[start:j]}
		}
	}
	lx.i = j
	return token{kind: tNumber, pos: start, text: lx.src[start:j]}
}

// op reads an operator or punctuation mark, longest first.
func (lx *lexer) op() token {
	rest := lx.src[lx.i:]
	n := 1
	if len(rest) >= 2 {
		switch rest[:2] {
		case "..":
			n = 2
			if len(rest) >= 3 && rest[2] == '.' {
				n = 3
			}
		case "==", "~=", "<=", ">=", "//", "::", "<<", ">>":
			n = 2
		}
	}
	if n == 1 && strings.IndexByte("+-*/%^#&~|<>=(){}[];:,.", rest[0]) < 0 {
		return lx.fail(lx.i, "unexpected character "+strconv.QuoteRune(rune(rest[0])))
	}
	lx.i += n
	return token{kind: tOp, pos: lx.i - n, text: rest[:n]}
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '_' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

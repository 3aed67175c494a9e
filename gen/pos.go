package gen

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a user's schema file. Line and Col are 1-based; Col
// counts characters (runes), as editors do.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// sourceFile indexes the line starts of a Source, so that converting the
// many offsets a parser reports costs a binary search each, not a scan.
type sourceFile struct {
	Source
	text       string // Data as a string, converted once
	lineStarts []int  // byte offset of each line's first byte
}

func newSourceFile(src Source) *sourceFile {
	f := &sourceFile{Source: src, text: string(src.Data), lineStarts: []int{0}}
	for i, b := range src.Data {
		if b == '\n' {
			f.lineStarts = append(f.lineStarts, i+1)
		}
	}
	return f
}

// pos converts a byte offset to a Pos.
func (f *sourceFile) pos(offset int) Pos {
	offset = max(0, min(offset, len(f.Data)))
	line := sort.SearchInts(f.lineStarts, offset+1) // lines starting at or before offset
	start := f.lineStarts[line-1]
	return Pos{File: f.Path, Line: line, Col: 1 + utf8.RuneCount(f.Data[start:offset])}
}

// posAt converts one byte offset in src to a Pos.
func posAt(file string, src []byte, offset int) Pos {
	return newSourceFile(Source{Path: file, Data: src}).pos(offset)
}

// runeOffsetToByte converts a 0-based character offset (as PostgreSQL reports
// cursor positions) to a byte offset.
func runeOffsetToByte(src []byte, runes int) int {
	off := 0
	for i := 0; i < runes && off < len(src); i++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// Diagnostic is one problem in the user's input.
type Diagnostic struct {
	Pos     Pos
	Message string
	// Table is the qualified name of the table a warning is about, so that
	// sqlc's plugin can accept it by name ("" for an error).
	Table string

	// unkeyed marks the warning about a table skipped for want of a key:
	// when no table is left to fence, these become the error.
	unkeyed bool
}

func (d Diagnostic) String() string { return d.Pos.String() + ": " + d.Message }

// Error is the error Generate returns for bad input: one or more diagnostics,
// each printed as "path:line:col: message".
type Error struct {
	Diagnostics []Diagnostic
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// errorf builds an *Error with one diagnostic.
func errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Diagnostics: []Diagnostic{{Pos: pos, Message: fmt.Sprintf(format, args...)}}}
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

// skipSQLComments drops leading whitespace and comments, so an error in the
// next statement points at its first token.
func skipSQLComments(s string) string {
	for {
		s = strings.TrimLeftFunc(s, isSpace)
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s[2:], "*/")
			if i < 0 {
				return ""
			}
			s = s[i+4:]
		default:
			return s
		}
	}
}

// maskComments blanks out the comments and string literals of SQL text
// (keeping every offset and newline), so a search for a name finds it only
// where it is code.
func maskComments(s string) string {
	b := []byte(s)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '#' || b[i] == '-' && i+1 < len(b) && b[i+1] == '-':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			blank(i, i+end)
			i += end
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			blank(i, i+end+4)
			i += end + 3
		case b[i] == '`' || b[i] == '"':
			// A quoted identifier is code: skip it unmasked.
			if end := strings.IndexByte(s[i+1:], b[i]); end >= 0 {
				i += end + 1
			}
		case b[i] == '\'':
			end := i + 1
			for end < len(b) && b[end] != '\'' {
				if b[end] == '\\' {
					end++
				}
				end++
			}
			blank(i, end+1)
			i = end
		}
	}
	return string(b)
}

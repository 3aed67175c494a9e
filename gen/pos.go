package gen

import (
	"fmt"
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

// posAt converts a byte offset in src to a Pos.
func posAt(file string, src []byte, offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(src) {
		offset = len(src)
	}
	before := src[:offset]
	line := 1 + strings.Count(string(before), "\n")
	lineStart := strings.LastIndexByte(string(before), '\n') + 1
	return Pos{File: file, Line: line, Col: 1 + utf8.RuneCount(before[lineStart:])}
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

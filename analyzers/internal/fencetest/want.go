package fencetest

import (
	"fmt"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A Want is one item of a `// want` comment: a pattern that the message of
// a diagnostic on the comment's line must match. Fixtures write bare
// "REGEXP" items, as analysistest does; the conformance suite, which runs
// every analyzer at once, writes ANALYZER:"REGEXP" to say which one must
// report it.
type Want struct {
	Pos      token.Position
	Analyzer string // "" for a bare "REGEXP"
	Re       *regexp.Regexp
}

// WantText returns what follows "want" in a `// want ...` or
// `/* want ... */` comment, and whether c is one.
func WantText(comment string) (string, bool) {
	if rest, ok := strings.CutPrefix(comment, "// want "); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(comment, "/* want "); ok {
		return strings.TrimSuffix(rest, "*/"), true
	}
	return "", false
}

// ParseWant parses the items of a want comment's text (WantText), each
// "REGEXP" or ANALYZER:"REGEXP" with the pattern a Go string literal, to
// the end of the line; pos is the comment's position.
func ParseWant(pos token.Position, text string) ([]Want, error) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(text)
	var firstErr error
	s.Init(fset.AddFile("want", -1, len(src)), src, func(_ token.Position, msg string) {
		if firstErr == nil {
			firstErr = fmt.Errorf("%s", msg)
		}
	}, 0)
	var out []Want
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF || (tok == token.SEMICOLON && lit == "\n") {
			break
		}
		var name string
		if tok == token.IDENT {
			name = lit
			if _, tok, _ = s.Scan(); tok != token.COLON {
				return nil, fmt.Errorf("want ':' after %s", name)
			}
			if _, tok, lit = s.Scan(); tok != token.STRING {
				return nil, fmt.Errorf("want a string literal after %s:", name)
			}
		} else if tok != token.STRING {
			return nil, fmt.Errorf("want \"REGEXP\" or ANALYZER:\"REGEXP\", found %s %q", tok, lit)
		}
		if firstErr != nil { // an unterminated literal, say
			return nil, firstErr
		}
		pattern, err := strconv.Unquote(lit)
		if err != nil {
			return nil, err
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		out = append(out, Want{Pos: pos, Analyzer: name, Re: re})
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no \"REGEXP\" or ANALYZER:\"REGEXP\" items")
	}
	return out, nil
}

// Wants holds the expectations of a set of packages, by file and line, and
// which of them a diagnostic has matched.
type Wants struct {
	byLine map[lineKey][]*wantState
	all    []*wantState
}

type wantState struct {
	Want
	matched bool
}

type lineKey struct {
	file string
	line int
}

// ReadWants reads the want comments of pkgs' files. A malformed comment is
// passed to bad and skipped.
func ReadWants(pkgs []*packages.Package, bad func(token.Position, error)) *Wants {
	ws := &Wants{byLine: make(map[lineKey][]*wantState)}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					text, ok := WantText(c.Text)
					if !ok {
						continue
					}
					pos := p.Fset.Position(c.Pos())
					items, err := ParseWant(pos, text)
					if err != nil {
						bad(pos, err)
						continue
					}
					for _, w := range items {
						ws.add(w)
					}
				}
			}
		}
	}
	return ws
}

func (ws *Wants) add(w Want) {
	s := &wantState{Want: w}
	k := lineKey{w.Pos.Filename, w.Pos.Line}
	ws.byLine[k] = append(ws.byLine[k], s)
	ws.all = append(ws.all, s)
}

// All returns every expectation, in the order read.
func (ws *Wants) All() []Want {
	out := make([]Want, len(ws.all))
	for i, s := range ws.all {
		out[i] = s.Want
	}
	return out
}

// Match consumes the first unmatched expectation for analyzer ("" for bare
// items) on pos's line whose pattern matches message, and reports whether
// there was one.
func (ws *Wants) Match(pos token.Position, analyzer, message string) bool {
	for _, s := range ws.byLine[lineKey{pos.Filename, pos.Line}] {
		if !s.matched && s.Analyzer == analyzer && s.Re.MatchString(message) {
			s.matched = true
			return true
		}
	}
	return false
}

// Unmatched returns the expectations no diagnostic has matched, in the
// order read.
func (ws *Wants) Unmatched() []Want {
	var out []Want
	for _, s := range ws.all {
		if !s.matched {
			out = append(out, s.Want)
		}
	}
	return out
}

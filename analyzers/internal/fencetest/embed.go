package fencetest

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// RunWithEmbeds is Run for fixtures whose packages embed files the
// analyzers read (//go:embed SQL migrations and queries): it loads the
// packages as fencelint's standalone driver does (LoadWithEmbeds) and
// checks a's findings with Check.
func RunWithEmbeds(t *testing.T, a *analysis.Analyzer, patterns ...string) {
	t.Helper()
	Check(t, a, LoadWithEmbeds(t, patterns...))
}

// LoadWithEmbeds loads the fixture packages matched by patterns with their
// dependencies from a fresh GOPATH tree, listing each package's embedded
// files among its OtherFiles (analysistest lists none).
func LoadWithEmbeds(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	root := Tree(t)
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedEmbedFiles,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatalf("fencetest: loading %v: %v", patterns, err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("fencetest: %d errors loading %v", n, patterns)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.EmbedFiles {
			if !slices.Contains(p.OtherFiles, f) {
				p.OtherFiles = append(p.OtherFiles, f)
			}
		}
	})
	return pkgs
}

// Check runs a on pkgs and compares its findings on them with their
// `// want "regexp"` comments, as analysistest does; an analyzer that
// fails fails the test.
func Check(t *testing.T, a *analysis.Analyzer, pkgs []*packages.Package) {
	t.Helper()
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatalf("fencetest: %v", err)
	}
	got := make(map[lineKey][]string)
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("fencetest: %s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		if act.Analyzer != a || !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			k := lineKey{p.Filename, p.Line}
			got[k] = append(got[k], d.Message)
		}
	}
	want := make(map[lineKey][]*regexp.Regexp)
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					res, err := wantPatterns(c.Text)
					if err != nil {
						t.Errorf("%s: %v", p.Fset.Position(c.Pos()), err)
					}
					if len(res) > 0 {
						pos := p.Fset.Position(c.Pos())
						k := lineKey{pos.Filename, pos.Line}
						want[k] = append(want[k], res...)
					}
				}
			}
		}
	}
	for k, msgs := range got {
		for _, msg := range msgs {
			i := slices.IndexFunc(want[k], func(re *regexp.Regexp) bool { return re.MatchString(msg) })
			if i < 0 {
				t.Errorf("%s:%d: unexpected diagnostic: %s", k.file, k.line, msg)
				continue
			}
			want[k] = slices.Delete(want[k], i, i+1)
		}
	}
	for k, res := range want {
		for _, re := range res {
			t.Errorf("%s:%d: no diagnostic was reported matching %#q", k.file, k.line, re)
		}
	}
}

type lineKey struct {
	file string
	line int
}

// wantPatterns reads the expectations of a `// want "re" ...` comment.
func wantPatterns(comment string) ([]*regexp.Regexp, error) {
	text, ok := strings.CutPrefix(comment, "//")
	if !ok {
		return nil, nil
	}
	text, ok = strings.CutPrefix(strings.TrimSpace(text), "want ")
	if !ok {
		return nil, nil
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("want", -1, len(text)), []byte(text), nil, 0)
	var out []*regexp.Regexp
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF, token.SEMICOLON:
			return out, nil
		case token.STRING:
			pattern, err := strconv.Unquote(lit)
			if err != nil {
				return nil, err
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, err
			}
			out = append(out, re)
		default:
			return nil, fmt.Errorf("want: expected a string literal, got %s", tok)
		}
	}
}

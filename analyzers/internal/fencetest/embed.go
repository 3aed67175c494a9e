package fencetest

import (
	"go/token"
	"slices"
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
// dependencies from a fresh GOPATH tree (Load), listing each package's
// embedded files among its OtherFiles (analysistest lists none).
func LoadWithEmbeds(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	pkgs := Load(t, Tree(t), false, patterns...)
	packages.Visit(pkgs, nil, func(p *packages.Package) { ListEmbedFiles(p) })
	return pkgs
}

// ListEmbedFiles adds p's //go:embed files to its OtherFiles, the files an
// analyzer may read through Pass.ReadFile, as fencelint's standalone driver
// does: the analyzers read SQL kept in embedded files.
func ListEmbedFiles(p *packages.Package) {
	for _, f := range p.EmbedFiles {
		if !slices.Contains(p.OtherFiles, f) {
			p.OtherFiles = append(p.OtherFiles, f)
		}
	}
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
	wants := ReadWants(pkgs, func(pos token.Position, err error) { t.Errorf("%s: %v", pos, err) })
	for _, w := range wants.All() {
		if w.Analyzer != "" {
			t.Errorf("%s: want names the analyzer %s; a fixture's items are bare \"REGEXP\"s", w.Pos, w.Analyzer)
		}
	}
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("fencetest: %s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		if act.Analyzer != a || !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			if !wants.Match(p, "", d.Message) {
				t.Errorf("%s:%d: unexpected diagnostic: %s", p.Filename, p.Line, d.Message)
			}
		}
	}
	for _, w := range wants.Unmatched() {
		t.Errorf("%s:%d: no diagnostic was reported matching %#q", w.Pos.Filename, w.Pos.Line, w.Re)
	}
}

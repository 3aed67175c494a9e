// Package programtest runs an analyzer on analysistest fixtures as a
// standalone fencelint run does: over a whole program, with the
// implementations of every interface known (analyzers.AnalyzeProgram).
package programtest

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/lease"
)

// Run summarizes the program made of the packages patterns match (a first
// pass over them and their dependencies, as a standalone run does), then
// runs a on those packages with that summary and checks the diagnostics
// against the fixtures' // want comments.
func Run(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	root := fencetest.Tree(t)
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   root,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatalf("programtest: loading %v: %v", patterns, err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("programtest: %d errors loading %v", n, patterns)
	}
	prog, err := analyzers.SummarizeProgram(pkgs, nil)
	if err != nil {
		t.Fatalf("programtest: %v", err)
	}
	if prog.Empty() {
		t.Fatalf("programtest: the program %v has no method with lease facts: the fixture tests nothing whole-program", patterns)
	}
	return analysistest.Run(t, root, lease.WithProgram([]*analysis.Analyzer{a}, prog)[0], patterns...)
}

// RunWithEmbeds is Run for fixtures whose packages embed files (SQL
// migrations): they are loaded with their embedded files listed, as the
// standalone driver loads them (fencetest.LoadWithEmbeds).
func RunWithEmbeds(t *testing.T, a *analysis.Analyzer, patterns ...string) {
	t.Helper()
	pkgs := fencetest.LoadWithEmbeds(t, patterns...)
	prog, err := analyzers.SummarizeProgram(pkgs, nil)
	if err != nil {
		t.Fatalf("programtest: %v", err)
	}
	if prog.Empty() {
		t.Fatalf("programtest: the program %v has nothing whole-program: the fixture tests nothing", patterns)
	}
	fencetest.Check(t, lease.WithProgram([]*analysis.Analyzer{a}, prog)[0], pkgs)
}

// Package programtest runs an analyzer on analysistest fixtures as a
// standalone fencelint run does: over a whole program, with the
// implementations of every interface known (analyzers.AnalyzeProgram).
package programtest

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

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
	// Tests, as analysistest loads them, so that the summary covers the
	// packages analysistest.Run analyzes.
	pkgs := fencetest.Load(t, root, true, patterns...)
	prog, _, err := analyzers.SummarizeProgram(pkgs, nil, nil)
	if err != nil {
		t.Fatalf("programtest: %v", err)
	}
	if prog.Empty() && !prog.NodeLocalSQL() {
		t.Fatalf("programtest: the program %v has no method with lease facts: the fixture tests nothing whole-program", patterns)
	}
	return analysistest.Run(t, root, lease.WithProgram([]*analysis.Analyzer{a}, prog.ForRoots(analyzers.Paths(pkgs)))[0], patterns...)
}

// RunWithEmbeds is Run for fixtures whose packages embed files (SQL
// migrations): they are loaded with their embedded files listed, as the
// standalone driver loads them (fencetest.LoadWithEmbeds).
func RunWithEmbeds(t *testing.T, a *analysis.Analyzer, patterns ...string) {
	t.Helper()
	pkgs := fencetest.LoadWithEmbeds(t, patterns...)
	prog, _, err := analyzers.SummarizeProgram(pkgs, nil, nil)
	if err != nil {
		t.Fatalf("programtest: %v", err)
	}
	if prog.Empty() {
		t.Fatalf("programtest: the program %v has nothing whole-program: the fixture tests nothing", patterns)
	}
	fencetest.Check(t, lease.WithProgram([]*analysis.Analyzer{a}, prog.ForRoots(analyzers.Paths(pkgs)))[0], pkgs)
}

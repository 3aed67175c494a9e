package fencedirective

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer reports malformed, misplaced and unused fencelint directives.
var Analyzer = &analysis.Analyzer{
	Name:     "fencedirective",
	Doc:      analysisdoc.Extract(doc, "fencedirective"),
	URL:      "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/fencedirective",
	Run:      run,
	Requires: []*analysis.Analyzer{lease.Analyzer},
}

func run(pass *analysis.Pass) (any, error) {
	m := lease.ModelOf(pass)
	for _, p := range m.Problems {
		pass.Report(analysis.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message})
	}
	return nil, nil
}

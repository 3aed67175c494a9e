package heldcheck

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer is the heldcheck check. TODO.
var Analyzer = &analysis.Analyzer{
	Name:     "heldcheck",
	Doc:      analysisdoc.Extract(doc, "heldcheck"),
	URL:      "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/heldcheck",
	Run:      run,
	Requires: []*analysis.Analyzer{lease.Analyzer},
}

func run(pass *analysis.Pass) (any, error) {
	_ = pass.ResultOf[lease.Analyzer].(*lease.Model)
	return nil, nil
}

// Package analyzers lists fencelint's checks, for drivers that run them all
// (cmd/fencelint, tests, golangci-lint plugins). Each check is its own
// package exporting Analyzer, so Bazel's nogo can pick them one by one.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/detachedrenewal"
	"github.com/fencelint/fencelint/analyzers/fencedirective"
	"github.com/fencelint/fencelint/analyzers/heldcheck"
	"github.com/fencelint/fencelint/analyzers/unfencedwrite"
	"github.com/fencelint/fencelint/analyzers/weaktoken"
)

// All returns fencelint's checks, in the order their documentation lists them.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		unfencedwrite.Analyzer,
		heldcheck.Analyzer,
		detachedrenewal.Analyzer,
		weaktoken.Analyzer,
		fencedirective.Analyzer,
	}
}

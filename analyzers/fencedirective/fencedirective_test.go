package fencedirective_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/fencedirective"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

func Test(t *testing.T) {
	fencetest.Run(t, fencedirective.Analyzer, "directives")
}

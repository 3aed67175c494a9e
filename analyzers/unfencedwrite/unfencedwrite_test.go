package unfencedwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencelint/fencelint/analyzers/unfencedwrite"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unfencedwrite.Analyzer, "sqladvisory")
}

package detachedrenewal_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/detachedrenewal"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

func Test(t *testing.T) {
	fencetest.Run(t, detachedrenewal.Analyzer,
		"redsyncrenew/...", "redislockrenew", "etcdrenew", "consulrenew", "renewdirective/...", "repeated", "sessionfield/...", "stopsonloss", "leaderexit/...", "helperrenew/...")
}

func TestSuggestedFixes(t *testing.T) {
	fencetest.RunWithSuggestedFixes(t, detachedrenewal.Analyzer, "leaderctx")
}

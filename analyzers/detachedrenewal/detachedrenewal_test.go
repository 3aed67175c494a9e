package detachedrenewal_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/detachedrenewal"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/internal/programtest"
)

func Test(t *testing.T) {
	fencetest.Run(t, detachedrenewal.Analyzer,
		"redsyncrenew/...", "redislockrenew", "etcdrenew", "consulrenew", "renewdirective/...", "repeated", "sessionfield/...", "stopsonloss", "leaderexit/...", "helperrenew/...", "sqlreacquire/...", "etcdliveness", "rueidisrenew", "etcdclaimrenew")
}

func TestSuggestedFixes(t *testing.T) {
	fencetest.RunWithSuggestedFixes(t, detachedrenewal.Analyzer, "leaderctx")
}

// TestProgram runs the check as a standalone run does, with every
// implementation of the application's interfaces known: a renewal made
// through an interface whose implementation the renewing package does not
// import.
func TestProgram(t *testing.T) {
	programtest.Run(t, detachedrenewal.Analyzer, "beatprog/...")
}

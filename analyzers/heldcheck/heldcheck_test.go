package heldcheck_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/heldcheck"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/internal/programtest"
)

func Test(t *testing.T) {
	fencetest.Run(t, heldcheck.Analyzer, "leaderelect", "redsynccheck", "redislockcheck", "raftcheck", "etcdcheck", "consulcheck", "zkcheck", "gocroncheck", "redischeck", "deadline", "declared", "shapes", "objectstores", "checkvalue/...", "cachedleader", "middleware", "leaseflags", "noticechan/...", "caridlockcheck")
}

// TestProgram runs the check as a standalone run does, with every
// implementation of the application's interfaces known.
func TestProgram(t *testing.T) {
	programtest.Run(t, heldcheck.Analyzer, "ifacecheck/...", "leaderprobe/...", "flaggetter/...", "flagsetter/...")
}

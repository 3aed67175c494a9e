package heldcheck_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/heldcheck"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

func Test(t *testing.T) {
	fencetest.Run(t, heldcheck.Analyzer, "leaderelect", "redsynccheck", "redislockcheck", "raftcheck", "etcdcheck", "consulcheck", "zkcheck", "gocroncheck", "redischeck", "deadline", "declared", "shapes", "objectstores")
}

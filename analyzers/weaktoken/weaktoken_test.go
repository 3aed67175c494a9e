package weaktoken_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
	"github.com/fencelint/fencelint/analyzers/weaktoken"
)

func Test(t *testing.T) {
	fencetest.Run(t, weaktoken.Analyzer,
		"redistoken", "etcdtoken/...", "consultoken", "zktoken", "k8stoken", "sqltoken",
		"drawtoken", "rafttoken", "consuldelete", "fieldtoken", "fencegen/...")
}

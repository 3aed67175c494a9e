package detachedrenewal_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzers/detachedrenewal"
	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

func Test(t *testing.T) {
	fencetest.Run(t, detachedrenewal.Analyzer,
		"redsyncrenew")
}

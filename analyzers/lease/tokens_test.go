package lease

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

// tokenProbe reports, at every call of a function named probe in the
// fixtures, the origin the token flow gives its argument ("kind what"), and
// "draws a token" at each write fenced as a draw from a counter.
// It builds the model itself so that it can export token facts and check
// them against the fixtures' fact expectations.
var tokenProbe = &analysis.Analyzer{
	Name:      "tokenprobe",
	Doc:       "report the token origin of every argument passed to probe",
	FactTypes: factTypes(),
	Run: func(pass *analysis.Pass) (any, error) {
		m, b := buildWithBuilder(pass, nil, nil)
		b.exportTokenFacts()
		for _, w := range m.Writes {
			if w.FencedBy == drawFence {
				pass.Reportf(w.Pos, "draws a token")
			}
		}
		b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
			if f := call.Common().StaticCallee(); f != nil && f.Name() == "probe" && len(call.Common().Args) == 1 {
				o := b.tokens.origin(call.Common().Args[0])
				pass.Reportf(call.Pos(), "%s %s", o.Kind, o.What)
			}
			return true
		})
		return nil, nil
	},
}

func TestTokenFlow(t *testing.T) {
	fencetest.Run(t, tokenProbe, "tokenflow/...")
}

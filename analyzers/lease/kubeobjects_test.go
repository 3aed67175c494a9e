package lease

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

// writeProbe reports every write the model finds as fenced or unfenced,
// so a fixture pins down how a write is judged without a lease around it.
var writeProbe = &analysis.Analyzer{
	Name:      "writeprobe",
	Doc:       "report each write the lease model finds, fenced or unfenced",
	FactTypes: factTypes(),
	Run: func(pass *analysis.Pass) (any, error) {
		m, _ := buildWithBuilder(pass, nil, nil)
		for _, w := range m.Writes {
			if w.Fenced {
				pass.Reportf(w.Pos, "fenced")
			} else {
				pass.Reportf(w.Pos, "unfenced")
			}
		}
		return nil, nil
	},
}

// TestKubeLegacyUpdate: client-go before 0.18 passes the object alone, at
// the argument a newer Update takes its context.
func TestKubeLegacyUpdate(t *testing.T) {
	fencetest.Run(t, writeProbe, "kubelegacy")
}

package lease

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/fencetest"
)

// regionProbe reports, at every call of a function named probe in the
// fixtures, the Checked leases whose regions (checkedRegions) cover the
// call's block, so the fixtures pin down which code a check guards without
// depending on store writes.
var regionProbe = &analysis.Analyzer{
	Name:      "regionprobe",
	Doc:       "report the checked regions that cover every call of probe",
	FactTypes: factTypes(),
	Run: func(pass *analysis.Pass) (any, error) {
		_, b := buildWithBuilder(pass, nil, nil)
		regions := b.checkedRegions()
		b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
			if f := call.Common().StaticCallee(); f == nil || f.Name() != "probe" {
				return true
			}
			for _, r := range regions {
				if slices.Contains(r.blocks, call.Block()) {
					pass.Reportf(call.Pos(), "%s", r.lease.What)
				}
			}
			return true
		})
		return nil, nil
	},
}

func TestCheckedRegions(t *testing.T) {
	fencetest.Run(t, regionProbe, "checkregions")
}

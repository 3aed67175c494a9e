// Package golangci registers fencelint's checks as a golangci-lint v2
// module plugin named "fencelint".
//
// Build a golangci-lint with the plugin (golangci-lint custom reads
// .custom-gcl.yml):
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/fencelint/fencelint
//	    import: github.com/fencelint/fencelint/golangci
//	    version: v0.1.0            # or path: ../fencelint for a clone
//
// and enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - fencelint
//	  settings:
//	    custom:
//	      fencelint:
//	        type: module
//	        description: writes under a distributed lock that carry no fencing token
//	        settings:
//	          checks: [unfencedwrite, heldcheck]  # default: every check
//	          disable: [weaktoken]                # default: none
//	          tests: true                         # default: false
//
// Findings are reported under the linter name fencelint, with the check's
// name in the message; //nolint:fencelint and //nolint:NAME (a check's name)
// silence them, as do fencelint's own //fencelint:ignore directives.
package golangci

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers"
	"github.com/fencelint/fencelint/analyzers/lease"
)

func init() {
	register.Plugin("fencelint", New)
}

// Settings are the plugin's settings in .golangci.yml
// (linters.settings.custom.fencelint.settings).
type Settings struct {
	// Checks, if set, names the only checks to run.
	Checks []string `json:"checks"`
	// Disable names checks not to run.
	Disable []string `json:"disable"`
	// Tests, if true, also reports writes made in _test.go files, which
	// fencelint takes for test fixtures by default (its -lease.testwrites);
	// if false, nothing in _test.go files is reported. Default false.
	Tests bool `json:"tests"`
}

// New is the plugin's constructor, called by golangci-lint with the raw
// settings.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, fmt.Errorf("fencelint: %w", err)
	}
	checks, err := selectChecks(analyzers.All(), s)
	if err != nil {
		return nil, err
	}
	if s.Tests {
		// golangci-lint builds the plugin once per process, so the lease
		// analyzer's flag is this run's setting, as on fencelint's command line.
		if err := lease.Analyzer.Flags.Set("testwrites", "true"); err != nil {
			return nil, fmt.Errorf("fencelint: %w", err)
		}
	}
	return &plugin{checks: checks, tests: s.Tests}, nil
}

// selectChecks returns the checks s enables, in their documented order.
func selectChecks(all []*analysis.Analyzer, s Settings) ([]*analysis.Analyzer, error) {
	names := make([]string, len(all))
	for i, a := range all {
		names[i] = a.Name
	}
	for _, name := range slices.Concat(s.Checks, s.Disable) {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("fencelint: unknown check %q in settings; the checks are: %s", name, strings.Join(names, ", "))
		}
	}
	var keep []*analysis.Analyzer
	for _, a := range all {
		if (len(s.Checks) == 0 || slices.Contains(s.Checks, a.Name)) && !slices.Contains(s.Disable, a.Name) {
			keep = append(keep, a)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("fencelint: the settings disable every check")
	}
	return keep, nil
}

type plugin struct {
	checks []*analysis.Analyzer
	tests  bool
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	if p.tests {
		return p.checks, nil
	}
	out := make([]*analysis.Analyzer, len(p.checks))
	for i, a := range p.checks {
		out[i] = withoutTestFiles(a)
	}
	return out, nil
}

// GetLoadMode asks for type information: the lease model is built on SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// withoutTestFiles returns a copy of a that drops findings in _test.go
// files. The copy requires the same analyzers, so the lease model is still
// built once per package and shared.
func withoutTestFiles(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			if !strings.HasSuffix(pass.Fset.Position(d.Pos).Filename, "_test.go") {
				pass.Report(d)
			}
		}
		return a.Run(&inner)
	}
	return &c
}

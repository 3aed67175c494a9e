package lease

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// Report is the one place every fencelint check reports through: it drops
// diagnostics silenced by a //fencelint:ignore or //nolint directive on their
// line, so suppression works the same for every check.
func (m *Model) Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if m.silenced(pass, d.Pos) {
		return
	}
	pass.Report(d)
}

// Reportf reports a diagnostic for node (anything with a position range).
func (m *Model) Reportf(pass *analysis.Pass, rng analysis.Range, format string, args ...any) {
	m.Report(pass, analysis.Diagnostic{Pos: rng.Pos(), End: rng.End(), Message: fmt.Sprintf(format, args...)})
}

// silenced reports whether a directive silences pass's analyzer at pos.
func (m *Model) silenced(pass *analysis.Pass, pos token.Pos) bool {
	if m == nil || m.directives == nil {
		return false
	}
	p := pass.Fset.Position(pos)
	return m.directives.silences(pass.Analyzer.Name, p.Filename, p.Line)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

package lease

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// SuppressedCategory is the Category of a finding silenced by a directive,
// reported only when the lease analyzer's -suppressed flag is set (for
// drivers that record suppressions, as SARIF does). Its first related
// information is the directive.
const SuppressedCategory = "suppressed"

// Report is the one place every fencelint check reports through: it drops
// diagnostics silenced by a //fencelint:ignore or //nolint directive on their
// line, so suppression works the same for every check.
func (m *Model) Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if dir := m.silencer(pass, d.Pos); dir != nil {
		if !m.reportSuppressed {
			return
		}
		d.Category = SuppressedCategory
		d.Related = append([]analysis.RelatedInformation{{Pos: dir.Pos(), End: dir.End(), Message: dir.Text}}, d.Related...)
	}
	pass.Report(d)
}

// Silenced reports whether a directive silences pass's analyzer at pos.
func (m *Model) Silenced(pass *analysis.Pass, pos token.Pos) bool {
	return m.silencer(pass, pos) != nil
}

// Reportf reports a diagnostic for node (anything with a position range).
func (m *Model) Reportf(pass *analysis.Pass, rng analysis.Range, format string, args ...any) {
	m.Report(pass, analysis.Diagnostic{Pos: rng.Pos(), End: rng.End(), Message: fmt.Sprintf(format, args...)})
}

// silencer returns the directive that silences pass's analyzer at pos, or nil.
func (m *Model) silencer(pass *analysis.Pass, pos token.Pos) *ast.Comment {
	if m == nil || m.directives == nil {
		return nil
	}
	p := pass.Fset.Position(pos)
	return m.directives.silencer(pass.Analyzer.Name, p.Filename, p.Line)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

package unfencedwrite

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer reports writes to a shared store made while a lease is held that
// carry no fencing token the store compares.
var Analyzer = &analysis.Analyzer{
	Name:     "unfencedwrite",
	Doc:      analysisdoc.Extract(doc, "unfencedwrite"),
	URL:      "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/unfencedwrite",
	Run:      run,
	Requires: []*analysis.Analyzer{lease.Analyzer},
}

func run(pass *analysis.Pass) (any, error) {
	m := lease.ModelOf(pass)
	reportBlindReleases(pass, m)
	var found []finding
	for _, w := range m.Writes {
		held := m.Guarding(w)
		if !isUnfencedUnderLease(w, held) {
			continue // a drawn counter is a token (weaktoken's), not protected data
		}
		found = append(found, finding{w, held[0]})
	}
	if len(found) == 0 {
		return nil, nil
	}
	idx := indexCalls(pass)
	var files map[string]*token.File // by name, for the sites calls reach
	for _, g := range groupRepeatedCalls(found, func(f finding) bool { return m.Silenced(pass, f.w.Pos) }) {
		d := analysis.Diagnostic{
			Pos:            g.first.w.Pos,
			Message:        message(pass, g.first.w, g.first.lease),
			SuggestedFixes: suggestFixes(pass, idx, g.first.w),
		}
		if len(g.first.w.Sites) > 1 {
			if files == nil {
				files = lease.FilesByName(pass)
			}
			d.Related = g.first.w.SiteRelated(files)
		}
		switch n := len(g.again); {
		case n > 0 && g.entered:
			d.Message += fmt.Sprintf(" (%s makes %d more unfenced %s under this lease: see the related positions)",
				outermost(g.first.w.Fn).Name(), n, plural(n, "write", "writes"))
			for _, again := range g.again {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: again.w.Pos, Message: "also unfenced under the lease: " + again.w.What})
			}
		case n > 0:
			d.Message += fmt.Sprintf(" (%s is called %d more %s in %s under this lease: see the related positions)",
				calleeName(g.first.w), n, plural(n, "time", "times"), g.first.w.Fn.Name())
			for _, again := range g.again {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: again.w.Pos, Message: "called again here"})
			}
		}
		m.Report(pass, d)
	}
	return nil, nil
}

// reportBlindReleases reports the statements that let a lease row go by
// its key alone, whoever holds it: the release is a write too, and the
// one a stale holder makes takes the next holder's lock away.
func reportBlindReleases(pass *analysis.Pass, m *lease.Model) {
	for _, w := range m.Writes {
		if w.BlindRelease == "" || m.Silenced(pass, w.Pos) {
			continue
		}
		m.Report(pass, analysis.Diagnostic{Pos: w.Pos, Message: fmt.Sprintf("%s lets the lease row in %s go without checking it is still "+
			"this holder's: a holder paused past the row's expiry deletes the row the next holder took, and a third "+
			"takes the lock while the second still works; delete only your own row (AND the holder or token column "+
			"= the value your claim wrote) and check RowsAffected", w.What, w.BlindRelease)})
	}
}

// A finding is an unfenced write and the lease it is made under.
type finding struct {
	w     *lease.Write
	lease *lease.Lease
}

// A callGroup is the calls of one writing function made in one function
// under one lease: one bug, fixed in the callee, reported at the first. Or
// (entered) the writes of a function that runs only under the lease its
// callers hold: one bug, a function doing unfenced work under a lease,
// reported at its first write.
type callGroup struct {
	first   finding
	again   []finding
	entered bool
}

// groupRepeatedCalls groups the findings that call the same writing
// function from the same function under the same lease (a stopAnalysis
// helper called on each of thirty error paths), in the order of found.
// A write made directly, or through a func value, is a group of its own,
// and so is a silenced one: a directive silences its own line, not the
// calls grouped with it.
func groupRepeatedCalls(found []finding, silenced func(finding) bool) []*callGroup {
	type key struct {
		fn     any
		callee any
		lease  *lease.Lease
	}
	var groups []*callGroup
	byKey := make(map[key]*callGroup)
	for _, f := range found {
		callee := writingCallee(f.w)
		entered := slices.Contains(f.w.Entered, f.lease)
		if callee == nil && !entered || silenced(f) {
			groups = append(groups, &callGroup{first: f})
			continue
		}
		k := key{f.w.Fn, callee, f.lease}
		if entered {
			k = key{outermost(f.w.Fn), nil, f.lease}
		}
		g := byKey[k]
		switch {
		case g == nil:
			g = &callGroup{first: f, entered: entered}
			byKey[k] = g
			groups = append(groups, g)
		case g.named(f):
			g.again = append(g.again, g.first)
			g.first = f
		default:
			g.again = append(g.again, f)
		}
	}
	return groups
}

// named reports whether f, rather than g's first finding so far, is the
// one g's diagnostic names: the first in the source, except that a
// function's write that replaces data is named before one that only adds
// rows (as a call's finding names it: WritesFact).
func (g *callGroup) named(f finding) bool {
	if g.entered && f.w.Append != g.first.w.Append {
		return !f.w.Append
	}
	return f.w.Pos < g.first.w.Pos
}

// writingCallee returns the function w calls when w is a call (not a go
// statement: each starts work of its own) of a function or interface
// method that writes, or nil.
func writingCallee(w *lease.Write) any {
	call, ok := w.Call.(*ssa.Call)
	if !ok || w.Via == "" {
		return nil
	}
	if c := call.Common(); c.IsInvoke() {
		return c.Method
	} else if f := c.StaticCallee(); f != nil {
		return f
	}
	return nil
}

// calleeName names the function w, a grouped call, calls.
func calleeName(w *lease.Write) string {
	switch f := writingCallee(w).(type) {
	case *types.Func:
		return f.Name()
	case *ssa.Function:
		return f.Name()
	}
	return "it"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isUnfencedUnderLease reports whether w is made while held, the leases
// that guard it, are held and nothing makes the store reject it from a
// stale holder. A write guarded by a validity check is heldcheck's to
// report, so it is left alone here.
func isUnfencedUnderLease(w *lease.Write, held []*lease.Lease) bool {
	return len(held) > 0 && !w.Fenced && !w.LockImpl && !heldOnlyByChecks(held)
}

// heldOnlyByChecks reports whether every lease of held is a region opened
// by a positive validity check (heldcheck reports those at the check).
func heldOnlyByChecks(held []*lease.Lease) bool {
	for _, l := range held {
		if l.Kind != lease.Checked {
			return false
		}
	}
	return true
}

// message says what is written, under which lease l, why it can be lost
// and how to fence it.
func message(pass *analysis.Pass, w *lease.Write, l *lease.Lease) string {
	if w.Unchecked {
		outcome, fix := "rows-affected count", "check RowsAffected() and abort on 0"
		if w.Outcome != "" {
			outcome, fix = w.Outcome, "read it and abort when it says no row matched"
		}
		return fmt.Sprintf("%s is fenced but its %s is never read, while %s (line %d) is held: "+
			"a stale holder's write is rejected silently and it carries on as if it had written; %s",
			w.What, outcome, l.What, pass.Fset.Position(l.Pos).Line, fix)
	}
	what := w.What
	switch {
	case w.Via != "" && w.Note != "":
		what = fmt.Sprintf("%s (%s%s; %s)", w.What, w.Via, w.SitesNote(), w.Note)
	case w.Via != "":
		what = fmt.Sprintf("%s (%s%s)", w.What, w.Via, w.SitesNote())
	case w.Note != "":
		what = fmt.Sprintf("%s (%s)", w.What, w.Note)
	}
	if w.Unseen != "" {
		return fmt.Sprintf("%s writes to %s while %s (line %d) is held, and fencelint could not see its %s: "+
			"if it does not compare a fence column with the lease's token, %s; "+
			"build the fence into the constant text (\"... AND fence < $token\") or mark the write //fencelint:ignore with the reason it is safe",
			what, w.System, l.What, pass.Fset.Position(l.Pos).Line, w.Unseen, staleHarm(w))
	}
	return fmt.Sprintf("%s writes to %s without a fencing token while %s (line %d%s) is held: %s; %s",
		what, w.System, l.What, pass.Fset.Position(l.Pos).Line, w.EnteredNote(l), staleHarm(w), l.FenceAdvice(w))
}

// staleHarm says what a holder paused past the lease's expiry does with w.
// An INSERT that only adds rows overwrites nothing: its harm is the second
// row, for work the next holder has done or is doing.
func staleHarm(w *lease.Write) string {
	if w.Append {
		return "a holder paused past the lease's expiry still adds its rows after the next holder took over, a duplicate of the next holder's work"
	}
	return "a holder paused past the lease's expiry overwrites the next holder's data"
}

// outermost returns the declared function fn is, or is a closure of.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

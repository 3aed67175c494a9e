package heldcheck

import (
	_ "embed"
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer reports lease-validity checks (IsLeader, Valid, TTL,
// State() == raft.Leader, a deadline comparison) whose result guards a
// later write the store does not fence.
var Analyzer = &analysis.Analyzer{
	Name:     "heldcheck",
	Doc:      analysisdoc.Extract(doc, "heldcheck"),
	URL:      "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/heldcheck",
	Run:      run,
	Requires: []*analysis.Analyzer{lease.Analyzer},
}

func run(pass *analysis.Pass) (any, error) {
	m := lease.ModelOf(pass)
	var files map[string]*token.File // by name, for the sites calls reach
	for _, c := range m.Checks {
		ws := unfenced(m, c.Guarded)
		if len(ws) == 0 {
			continue
		}
		if files == nil && slices.ContainsFunc(ws, func(w *lease.Write) bool { return len(w.Sites) > 1 }) {
			files = lease.FilesByName(pass)
		}
		m.Report(pass, analysis.Diagnostic{Pos: c.Pos, End: c.End, Message: message(pass, c, ws), Related: related(ws, files)})
	}
	return nil, nil
}

// related points at each write the check guards, the first one's message
// names, and the writes the calls among them reach.
func related(ws []*lease.Write, files map[string]*token.File) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for i, w := range ws {
		if i > 0 {
			out = append(out, analysis.RelatedInformation{Pos: w.Pos, Message: "also guarded, unfenced: " + w.What})
		}
		out = append(out, w.SiteRelated(files)...)
	}
	return out
}

// unfenced returns the writes a stale holder can make: not fenced, not the
// implementation of a hand-rolled lock, and not fenced with a weak token
// (those are weaktoken's to report).
func unfenced(m *lease.Model, writes []*lease.Write) []*lease.Write {
	var out []*lease.Write
	for _, w := range writes {
		if !w.Fenced && !w.LockImpl && w.Unseen == "" && !weakToken(m, w) {
			out = append(out, w)
		}
	}
	return out
}

// weakToken reports whether w carries a token that is not monotonic or is
// drawn after acquiring.
func weakToken(m *lease.Model, w *lease.Write) bool {
	if w.Token == nil {
		return false
	}
	switch m.WriteTokenOrigin(w).Kind {
	case lease.NotOrdered, lease.LateDrawn:
		return true
	}
	return false
}

// message names the first write the check guards, says why the check cannot
// protect it, and how to fence it.
func message(pass *analysis.Pass, c *lease.Check, ws []*lease.Write) string {
	w := ws[0]
	what := w.What
	if w.Via != "" {
		what = fmt.Sprintf("%s (%s%s)", w.What, w.Via, w.SitesNote())
	}
	more := ""
	if len(ws) > 1 {
		more = fmt.Sprintf(" and %d more", len(ws)-1)
	}
	advice := c.FenceAdvice(w)
	if w.Unchecked { // the statement has a fence, but nobody learns that it refused
		what += " (fenced, but its rows-affected count is never read)"
		advice = "read RowsAffected() and abort on 0, which is how a stale holder learns that the fence refused it"
	}
	return fmt.Sprintf("%s only tells that the lease was held when it ran, yet it guards the unfenced write "+
		"%s at line %d%s: a pause between the check and the write lets the lease expire, which makes the check worthless; %s",
		c.What, what, pass.Fset.Position(w.Pos).Line, more, advice)
}

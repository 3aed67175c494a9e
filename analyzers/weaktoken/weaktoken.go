package weaktoken

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer reports fenced writes whose token is not a monotonic value
// issued with the lease.
var Analyzer = &analysis.Analyzer{
	Name:     "weaktoken",
	Doc:      analysisdoc.Extract(doc, "weaktoken"),
	URL:      "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/weaktoken",
	Run:      run,
	Requires: []*analysis.Analyzer{lease.Analyzer},
}

func run(pass *analysis.Pass) (any, error) {
	m := lease.ModelOf(pass)
	for _, w := range m.Writes {
		if o, ok := weakToken(m, w); ok {
			m.Report(pass, analysis.Diagnostic{Pos: w.Pos, Message: message(pass, w, o)})
		}
	}
	return nil, nil
}

// weakToken returns the origin of w's token when w is fenced with a value
// that does not order leases. A clock or random value counts only where a
// lease is held (at the write, or where its function is called): outside
// one, a timestamp compare is last-writer-wins by design. A lock library's
// own value counts anywhere. A token that is a parameter is judged at the
// calls that pass it.
func weakToken(m *lease.Model, w *lease.Write) (lease.Origin, bool) {
	if !w.Fenced || w.Token == nil || w.LockImpl || m.TokenFromCaller(w) {
		return lease.Origin{}, false
	}
	o := m.WriteTokenOrigin(w)
	switch o.Kind {
	case lease.LateDrawn:
		return o, true
	case lease.NotOrdered:
		return o, o.System != "" || m.LeaseAround(w) != nil
	}
	return o, false
}

// message says which value fences the write, why it can let a stale holder
// win, and what to use instead.
func message(pass *analysis.Pass, w *lease.Write, o lease.Origin) string {
	what := w.What
	if w.Via != "" {
		what = fmt.Sprintf("%s (%s)", w.What, w.Via)
	}
	use := system(w, o).TokenSource()
	if w.TokenSource != "" {
		use += ", or " + w.TokenSource
	}
	return fmt.Sprintf("%s is fenced with %s (line %d), which is not a fencing token: %s; "+
		"a stale holder's write can pass this fence; use %s",
		what, o.What, pass.Fset.Position(o.Pos).Line, o.Note, use)
}

// system is the lock library whose token the write should use: the lease
// held there, else the library the weak value came from, else the store.
func system(w *lease.Write, o lease.Origin) lease.System {
	for _, l := range w.Held {
		if l.System != "" {
			return l.System
		}
	}
	if o.System != "" {
		return o.System
	}
	return w.System
}

package lease

import (
	"cmp"
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// A function handed over as a value to run under a lease (OnStartedLeading:
// ctrl.Start, lockFolder(key, svc.Archive)) does its work in its own body,
// which is where its writes are fixed. In its own package it gets the lease
// on entry and its writes are reported where they are made. Declared in
// another package, it is analyzed before the package that hands it over and
// never learns of the lease: under go vet the writes its WritesFact stands
// for are reported where the value is handed over (handedMethodWrites).
//
// A standalone run does better. Each package lists the functions of other
// packages it hands over (HandOffsFact), the Program collects the lists, and
// in the run that reports, each such function of a package the run reports
// on (a root) starts with the lease in its own package, and nothing is
// reported where it was handed over. A function handed into a package the
// run does not report on is still reported at the hand-over.

// HandOffsFact lists the functions of other packages that the package
// hands over to run under a lease, in source order.
type HandOffsFact struct {
	HandOffs []HandOff
}

func (*HandOffsFact) AFact() {}
func (f *HandOffsFact) String() string {
	return fmt.Sprintf("hands over %d functions of other packages", len(f.HandOffs))
}

// A HandOff is a function of another package handed over to run under a
// lease.
type HandOff struct {
	Pkg    string // the path of the function's package
	Func   string // its full name: "(*example.com/app/seq.Controller).Start"
	System System
	What   string // the lease, as Lease.What
	At     string // where it is handed over: "main.go:20"
}

// exportHandOffs exports the package's hand-overs of other packages'
// functions, for the Program.
func (b *builder) exportHandOffs() {
	var out []HandOff
	seen := make(map[string]bool)
	for _, key := range b.handOffKeys() {
		leases := b.regions.handed[key]
		obj, _ := key.fn.Object().(*types.Func)
		if len(key.fn.Blocks) > 0 || len(leases) == 0 || obj == nil || obj.Pkg() == nil || obj.Pkg() == b.pass.Pkg {
			continue
		}
		name := obj.Origin().FullName()
		if seen[name] {
			continue
		}
		seen[name] = true
		at := key.at.Pos()
		if call := handOffCall(key.at); call != nil {
			at = call.Pos()
		}
		out = append(out, HandOff{Pkg: obj.Pkg().Path(), Func: name, System: leases[0].System, What: leases[0].What,
			At: b.shortPos(at)})
	}
	if len(out) > 0 {
		b.pass.ExportPackageFact(&HandOffsFact{HandOffs: out})
	}
}

// handOffKeys returns the package's hand-overs in source order.
func (b *builder) handOffKeys() []handOff {
	keys := slices.Collect(maps.Keys(b.regions.handed))
	slices.SortFunc(keys, func(x, y handOff) int {
		return cmp.Or(cmp.Compare(x.at.Pos(), y.at.Pos()), cmp.Compare(x.fn.String(), y.fn.String()))
	})
	return keys
}

// ForRoots returns a copy of p for a run that reports on the packages
// whose paths are roots: the functions of those packages that other
// packages hand over to run under a lease take that lease on entry.
func (p *Program) ForRoots(roots []string) *Program {
	if p == nil {
		return nil
	}
	q := *p
	q.entries = make(map[string]HandOff)
	q.entered = make(map[string]bool)
	for _, path := range roots {
		for _, h := range p.handOffs[path] {
			if _, dup := q.entries[h.Func]; !dup {
				q.entries[h.Func] = h
				q.entered[path] = true
			}
		}
	}
	return &q
}

// HandsOver reports whether a function of a root is handed over, by
// another package, to run under a lease, or a package sets another's
// leader flag: the run must use the Program even if it has nothing to
// dispatch to.
func (p *Program) HandsOver() bool {
	return p != nil && (len(p.entries) > 0 || len(p.sets) > 0)
}

// entryOf returns the hand-over under whose lease the run reports fn's
// writes in fn's own package.
func (p *Program) entryOf(fn *types.Func) (HandOff, bool) {
	if p == nil || fn == nil {
		return HandOff{}, false
	}
	h, ok := p.entries[fn.Origin().FullName()]
	return h, ok
}

// enterHandedFuncs gives each function of the package that another
// package hands over to run under a lease (Program.ForRoots) that lease on
// entry.
func (b *builder) enterHandedFuncs() {
	for _, fn := range b.funcs {
		obj, _ := fn.Object().(*types.Func)
		h, ok := b.prog.entryOf(obj)
		if !ok || obj.Pkg() != b.pass.Pkg {
			continue
		}
		l := b.addLease(&Lease{Kind: InCallback, System: h.System, Pos: fn.Pos(), Fn: fn, What: enteredWhat(h, obj)})
		b.regions.entry[fn] = b.regions.entry[fn].with(l)
	}
}

// enteredWhat names the lease a handed-over function starts with: "the
// Kubernetes leader election lease (OnStartedLeading), handed over at
// main.go:329, that ShipyardController.StartDispatchers holds".
func enteredWhat(h HandOff, fn *types.Func) string {
	lease := h.What
	if i := strings.Index(lease, " that "); i >= 0 && strings.HasSuffix(lease, " holds") {
		lease = lease[:i]
	}
	return fmt.Sprintf("%s, handed over at %s, that %s holds", lease, h.At, shortName(fn))
}

package lease

import (
	"cmp"
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
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
// lease: a method value, or the function a go statement starts.
type HandOff struct {
	Pkg  string // the path of the function's package
	Func string // its full name: "(*example.com/app/seq.Controller).Start"
	// Method is set instead of Pkg and Func for a go statement through an
	// interface of the program's (go w.Start(ctx)): Iface lists the
	// interface's methods (name + signatureKey, sorted), and each
	// implementation in the program outside By, the package that hands
	// it over, runs under the lease (Program.handOffTargets).
	Method string
	Iface  []string
	By     string
	// From, when set, is the full name of the function a go statement is
	// made in where it holds no lease: the hand-over is made only if From
	// is itself handed over (a chain: OnStartedLeading starts
	// event.StartEventWorker, which starts each worker's Start).
	From   string
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
		if call := handOffCall(key.at); call != nil && call.Pos().IsValid() {
			at = call.Pos()
		}
		if st, ok := key.at.(*ssa.Store); ok && !at.IsValid() {
			at = st.Val.Pos() // a method value stored in a composite literal's field (Run: w.Sweep.Run)
		}
		out = append(out, HandOff{Pkg: obj.Pkg().Path(), Func: name, System: leases[0].System, What: leases[0].What,
			At: b.shortPos(at)})
	}
	out = append(out, b.goHandOffs()...)
	if len(out) > 0 {
		b.pass.ExportPackageFact(&HandOffsFact{HandOffs: out})
	}
}

// goHandOffs returns the package's go statements that start a function of
// another package, or a method of an interface of the application's: where
// a lease is held, that function runs under it (go event.StartEventWorker(ctx)
// in OnStartedLeading); elsewhere, under the lease its function is entered
// with, if it is (From). Goroutines started once are not work under a
// lease (oncestart.go), and test files hand nothing over.
func (b *builder) goHandOffs() []HandOff {
	var out []HandOff
	for _, fn := range b.funcs {
		from := b.runsAs(fn)
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				g, ok := instr.(*ssa.Go)
				if !ok || inTestFile(b.pass.Fset, g.Pos()) {
					continue
				}
				h, ok := b.goTarget(g)
				if !ok || b.onceAt(fn, g) != oncePerCall {
					continue
				}
				h.By, h.At = b.pass.Pkg.Path(), b.shortPos(g.Pos())
				// Behind a validity check the go statement is heldcheck's to
				// report, at the check.
				held := b.heldBefore(g).without(func(l *Lease) bool { return l.Kind == Checked })
				if len(held) > 0 {
					h.System, h.What = held[0].System, held[0].What
				} else if from != nil {
					h.From = from.Origin().FullName()
				} else {
					continue
				}
				out = append(out, h)
			}
		}
	}
	return out
}

// goTarget describes what the go statement g starts, when it is a function
// of another package of the application's or a method of an interface of
// its own.
func (b *builder) goTarget(g *ssa.Go) (HandOff, bool) {
	obj := calleeFunc(g.Common())
	if obj == nil || obj.Pkg() == nil || b.ix.knowsPath(obj.Pkg().Path()) {
		return HandOff{}, false
	}
	if !g.Common().IsInvoke() {
		if obj.Pkg() == b.pass.Pkg {
			return HandOff{}, false // a call like any other, reported where it is made
		}
		return HandOff{Pkg: obj.Pkg().Path(), Func: obj.Origin().FullName()}, true
	}
	iface, ok := g.Common().Value.Type().Underlying().(*types.Interface)
	if !ok || !b.ownInterface(obj) {
		return HandOff{}, false
	}
	h := HandOff{Method: obj.Name()}
	for m := range iface.Methods() {
		h.Iface = append(h.Iface, m.Name()+signatureKey(m))
	}
	slices.Sort(h.Iface)
	return h, true
}

// runsAs returns the declared function fn is, or the one whose call runs
// fn's body: a closure it starts with go, or that such a closure starts.
// A closure kept for later (a handler, a callback) runs under none of its
// creator's leases: nil.
func (b *builder) runsAs(fn *ssa.Function) *types.Func {
	for fn.Parent() != nil {
		if !b.startedByGo(fn) {
			return nil
		}
		fn = fn.Parent()
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// handOffKeys returns the package's hand-overs in source order.
func (b *builder) handOffKeys() []handOff {
	keys := slices.Collect(maps.Keys(b.regions.handed))
	slices.SortFunc(keys, func(x, y handOff) int {
		return cmp.Or(cmp.Compare(x.at.Pos(), y.at.Pos()), cmp.Compare(x.fn.String(), y.fn.String()))
	})
	return keys
}

// resolveHandOffs fills p.handOffs, by the path of the package that
// declares them, with the functions listed hand-overs give a lease: a
// function handed over where a lease is held, each implementation of an
// interface method a go statement starts there, and, in a chain, what a
// function so handed over starts in turn (its hand-overs From it). The
// order is the packages' and then the source's, so the first hand-over of
// a function, the one it is entered with, is the same in every run.
func (p *Program) resolveHandOffs(listed []HandOff) {
	from := make(map[string][]HandOff)
	var queue []HandOff
	for _, h := range listed {
		if h.From != "" {
			from[h.From] = append(from[h.From], h)
		} else {
			queue = append(queue, h)
		}
	}
	entered := make(map[string]bool)
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, t := range p.handOffTargets(h) {
			if entered[t.Func] || !p.pkgs[t.Pkg] {
				continue
			}
			entered[t.Func] = true
			p.handOffs[t.Pkg] = append(p.handOffs[t.Pkg], t)
			for _, next := range from[t.Func] {
				next.From, next.System, next.What = "", t.System, t.What
				queue = append(queue, next)
			}
		}
	}
}

// handOffTargets returns the functions h hands over, each as a hand-over
// of that function: h itself, or for a go statement through an interface,
// the program's implementations of its method outside the package that
// makes it (test doubles are not in p.methods; an implementation with no
// lease facts writes nothing that could be reported).
func (p *Program) handOffTargets(h HandOff) []HandOff {
	if h.Method == "" {
		return []HandOff{h}
	}
	var out []HandOff
	for _, m := range p.methods[h.Method] {
		if m.typ.pkgPath == h.By || !m.typ.hasAll(h.Iface) {
			continue
		}
		out = append(out, HandOff{Pkg: m.typ.pkgPath, Func: m.full, System: h.System, What: h.What, At: h.At})
	}
	return out
}

// hasAll reports whether the type has every method of an interface, listed
// as name + signatureKey.
func (t *programType) hasAll(iface []string) bool {
	for _, m := range iface {
		name, _, _ := strings.Cut(m, "(")
		if sig, ok := t.sigs[name]; !ok || name+sig != m {
			return false
		}
	}
	return true
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

// enters reports whether the run enters the function of that full name
// with a lease another package hands it over under.
func (p *Program) enters(fullName string) bool {
	if p == nil {
		return false
	}
	_, ok := p.entries[fullName]
	return ok
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

package lease

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A call through an interface of the application's own (s.store.InsertRun,
// l.Lock, cluster.IsPrimary) does what its implementations do. They are
// looked for among the types of the package being analyzed, in a standalone
// run among every type of the user's modules (the Program), and under go vet,
// which sees one package at a time, among the types of the packages it
// imports from its own module. Only types whose methods have lease facts
// count: a test double declared in a _test.go file, or an in-memory fake
// that writes nothing, does not make a call a write, but one writing
// implementation does. A directive on the interface method itself
// (//fencelint:write) wins over what the implementations do.

// A dispatchTarget is a method that a call through an interface may run.
type dispatchTarget struct {
	name   string      // "*pgstore.Store.InsertRun"
	fn     *types.Func // a method of this package or of an import: facts looked up when asked
	remote *implMethod // a method of the Program: facts from the first pass
}

// interfaceMethod returns the interface that declares fn, if fn is an
// interface method.
func interfaceMethod(fn *types.Func) (*types.Interface, bool) {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil, false
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	return iface, ok
}

// isAbstract reports whether fn is an interface method.
func isAbstract(fn *types.Func) bool {
	_, ok := interfaceMethod(fn)
	return ok
}

// dispatchTargets returns the implementations of the interface method fn
// that have (or, in this package, may gain) lease facts, sorted by name.
func (b *builder) dispatchTargets(fn *types.Func) []dispatchTarget {
	if targets, ok := b.dispatch[fn]; ok {
		return targets
	}
	iface, ok := interfaceMethod(fn)
	if !ok || !b.ownInterface(fn) {
		b.dispatch[fn] = nil
		return nil
	}
	targets := b.implementersIn(b.pass.Pkg, fn, iface)
	for _, m := range b.prog.implementers(fn, iface, b.pass.Pkg.Path()) {
		targets = append(targets, dispatchTarget{name: m.name, remote: m})
	}
	if b.prog == nil {
		for _, imp := range b.pass.Pkg.Imports() {
			if b.sameModule(imp) && b.hasFacts(imp) {
				targets = append(targets, b.implementersIn(imp, fn, iface)...)
			}
		}
	}
	slices.SortStableFunc(targets, func(x, y dispatchTarget) int { return cmp.Compare(x.name, y.name) })
	b.dispatch[fn] = targets
	return targets
}

// ownInterface reports whether the interface method fn belongs to the
// application: declared in the program (standalone) or in the analyzed
// package's module (go vet), and called from a package that is no lock
// library's. Calls through the standard library's or a library's
// interfaces (io.Writer, a driver's) are left to the catalog.
func (b *builder) ownInterface(fn *types.Func) bool {
	if fn.Pkg() == nil || b.ix.knowsPath(b.pass.Pkg.Path()) {
		return false
	}
	if b.prog != nil {
		return fn.Pkg() == b.pass.Pkg || b.prog.pkgs[fn.Pkg().Path()]
	}
	return fn.Pkg() == b.pass.Pkg || b.sameModule(fn.Pkg())
}

// implementersIn returns the methods of pkg's named types (outside _test.go
// files) that implement the interface method fn.
func (b *builder) implementersIn(pkg *types.Package, fn *types.Func, iface *types.Interface) []dispatchTarget {
	var targets []dispatchTarget
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || inTestFile(b.pass.Fset, tn.Pos()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		ptr := types.NewPointer(named)
		if !types.Implements(ptr, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(ptr, true, fn.Pkg(), fn.Name())
		if m, ok := obj.(*types.Func); ok && !isAbstract(m) { // a method promoted from an embedded interface is no implementation
			targets = append(targets, dispatchTarget{name: implName(named, m), fn: m})
		}
	}
	return targets
}

// sameModule reports whether pkg belongs to the analyzed package's module.
// When the driver does not say which module that is (GOPATH mode), the
// first element of the import path stands for it.
func (b *builder) sameModule(pkg *types.Package) bool {
	root := ""
	if mod := b.pass.Module; mod != nil {
		root = mod.Path
	}
	if root == "" {
		root, _, _ = strings.Cut(b.pass.Pkg.Path(), "/")
	}
	return pkg.Path() == root || strings.HasPrefix(pkg.Path(), root+"/")
}

// targetFacts returns what one implementation does.
func (b *builder) targetFacts(t dispatchTarget) (role *RoleFact, wf *WritesFact, fp *FencedByParamFact) {
	if t.remote != nil {
		return t.remote.role, t.remote.writes, t.remote.fenced
	}
	if rf := b.roleFact(t.fn); rf != nil && rf.Role&dispatchedRoles != 0 {
		role = rf
	}
	var w WritesFact
	if b.ownFact(t.fn, &w) {
		wf = &w
	}
	var f FencedByParamFact
	if b.ownFact(t.fn, &f) {
		fp = &f
	}
	return role, wf, fp
}

// dispatchRole returns the lock role a call of the interface method fn
// plays: the role its implementations agree on (an implementation with no
// role, such as an in-memory lock for tests, does not disagree), and the
// first of them, for diagnostics.
func (b *builder) dispatchRole(fn *types.Func) (*RoleFact, string) {
	var agreed *RoleFact
	via := ""
	for _, t := range b.dispatchTargets(fn) {
		role, _, _ := b.targetFacts(t)
		switch {
		case role == nil:
		case agreed == nil:
			copied := *role // the Program's facts are shared: never written
			agreed, via = &copied, t.name
		case agreed.Role != role.Role:
			return nil, ""
		case agreed.Held != role.Held:
			agreed.Held = AnyResult // a check only one implementation limits to lease regions
		}
	}
	return agreed, via
}

// dispatchFact reports whether a call of the interface method fn writes
// (f is a *WritesFact: some implementation writes unfenced) or writes fenced
// by a parameter (f is a *FencedByParamFact: no implementation writes
// unfenced, and one is fenced by a parameter), and if so fills f, naming the
// implementation.
func (b *builder) dispatchFact(fn *types.Func, f analysis.Fact) bool {
	var fenced *FencedByParamFact
	fencedVia := ""
	for _, t := range b.dispatchTargets(fn) {
		role, wf, fp := b.targetFacts(t)
		if role != nil {
			continue // a lock operation's own writes are the lock's business
		}
		if wf != nil {
			if d, ok := f.(*WritesFact); ok {
				*d = WritesFact{System: wf.System, What: wf.What + ", via " + t.name}
				return true
			}
			return false
		}
		if fp != nil && fenced == nil {
			fenced, fencedVia = fp, t.name
		}
	}
	d, ok := f.(*FencedByParamFact)
	if !ok || fenced == nil {
		return false
	}
	*d = *fenced
	d.What += ", via " + fencedVia
	return true
}

package lease

import (
	"cmp"
	"fmt"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
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
	impl   Dispatch    // the method, for the facts learned through it
}

// fullName is the target's full name: "(*example.com/app/pgstore.Store).InsertRun".
func (t dispatchTarget) fullName() string {
	if t.remote != nil {
		return t.remote.full
	}
	return t.fn.Origin().FullName()
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
		targets = append(targets, dispatchTarget{name: m.name, remote: m, impl: m.dispatch()})
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
			impl := Dispatch{Type: typePath(named), Method: m.Name(), Sig: signatureKey(m)}
			targets = append(targets, dispatchTarget{name: implName(named, m), fn: m, impl: impl})
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
// role that writes nothing, such as an in-memory lock for tests, does not
// disagree; one that writes a store does: a periodical job's Work beside
// the decorator's that locks around it, unless fn is named for taking or
// letting go a lock, when the writer is a lock fencelint cannot read, such
// as a lease row a PostgreSQL implementation deletes where a Redis one
// deletes its SET NX key), and the first of them, for diagnostics.
func (b *builder) dispatchRole(fn *types.Func) (*RoleFact, string) {
	var agreed *RoleFact
	via := ""
	for _, t := range b.dispatchTargets(fn) {
		role, wf, _ := b.targetFacts(t)
		switch {
		case role == nil && wf != nil && !namedForLocking(fn.Name()):
			return nil, "" // a real implementation that writes and takes no lock (another job behind a locking decorator)
		case role == nil:
		case agreed == nil:
			copied := *role // the Program's facts are shared: never written
			copied.Dispatch = t.impl
			agreed, via = &copied, t.name
		case agreed.Role != role.Role:
			return nil, ""
		case agreed.Held != role.Held:
			agreed.Held = AnyResult // a check only one implementation limits to lease regions
		}
		if agreed != nil && role != nil && agreed.Session != role.Session {
			agreed.Session = 0 // implementations that lock on different sessions: none is the call's
		}
	}
	return agreed, via
}

// namedForLocking reports whether a method's name says it takes or lets go
// a lock: Lock, TryLock, Unlock, Acquire, Release, Obtain.
func namedForLocking(name string) bool {
	return hasWordPrefix(name, "lock", "trylock", "unlock", "acquire", "release", "obtain")
}

// dispatchFact reports whether a call of the interface method fn writes
// (f is a *WritesFact: some implementation writes unfenced) or writes fenced
// by a parameter (f is a *FencedByParamFact: no implementation writes
// unfenced, and one is fenced by a parameter), and if so fills f, naming the
// implementation.
func (b *builder) dispatchFact(fn *types.Func, f analysis.Fact) bool {
	return b.targetsFact(b.dispatchTargets(fn), f)
}

// otherWriters names, for a message, the implementations among targets
// other than first that write too: " (also *mysql.users.Update)". The
// finding names the first one's write; the user may run another.
func (b *builder) otherWriters(targets []dispatchTarget, first dispatchTarget) string {
	var names []string
	for _, t := range targets {
		if t.name == first.name {
			continue
		}
		if b.everyCallWriter(t) != nil {
			names = append(names, t.name)
		}
	}
	const listed = 3 // a runner of many jobs would list them all
	switch {
	case len(names) == 0:
		return ""
	case len(names) > listed:
		return fmt.Sprintf(" (also %s and %d more)", strings.Join(names[:listed], ", "), len(names)-listed)
	}
	return " (also " + strings.Join(names, ", ") + ")"
}

// dispatchSites returns the EachImpl of a call that runs one of targets,
// and how many implementations they stand for: when more than one writes
// unfenced on every call, each one's writes, its Sites or the one write
// its fact names. A call that starts whichever worker it is handed then
// names every worker's write, not the first's for all (the first is
// often the least: a cache fill beside the others' state writes).
// Implementations that write different stores (an etcd and a ZooKeeper
// backend, Consul and S3 state clients) are alternatives a deployment
// picks one of, not work it all runs: for them, as for one writer, none.
func (b *builder) dispatchSites(targets []dispatchTarget, named *WritesFact) ([]Site, int) {
	var sites siteList
	writers := 0
	replaces := !named.Append // targets come replacingFirst
	for _, t := range targets {
		wf := b.everyCallWriter(t)
		own := callSites(wf)
		if own == nil || replaces && wf.Append {
			continue
		}
		if wf.System != named.System {
			return nil, 0
		}
		writers++
		sites.add(own...)
	}
	if writers < 2 || len(sites) < 2 {
		return nil, 0
	}
	return sites, writers
}

// everyCallWriter returns the WritesFact of t when t writes unfenced on
// every call (not a lock operation's own writes, nor a writer it starts
// once per receiver), or nil.
func (b *builder) everyCallWriter(t dispatchTarget) *WritesFact {
	role, wf, _ := b.targetFacts(t)
	if role != nil || wf == nil || wf.OnceRecv {
		return nil
	}
	return wf
}

// replacingFirst returns targets with the first implementation whose
// writes replace data moved to the front, when one only adds rows comes
// before it: the call's message names a write that loses data when a
// stale holder makes it, as factNamedWrite does for a function's own.
func (b *builder) replacingFirst(targets []dispatchTarget) []dispatchTarget {
	for i, t := range targets {
		if wf := b.everyCallWriter(t); wf == nil || wf.Append {
			continue
		}
		if i == 0 {
			return targets
		}
		return slices.Concat(targets[i:i+1], targets[:i], targets[i+1:])
	}
	return targets
}

// targetsFact is dispatchFact over the implementations targets.
func (b *builder) targetsFact(targets []dispatchTarget, f analysis.Fact) bool {
	if d, ok := f.(*CASFact); ok {
		return b.dispatchCAS(targets, d)
	}
	if d, ok := f.(*ConvergeFact); ok {
		return b.dispatchConverge(targets, d)
	}
	if d, ok := f.(*CallbackParamFact); ok {
		return b.dispatchCallbacks(targets, d)
	}
	if _, ok := f.(*WritesFact); ok {
		targets = b.replacingFirst(targets)
	}
	var fenced *FencedByParamFact
	fencedVia, fencedImpl := "", Dispatch{}
	var once *WritesFact // an implementation that starts its writer once per receiver
	for _, t := range targets {
		role, wf, fp := b.targetFacts(t)
		if role != nil {
			continue // a lock operation's own writes are the lock's business
		}
		if wf != nil {
			d, ok := f.(*WritesFact)
			if !ok {
				return false
			}
			dispatched := WritesFact{System: wf.System, What: wf.What + ", via " + t.name + b.otherWriters(targets, t), Advice: wf.Advice, Dispatch: t.impl, OutsideOf: wf.OutsideOf, Append: wf.Append, Spawned: wf.Spawned, OnceRecv: wf.OnceRecv,
				Keys: b.agreedKeys(targets, wf.Keys), Session: b.agreedSession(targets, wf.Session), Sites: wf.Sites, Site: wf.Site, Implementations: wf.Implementations}
			dispatched.EachImpl, dispatched.EachImplOf = b.dispatchSites(targets, wf)
			dispatched.BoundColumn, dispatched.BoundParam = b.agreedBound(targets, wf)
			if wf.OnceRecv { // another implementation may write on every call
				if once == nil {
					once = &dispatched
				}
				continue
			}
			*d = dispatched
			d.Cases = b.dispatchCases(targets)
			return true
		}
		if _, asksFenced := f.(*FencedByParamFact); asksFenced && b.targetConverges(t) {
			return false // judged by its definition (dispatchConverge), not by a token
		}
		if fp != nil && fenced == nil {
			fenced, fencedVia, fencedImpl = fp, t.name, t.impl
		}
	}
	if d, ok := f.(*WritesFact); ok && once != nil {
		*d = *once
		return true
	}
	d, ok := f.(*FencedByParamFact)
	if !ok || fenced == nil {
		return false
	}
	*d = *fenced
	d.What += ", via " + fencedVia
	d.Dispatch = fencedImpl
	return true
}

// dispatchCases returns the WritesFact cases of a call that runs one of
// targets: the cases of each implementation that writes unfenced, in
// order, an implementation without cases being one case that needs
// nothing; nil when one that does not write unfenced writes otherwise
// (fenced by a parameter, converging, once per receiver), since ruling
// out every case must leave nothing.
func (b *builder) dispatchCases(targets []dispatchTarget) []WriteCase {
	var out []WriteCase
	for _, t := range targets {
		role, wf, fp := b.targetFacts(t)
		switch {
		case role != nil:
			continue
		case wf == nil && fp == nil && !b.targetConverges(t):
			continue
		case wf == nil || wf.OnceRecv:
			return nil
		}
		if wf.Cases == nil {
			out = append(out, WriteCase{System: wf.System, What: wf.What + ", via " + t.name, Dispatch: t.impl})
			break
		}
		for _, c := range viaCases(wf.Cases, t.name) {
			c.Dispatch = t.impl
			out = append(out, c)
		}
	}
	return boundCases(out)
}

// agreedKeys returns keys (WritesFact.Keys) when every implementation among
// targets that writes unfenced says the same, or "".
func (b *builder) agreedKeys(targets []dispatchTarget, keys string) string {
	if keys == "" {
		return ""
	}
	for _, t := range targets {
		if _, wf, _ := b.targetFacts(t); wf != nil && wf.Keys != keys {
			return ""
		}
	}
	return keys
}

// agreedSession returns session (WritesFact.Session: the parameter whose
// session every write goes through) when every implementation among
// targets that writes unfenced says the same, or 0.
func (b *builder) agreedSession(targets []dispatchTarget, session int) int {
	for _, t := range targets {
		if _, wf, _ := b.targetFacts(t); wf != nil && wf.Session != session {
			return 0
		}
	}
	return session
}

// agreedBound returns wf's bounded decrement when every implementation
// among targets that writes makes the same one.
func (b *builder) agreedBound(targets []dispatchTarget, wf *WritesFact) (string, int) {
	if wf.BoundColumn == "" {
		return "", 0
	}
	for _, t := range targets {
		if _, other, _ := b.targetFacts(t); other != nil && (other.BoundColumn != wf.BoundColumn || other.BoundParam != wf.BoundParam) {
			return "", 0
		}
	}
	return wf.BoundColumn, wf.BoundParam
}

// dispatchCallbacks reports whether a call that runs one of targets runs
// some of the func values it is passed under a lease: an implementation
// does (a repository's LockedBacktest(id, fn) that takes a redsync mutex
// and calls fn), as one that writes makes the call a write. The first such
// implementation's parameters and lease are the call's.
func (b *builder) dispatchCallbacks(targets []dispatchTarget, d *CallbackParamFact) bool {
	for _, t := range targets {
		if t.remote != nil {
			if t.remote.callback != nil {
				*d = *t.remote.callback // the Program's facts are shared: copied, never written
				return true
			}
			continue
		}
		var cb CallbackParamFact
		if b.ownFact(t.fn, &cb) {
			*d = cb
			return true
		}
	}
	return false
}

// dispatchCAS reports whether a call that runs one of targets is a
// compare-and-swap: every implementation of the program that has lease
// facts is one (an in-memory fake that writes nothing does not disagree).
func (b *builder) dispatchCAS(targets []dispatchTarget, d *CASFact) bool {
	found := false
	for _, t := range targets {
		var cas CASFact
		switch {
		case t.remote != nil && t.remote.cas != nil:
			cas = *t.remote.cas
		case t.remote == nil && b.ownFact(t.fn, &cas):
		default:
			if t.remote == nil {
				role, wf, fp := b.targetFacts(t)
				if role == nil && wf == nil && fp == nil {
					continue // writes nothing: not a store
				}
			}
			return false
		}
		if !found {
			*d = CASFact{What: cas.What + ", via " + t.name, SQL: true}
			found = true
		}
		d.SQL = d.SQL && cas.SQL
		d.Keyed = d.Keyed || cas.Keyed // a create-if-absent gates less than a CAS
	}
	return found
}

// dispatchConverge reports whether a call that runs one of targets is an
// upsert of a definition (ConvergeFact): no implementation writes unfenced
// otherwise, and one converges; the first names it.
func (b *builder) dispatchConverge(targets []dispatchTarget, d *ConvergeFact) bool {
	found := false
	for _, t := range targets {
		role, wf, _ := b.targetFacts(t)
		if role != nil {
			continue
		}
		if wf != nil {
			return false
		}
		var cf ConvergeFact
		switch {
		case t.remote != nil && t.remote.converge != nil:
			cf = *t.remote.converge
		case t.remote == nil && b.ownFact(t.fn, &cf):
		default:
			continue
		}
		if !found {
			*d = cf
			d.What += ", via " + t.name
			d.Dispatch = t.impl
			found = true
		}
	}
	return found
}

// receiverTargets returns the implementations an interface call c may
// run. A method of a small interface that many others embed (a DAO
// layer's Dao with AddModel and UpdateModel, embedded in every table's
// EventDao, VolumeTypeDao, ...) is implemented by every type that
// implements any of them, but the call runs only one that implements the
// interface it is called through: events.UpdateModel(e) on an EventDao is
// the events table's, never the backups table's.
func (b *builder) receiverTargets(c *ssa.CallCommon) []dispatchTarget {
	targets := b.dispatchTargets(c.Method)
	if _, generic := types.Unalias(c.Value.Type()).(*types.TypeParam); generic || len(targets) == 0 {
		return targets
	}
	recv, ok := c.Value.Type().Underlying().(*types.Interface)
	if declared, _ := interfaceMethod(c.Method); !ok || recv == declared || !recv.IsMethodSet() {
		return targets
	}
	var out []dispatchTarget
	for _, t := range targets {
		if t.implements(recv) {
			out = append(out, t)
		}
	}
	return out
}

// implements reports whether the type whose method t is implements iface.
func (t dispatchTarget) implements(iface *types.Interface) bool {
	if t.remote != nil {
		return t.remote.typ.implements(iface)
	}
	named := receiverNamed(t.fn)
	return named != nil && types.Implements(types.NewPointer(named), iface)
}

// targetConverges reports whether the implementation t has a ConvergeFact.
func (b *builder) targetConverges(t dispatchTarget) bool {
	if t.remote != nil {
		return t.remote.converge != nil
	}
	return b.ownFact(t.fn, new(ConvergeFact))
}

// Facts learned through dispatch are context-free: remote.State.Lock calls
// s.Client.Lock, which the package of remote.State resolves to every
// implementation of its Client interface in the program, and the first
// one that locks (Consul's) gives State.Lock its role. A package that
// wraps a type of its own in that interface (a GCS backend calling
// remote.NewState(&gcsClient{...})) knows better: its calls reach its own
// implementation, so there the fact is replaced by what that
// implementation does, which may be nothing. It knows better only when
// those are all it has: a package that also gets implementations from
// elsewhere (an interface value another package's function returns, a
// conversion of another package's type) reaches them too. Atlas's cmdapi
// wraps the revision store another package opens for it in a dry-run type
// of its own that records nothing; its executor still records through the
// store it was given.

// reachableImpls returns, for a fact learned through dispatch to d, the
// package's own methods that stand for d instead: the methods d.Method,
// with d's signature, of the package's named types (outside _test.go
// files) that the package converts to an interface, when d's type is not
// one of them. ok is false when the fact stands as it is.
func (b *builder) reachableImpls(d Dispatch) (impls []*types.Func, ok bool) {
	if d.Type == "" || b.funcs == nil {
		return nil, false
	}
	key := d.Type + "." + d.Method + d.Sig
	if r, done := b.reachable[key]; done {
		return r.impls, r.ok
	}
	defer func() { b.reachable[key] = reachableResult{impls, ok} }()
	for _, named := range b.convertedTypes() {
		if typePath(named) == d.Type {
			return nil, false
		}
		if m := concreteMethod(named, b.pass.Pkg, d); m != nil {
			impls = append(impls, m)
		}
	}
	if len(impls) == 0 || b.getsForeignImpls(d) {
		return nil, false
	}
	return impls, true
}

// concreteMethod returns the method d.Method of *named, if it has d's
// signature and is no interface method promoted from an embedded field.
func concreteMethod(named *types.Named, from *types.Package, d Dispatch) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, from, d.Method)
	if m, isFunc := obj.(*types.Func); isFunc && !isAbstract(m) && signatureKey(m) == d.Sig {
		return m
	}
	return nil
}

// getsForeignImpls reports whether the package's code (outside _test.go
// files) gets a value that may run an implementation of d's method other
// than its own: it converts another package's type that has the method to
// an interface, or a function of another package (or a dynamic call)
// returns an interface that has it.
func (b *builder) getsForeignImpls(d Dispatch) bool {
	for _, fn := range b.funcs {
		if inTestFile(b.pass.Fset, fn.Pos()) {
			continue
		}
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch v := instr.(type) {
				case *ssa.MakeInterface:
					if named := namedOf(v.X.Type()); named != nil && named.Obj().Pkg() != b.pass.Pkg && concreteMethod(named, b.pass.Pkg, d) != nil {
						return true
					}
				case *ssa.Call:
					if callee := v.Common().StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == b.pass.Pkg {
						continue
					}
					if b.resultsHaveMethod(v.Type(), d) {
						return true
					}
				}
			}
		}
	}
	return false
}

// resultsHaveMethod reports whether t, a call's result or tuple of
// results, holds an interface with d's method.
func (b *builder) resultsHaveMethod(t types.Type, d Dispatch) bool {
	if tuple, ok := t.(*types.Tuple); ok {
		for v := range tuple.Variables() {
			if b.resultsHaveMethod(v.Type(), d) {
				return true
			}
		}
		return false
	}
	if !types.IsInterface(t) {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, b.pass.Pkg, d.Method)
	m, ok := obj.(*types.Func)
	return ok && signatureKey(m) == d.Sig
}

// namedOf returns the named type t is, or points to.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// builtWith returns, for a fact learned through dispatch to d that the
// method call c has, the implementations its receiver was built with
// instead: the receiver is what a call in the same function returned
// (migrate.NewExecutor(drv, dir, migrate.NopRevisionReadWriter{})), and
// every argument of that call that may carry an implementation of d's
// method converts a type other than d's to the interface. ok is false
// when the fact stands as it is. The object carries what it was built
// with: Atlas's planner replays migrations on an executor that records
// nothing, whatever its other executors record through.
func (b *builder) builtWith(c *ssa.CallCommon, d Dispatch) (impls []*types.Func, ok bool) {
	callee := c.StaticCallee()
	if d.Type == "" || callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 {
		return nil, false
	}
	recv := c.Args[0]
	if x, isExtract := recv.(*ssa.Extract); isExtract {
		recv = x.Tuple
	}
	ctor, isCall := recv.(*ssa.Call)
	if !isCall || ctor.Common().IsInvoke() {
		return nil, false
	}
	for _, arg := range ctor.Common().Args {
		if !b.resultsHaveMethod(arg.Type(), d) {
			continue
		}
		mi, isMake := arg.(*ssa.MakeInterface)
		if !isMake {
			return nil, false
		}
		named := namedOf(mi.X.Type())
		if named == nil || typePath(named) == d.Type {
			return nil, false
		}
		m := concreteMethod(named, b.pass.Pkg, d)
		if m == nil {
			return nil, false
		}
		impls = append(impls, m)
	}
	return impls, len(impls) > 0
}

// A reachableResult caches reachableImpls.
type reachableResult struct {
	impls []*types.Func
	ok    bool
}

// implFact reports whether one of impls has a fact of f's type, and if so
// copies the first there into f, naming the implementation.
func (b *builder) implFact(impls []*types.Func, f analysis.Fact) bool {
	for _, m := range impls {
		if !b.ownFact(m, f) {
			continue
		}
		name := implName(receiverNamed(m), m)
		switch d := f.(type) {
		case *WritesFact:
			d.What += ", via " + name
			d.Cases = viaCases(d.Cases, name)
			if len(impls) > 1 {
				d.Cases = nil // another implementation may write where this one does not
			}
		case *FencedByParamFact:
			d.What += ", via " + name
		case *RoleFact:
			if d.Role&dispatchedRoles == 0 {
				continue
			}
		}
		return true
	}
	return false
}

// convertedTypes returns the package's own named types (outside _test.go
// files) that its code converts to an interface, value or pointer, in a
// fixed order.
func (b *builder) convertedTypes() []*types.Named {
	if b.converted != nil {
		return *b.converted
	}
	seen := make(map[*types.Named]bool)
	var out []*types.Named
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok {
					continue
				}
				t := mi.X.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				named, ok := types.Unalias(t).(*types.Named)
				if !ok || seen[named] || named.Obj().Pkg() != b.pass.Pkg || inTestFile(b.pass.Fset, named.Obj().Pos()) {
					continue
				}
				seen[named] = true
				out = append(out, named)
			}
		}
	}
	slices.SortFunc(out, func(x, y *types.Named) int { return cmp.Compare(x.Obj().Name(), y.Obj().Name()) })
	b.converted = &out
	return out
}

// receiverNamed returns the named type of method m's receiver.
func receiverNamed(m *types.Func) *types.Named {
	t := m.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// factDispatch returns the Dispatch of a fact that has one.
func factDispatch(f analysis.Fact) Dispatch {
	switch f := f.(type) {
	case *WritesFact:
		return f.Dispatch
	case *FencedByParamFact:
		return f.Dispatch
	case *RoleFact:
		return f.Dispatch
	}
	return Dispatch{}
}

// sameImplLeases returns the leases held at w as w's implementation sees
// them. A lease taken by a call on an interface value (gc.LockForGCRun())
// and a write through the same value (gc.DeleteBeforeTx(...)) run on one
// dynamic type: the lock is that of an implementation that writes, named
// so (SpiceDB's PostgreSQL collector takes PostgreSQL's lock, not MySQL's),
// and if no writing implementation takes the lock, the write is under none.
func (b *builder) sameImplLeases(w *Write, held []*Lease) []*Lease {
	if w.Dispatch.Type == "" || !w.Call.Common().IsInvoke() {
		return held
	}
	out := held[:0:0]
	for _, l := range held {
		if l.Call == nil || !l.Call.Common().IsInvoke() || !sameValue(l.Call.Common().Value, w.Call.Common().Value, 0) {
			out = append(out, l)
			continue
		}
		if paired := b.pairedLease(w, l); paired != nil {
			out = append(out, paired)
		}
	}
	return out
}

// pairedLease returns lease l as taken by an implementation that also
// makes w's write (the one w names first, else another that writes
// unfenced, whose write w then names), or nil if none takes it.
func (b *builder) pairedLease(w *Write, l *Lease) *Lease {
	if paired := b.implLease(l, w.Dispatch.Type); paired != nil {
		return paired
	}
	for _, t := range b.dispatchTargets(w.Call.Common().Method) {
		role, wf, _ := b.targetFacts(t)
		if role != nil || wf == nil || t.impl == w.Dispatch {
			continue
		}
		if paired := b.implLease(l, t.impl.Type); paired != nil {
			w.Via, w.System, w.Dispatch = wf.What+", via "+t.name, wf.System, t.impl
			w.reachSites(wf, w.Call)
			return paired
		}
	}
	return nil
}

// implLease returns lease l, taken by a call through an interface, as the
// implementation on type typ takes it, or nil if that type's method does
// not acquire.
func (b *builder) implLease(l *Lease, typ string) *Lease {
	method := l.Call.Common().Method
	for _, t := range b.dispatchTargets(method) {
		if t.impl.Type != typ {
			continue
		}
		role, _, _ := b.targetFacts(t)
		if role == nil || role.Role&(RoleAcquire|RoleTryAcquire) == 0 {
			return nil
		}
		paired := *l
		paired.System = role.System
		paired.What = leaseName(callee{system: role.System, what: shortName(method) + " (via " + t.name + ")"})
		return &paired
	}
	return nil
}

package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Applications put a lock library's client behind an interface of their
// own, written against the library's types, so that tests can swap it:
//
//	type ZooKeeperClient interface {
//		Children(string) ([]string, *zk.Stat, error)
//		CreateProtectedEphemeralSequential(string, []byte, []zk.ACL) (string, error)
//		Delete(string, int32) error
//	}
//
// main wires the library's own type (*zk.Conn) in, so the program has no
// implementation that dispatch could follow (a fake for tests, which has
// no lease facts, does not count). A call through such an
// interface is a call of the library type's method when that type
// implements the interface and the interface's methods name the library's
// types (an interface that merely shares a method name with a library type,
// such as Close() error, names none).

// mirroredAPI returns the catalog row of the library method that a call of
// the interface method fn runs, when fn's interface mirrors a catalogued
// library type.
func (b *builder) mirroredAPI(fn *types.Func) (*API, *types.Func) {
	iface, ok := interfaceMethod(fn)
	if !ok || !b.ownInterface(fn) || b.implementedWithFacts(fn) {
		return nil, nil // an implementation of the program's own says what the call does
	}
	var found *types.Func
	for _, pkg := range signaturePackages(iface) {
		if !b.ix.knowsPath(pkg.Path()) {
			continue
		}
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || types.IsInterface(tn.Type()) {
				continue
			}
			ptr := types.NewPointer(tn.Type())
			if !types.Implements(ptr, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(ptr, true, pkg, fn.Name())
			m, ok := obj.(*types.Func)
			if !ok {
				continue
			}
			if found != nil && found != m {
				return nil, nil // two library types fit: which one main wires is not known
			}
			found = m
		}
	}
	if found == nil {
		return nil, nil
	}
	return b.ix.lookupFunc(found), found
}

// implementedWithFacts reports whether an implementation of fn in the
// program has lease facts (an in-memory fake for tests has none).
func (b *builder) implementedWithFacts(fn *types.Func) bool {
	for _, t := range b.dispatchTargets(fn) {
		if role, wf, fp := b.targetFacts(t); role != nil || wf != nil || fp != nil {
			return true
		}
	}
	return false
}

// signaturePackages returns the packages of the named types that iface's
// method signatures mention, in order of first mention.
func signaturePackages(iface *types.Interface) []*types.Package {
	var pkgs []*types.Package
	seen := make(map[*types.Package]bool)
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if depth > 4 {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && !seen[p] {
				seen[p] = true
				pkgs = append(pkgs, p)
			}
		case *types.Pointer:
			visit(t.Elem(), depth+1)
		case *types.Slice:
			visit(t.Elem(), depth+1)
		case *types.Array:
			visit(t.Elem(), depth+1)
		case *types.Chan:
			visit(t.Elem(), depth+1)
		case *types.Map:
			visit(t.Key(), depth+1)
			visit(t.Elem(), depth+1)
		}
	}
	for i := range iface.NumMethods() {
		sig := iface.Method(i).Signature()
		for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
			for j := range tuple.Len() {
				visit(tuple.At(j).Type(), 0)
			}
		}
	}
	return pkgs
}

// findLockNodes records the fields that keep the path of a node claimed
// with the ZooKeeper lock recipe (l.node, _ = conn.Create(path, nil,
// zk.FlagEphemeral|zk.FlagSequence, acl)): deleting that path, with any
// version, gives the lock up.
func (b *builder) findLockNodes() {
	for st, fa := range b.fieldStores() {
		ext, ok := st.Val.(*ssa.Extract)
		if !ok || ext.Index != 0 {
			continue
		}
		call, ok := ext.Tuple.(*ssa.Call)
		if !ok {
			continue
		}
		if c, ok := b.resolve(call.Common()); ok && c.system == ZooKeeper && c.role.Has(RoleTryAcquire) {
			if fv := originVar(fieldVar(fa.X.Type(), fa.Field)); fv != nil {
				b.lockNodes[fv] = true
			}
		}
	}
}

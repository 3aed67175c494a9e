package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Applications hide a lock library's lock behind a small interface of
// their own, and hand the library's lock out as that interface:
//
//	type Lock interface{ Unlock() error }
//
//	func (c *Client) AcquireLock(ctx context.Context, path string) (Lock, error) {
//		lock := zk.NewLock(c.conn, path, zk.WorldACL(zk.PermAll))
//		...
//		return lock, err // *zk.Lock converted to Lock
//	}
//
// Such an interface names none of the library's types, so it mirrors
// nothing (mirror.go), and the program has no implementation of its own to
// dispatch to. The conversion says what the calls run: where the package
// that declares the interface converts a catalogued library type to it,
// each interface method whose library method plays a lock role (acquire,
// release, renew, check) gets that role as a RoleFact, for this package and
// its importers. Two library types converted with different roles for one
// method give it none. A conversion made in another package than the
// interface's is not seen.

// lockRolesFromConversions gives the package's own interface methods the
// lock roles of the library methods behind the library types the package
// converts to those interfaces.
func (b *builder) lockRolesFromConversions() {
	roles := make(map[*types.Func]*RoleFact)
	conflicts := make(map[*types.Func]bool)
	b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
		mi, ok := instr.(*ssa.MakeInterface)
		if !ok {
			return
		}
		for m, f := range b.convertedLockRoles(mi) {
			if old := roles[m]; old != nil && (old.Role != f.Role || old.System != f.System) {
				conflicts[m] = true
			}
			roles[m] = f
		}
	})
	for m, f := range roles {
		if !conflicts[m] && b.dirs.roles[m] == 0 {
			b.setLocal(m, f)
		}
	}
}

// convertedLockRoles returns, for the conversion mi of a catalogued library
// type to an interface the package declares, the lock role each of that
// interface's methods plays through the library's method.
func (b *builder) convertedLockRoles(mi *ssa.MakeInterface) map[*types.Func]*RoleFact {
	named, ok := types.Unalias(mi.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != b.pass.Pkg {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	concrete := namedOf(mi.X.Type())
	if concrete == nil || concrete.Obj().Pkg() == nil || !b.ix.knowsPath(concrete.Obj().Pkg().Path()) {
		return nil
	}
	out := make(map[*types.Func]*RoleFact)
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if m.Pkg() != b.pass.Pkg {
			continue // embedded from another package: no fact can be set on it here
		}
		obj, _, _ := types.LookupFieldOrMethod(mi.X.Type(), true, concrete.Obj().Pkg(), m.Name())
		lib, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		api := b.ix.lookupFunc(lib)
		if api == nil || api.Role&(RoleAcquire|RoleTryAcquire|RoleRelease|RoleRenew|RoleCheck) == 0 {
			continue
		}
		out[m] = &RoleFact{Role: api.Role, System: api.System, What: shortName(m) + " (as " + apiName(lib, api) + ")", Held: api.Held}
	}
	return out
}

package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A lock-holding object holds a lease between two of its method calls:
//
//	func (c *Client) Lock(ctx context.Context) error   { ...pg_try_advisory_lock...; c.info = info; return nil }
//	func (c *Client) Unlock(ctx context.Context) error { ...pg_advisory_unlock(c.info.Path)... }
//	func (c *Client) Put(ctx context.Context, b []byte) error { ...INSERT ... ON CONFLICT DO UPDATE... }
//
// Its users call Lock, then the object's other methods, then Unlock (a
// state manager's Lock → Put → Unlock, often through interfaces). The
// other methods are written to run while the object holds the lease, so
// their writes are made under it, and are reported there, where the fence
// belongs. An object counts when one method returns with a lease it took
// still held and records it in the receiver (a field it stores), and
// another method releases a lease reading such a field: a method that
// locks and unlocks itself, or a lock whose key and token the caller
// carries (LockRoom(name) returning a token for UnlockRoom(name, token)),
// makes no lock-holding object. In a standalone run, a method that only
// tests call runs under the lock for nobody and is left out
// (programcallers.go); so is an unexported method that only the type's
// constructors call, on the object they are still building.

// findLockObjects gives the other methods of each lock-holding object of
// the package the lease its lock method leaves held, and reruns the region
// analysis over them.
func (b *builder) findLockObjects() {
	methods := make(map[*types.Named][]*ssa.Function)
	for _, fn := range b.funcs {
		if named := methodReceiver(fn); named != nil && declaredFunc(fn) != nil {
			methods[named] = append(methods[named], fn)
		}
	}
	var entered []*ssa.Function
	for _, named := range sortedNamed(methods) {
		fns := methods[named]
		for _, lock := range fns {
			l := b.leaseKeptAtReturn(lock)
			if l == nil {
				continue
			}
			stored := storedReceiverFields(lock)
			if len(stored) == 0 {
				continue
			}
			unlock := b.releasingMethod(fns, lock, stored)
			if unlock == nil {
				continue
			}
			held := b.addLease(&Lease{Kind: InCallback, System: l.System, Pos: l.Pos, Fn: lock, Call: l.Call,
				Session: l.Session, What: fmt.Sprintf("%s in %s, which the %s keeps until %s",
					l.What, shortName(declaredFunc(lock)), named.Obj().Name(), shortName(declaredFunc(unlock)))})
			for _, fn := range fns {
				if fn == lock || fn == unlock || b.lockRoleOf(fn) != 0 || calls(fn, lock, unlock) ||
					!b.prog.calledOutsideTests(declaredFunc(fn)) || b.calledOnlyWhileBuilt(fn, named, lock) {
					continue
				}
				b.regions.entry[fn] = b.regions.entry[fn].with(held)
				entered = append(entered, fn)
			}
		}
	}
	if len(entered) == 0 {
		return
	}
	for _, fn := range b.funcs { // parents before closures, as in findLeases
		if slices.Contains(entered, outermost(fn)) {
			b.flow(fn)
		}
	}
}

// calledOnlyWhileBuilt reports whether fn, an unexported method of named,
// is called only by the package's constructors of named, on the object
// they are building (NewMember calls m.setupCluster() before it returns
// &m), none of which calls the lock method: no one can have taken the
// object's lock yet.
func (b *builder) calledOnlyWhileBuilt(fn *ssa.Function, named *types.Named, lock *ssa.Function) bool {
	decl := declaredFunc(fn)
	if decl == nil || decl.Exported() {
		return false
	}
	called := false
	for _, caller := range b.funcs {
		for _, blk := range caller.Blocks {
			for _, instr := range blk.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn.(*ssa.Function).Object() == decl {
					return false // a method value: called from anywhere
				}
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != fn {
					continue
				}
				if _, built := unwrap(callRecv(call.Common())).(*ssa.Alloc); !built || !constructs(caller, named) || calls(caller, lock) {
					return false
				}
				called = true
			}
		}
	}
	return called
}

// constructs reports whether fn is a package-level function that returns
// a named (or a pointer to one): a constructor.
func constructs(fn *ssa.Function, named *types.Named) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil {
		return false
	}
	res := fn.Signature.Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Origin() == named.Origin() {
			return true
		}
	}
	return false
}

// leaseKeptAtReturn returns a lease that fn acquires itself and may still
// hold where it returns without an error, or nil.
func (b *builder) leaseKeptAtReturn(fn *ssa.Function) *Lease {
	if b.defersRelease(fn) {
		return nil // the flow keeps a deferred release's lease held up to the return
	}
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || returnsError(fn, ret) {
			continue
		}
		for _, l := range b.heldBefore(ret) {
			if (l.Kind == Acquired || l.Kind == Declared) && l.Fn != nil && outermost(l.Fn) == fn {
				return l
			}
		}
	}
	return nil
}

// defersRelease reports whether fn defers a release (defer m.Unlock(),
// defer func() { ...pg_advisory_unlock... }()).
func (b *builder) defersRelease(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if c, ok := b.resolve(d.Common()); ok && c.role.Has(RoleRelease) {
				return true
			}
			if f := d.Common().StaticCallee(); f != nil && f.Parent() == fn && b.releasesIn(f) {
				return true
			}
		}
	}
	return false
}

// releasesIn reports whether the closure f releases a lease.
func (b *builder) releasesIn(f *ssa.Function) bool {
	for call, c := range b.resolvedCalls(f) {
		if c.role.Has(RoleRelease) {
			return true
		}
		if c.api != nil && (c.api.Fence == SQLQuery || c.api.Fence == SQLBuilder) && b.sqlOps(call.Common(), c.api).releases {
			return true
		}
	}
	return false
}

// returnsError reports whether ret returns an error that may be non-nil.
func returnsError(fn *ssa.Function, ret *ssa.Return) bool {
	res := fn.Signature.Results()
	for i := range res.Len() {
		if i < len(ret.Results) && isError(ret.Results[i]) && !isNilConst(returnedValue(ret, ret.Results[i])) {
			return true
		}
	}
	return false
}

// returnedValue sees through the result slot a function with defers
// returns from: the value stored there last in ret's block.
func returnedValue(ret *ssa.Return, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := ret.Block().Instrs
	for i := len(instrs) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
}

// releasingMethod returns the method of fns other than lock that releases
// a lease and reads one of the receiver fields lock stores, or nil.
func (b *builder) releasingMethod(fns []*ssa.Function, lock *ssa.Function, stored map[int]bool) *ssa.Function {
	for _, fn := range fns {
		if fn == lock || !b.lockRoleOf(fn).Has(RoleRelease) {
			continue
		}
		for f := range readReceiverFields(fn) {
			if stored[f] {
				return fn
			}
		}
	}
	return nil
}

// lockRoleOf returns the lock role a declared function plays (its RoleFact).
func (b *builder) lockRoleOf(fn *ssa.Function) Role {
	if obj := declaredFunc(fn); obj != nil {
		if f := b.roleFact(obj); f != nil {
			return f.Role
		}
	}
	return 0
}

// methodReceiver returns the named type of fn's receiver (T or *T), if fn
// is a method.
func methodReceiver(fn *ssa.Function) *types.Named {
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, _ := t.(*types.Named)
	return named
}

// storedReceiverFields returns the fields of fn's receiver that fn (or a
// closure of it) stores into.
func storedReceiverFields(fn *ssa.Function) map[int]bool {
	fields := make(map[int]bool)
	receiverFieldAddrs(fn, func(fa *ssa.FieldAddr) {
		for _, ref := range *fa.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == fa {
				fields[fa.Field] = true
			}
		}
	})
	return fields
}

// readReceiverFields returns the fields of fn's receiver that fn reads.
func readReceiverFields(fn *ssa.Function) map[int]bool {
	fields := make(map[int]bool)
	receiverFieldAddrs(fn, func(fa *ssa.FieldAddr) {
		for _, ref := range *fa.Referrers() {
			if st, ok := ref.(*ssa.Store); !ok || st.Addr != fa {
				fields[fa.Field] = true
			}
		}
	})
	return fields
}

// receiverFieldAddrs calls visit for each address of a field of fn's
// (pointer) receiver taken in fn or its closures. A receiver a closure
// captures lives in a local cell, loaded at each use.
func receiverFieldAddrs(fn *ssa.Function, visit func(*ssa.FieldAddr)) {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return
	}
	recv := fn.Params[0]
	cells := []ssa.Value{recv}
	for _, ref := range *recv.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == recv {
			if a, ok := st.Addr.(*ssa.Alloc); ok {
				cells = append(cells, a)
			}
		}
	}
	var walk func(f *ssa.Function, cells []ssa.Value)
	walk = func(f *ssa.Function, cells []ssa.Value) {
		isRecv := func(v ssa.Value) bool {
			if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
				v = load.X
			}
			return slices.Contains(cells, v)
		}
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.FieldAddr:
					if isRecv(x.X) {
						visit(x)
					}
				case *ssa.MakeClosure:
					inner := x.Fn.(*ssa.Function)
					var bound []ssa.Value
					for i, v := range x.Bindings {
						if slices.Contains(cells, v) && i < len(inner.FreeVars) {
							bound = append(bound, inner.FreeVars[i])
						}
					}
					if len(bound) > 0 {
						walk(inner, bound)
					}
				}
			}
		}
	}
	walk(fn, cells)
}

// sortedNamed returns the keys of m in source order, for determinism.
func sortedNamed(m map[*types.Named][]*ssa.Function) []*types.Named {
	keys := make([]*types.Named, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y *types.Named) int { return int(x.Obj().Pos() - y.Obj().Pos()) })
	return keys
}

// calls reports whether fn calls one of targets directly.
func calls(fn *ssa.Function, targets ...*ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && slices.Contains(targets, c.Common().StaticCallee()) {
				return true
			}
		}
	}
	return false
}

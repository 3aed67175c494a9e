package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A write through an object its function built itself (the result of a
// constructor, a composite literal, new) is not guarded by a lease that the
// same function also writes through that object without: before taking it,
// or on the path where taking it failed. The program itself writes that
// object's data unlocked (a task's own log, its status record), so the
// lease is not what guards it and the place to fence it, if anywhere, is
// not the lease region. Only objects the function made count: a store
// handle it was given (a parameter, a receiver's field, a global, anything
// loaded from shared state) written outside the lease says nothing about
// the writes under it.

// ownObjectLeases returns, for each write made through an object its
// function built and also writes through where a lease it holds is not
// held, the leases of its Held that guard it (possibly none).
func (b *builder) ownObjectLeases() map[*Write][]*Lease {
	byObject := make(map[ssa.Value][]*Write)
	for _, w := range b.model.Writes {
		if w.LockImpl {
			continue
		}
		if obj := b.ownObject(w.Fn, callRecv(w.Call.Common())); obj != nil {
			byObject[obj] = append(byObject[obj], w)
		}
	}
	var guarding map[*Write][]*Lease
	for obj, writes := range byObject {
		for _, w := range writes {
			if w.Via == "" || len(w.Held) == 0 {
				continue // a store API called directly is a store handle's write
			}
			kept := slices.DeleteFunc(slices.Clone(w.Held), func(l *Lease) bool {
				return b.ownObject(w.Fn, l.Holder) != obj && writtenWithout(writes, l)
			})
			if len(kept) == len(w.Held) {
				continue
			}
			if guarding == nil {
				guarding = make(map[*Write][]*Lease)
			}
			guarding[w] = kept
		}
	}
	return guarding
}

// writtenWithout reports whether one of writes is made where l is not held.
func writtenWithout(writes []*Write, l *Lease) bool {
	return slices.ContainsFunc(writes, func(w *Write) bool { return !slices.Contains(w.Held, l) })
}

// ownObject returns what identifies the object v is, when fn built it: the
// constructor call or composite literal that made it, or the local variable
// that only ever holds such an object (and nil). It returns nil for
// anything else: parameters, fields, globals, values loaded from memory
// fn does not own, results of methods (a transaction, a connection).
func (b *builder) ownObject(fn *ssa.Function, v ssa.Value) ssa.Value {
	if v == nil {
		return nil
	}
	v = unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if vr, ok := load.X.(*ssa.Alloc); ok && vr.Parent() == fn && b.holdsOnlyOwn(fn, vr) {
			return vr
		}
		return nil
	}
	if b.built(fn, v) {
		return v
	}
	return nil
}

// built reports whether v is an object fn makes: a composite literal, a
// new, or the result of a package-level function of a package the catalog
// does not know (a constructor of the application's, not a store client's).
func (b *builder) built(fn *ssa.Function, v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x.Parent() == fn && (x.Comment == "complit" || x.Comment == "new")
	case *ssa.Call:
		if x.Parent() != fn {
			return false
		}
		callee := x.Common().StaticCallee()
		if callee == nil || callee.Signature.Recv() != nil || callee.Parent() != nil {
			return false
		}
		obj, ok := callee.Object().(*types.Func)
		return ok && obj.Pkg() != nil && !b.ix.knowsPath(obj.Pkg().Path())
	}
	return false
}

// holdsOnlyOwn reports whether the local variable vr (an Alloc of a
// pointer or interface) is only ever assigned nil or one object fn built,
// and nothing but loads use it: its address is not handed on, and the
// closures that capture it only read it.
func (b *builder) holdsOnlyOwn(fn *ssa.Function, vr *ssa.Alloc) bool {
	stored := 0
	for _, ref := range *vr.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != vr {
				return false // the variable's address is stored somewhere
			}
			if c, ok := r.Val.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if stored++; stored > 1 || !b.built(fn, unwrap(r.Val)) {
				return false
			}
		case *ssa.MakeClosure:
			if !onlyReadIn(r, vr) {
				return false
			}
		default:
			return false
		}
	}
	return stored == 1
}

// onlyReadIn reports whether the closure mc makes only loads from the
// variable vr it captures.
func onlyReadIn(mc *ssa.MakeClosure, vr *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, bound := range mc.Bindings {
		if bound != vr {
			continue
		}
		if i >= len(fn.FreeVars) {
			return false
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			switch r := ref.(type) {
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

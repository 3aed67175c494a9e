package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A write through an object its function built itself (the result of a
// constructor, a composite literal, new) is not guarded by a lease that the
// same function also makes that write through that object without (the
// same inner write, Write.Via): before taking it, or on the path where
// taking it failed. Another write through the object says nothing: a
// store wrapper built in the function (q := db.New(conn)) writes many
// things. The program itself writes that
// object's data unlocked (a task's own log, its status record), so the
// lease is not what guards it and the place to fence it, if anywhere, is
// not the lease region. Only objects the function made count: a store
// handle it was given (a parameter, a receiver's field, a global, anything
// loaded from shared state) written outside the lease says nothing about
// the writes under it. Nor does a write after the lease is released: any
// store is written unlocked once the work is done.

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
	type fnLease struct {
		fn *ssa.Function
		l  *Lease
	}
	releases := make(map[fnLease][]ssa.Instruction)
	for obj, writes := range byObject {
		for _, w := range writes {
			if w.Via == "" || len(w.Held) == 0 {
				continue // a store API called directly is a store handle's write
			}
			kept := slices.DeleteFunc(slices.Clone(w.Held), func(l *Lease) bool {
				if b.ownObject(w.Fn, l.Holder) == obj {
					return false // the lock object's own writes
				}
				rel, ok := releases[fnLease{w.Fn, l}]
				if !ok {
					rel = b.releasesOf(w.Fn, l)
					releases[fnLease{w.Fn, l}] = rel
				}
				return slices.ContainsFunc(writes, func(o *Write) bool {
					return o.Via == w.Via && !slices.Contains(o.Held, l) && !reachedFrom(rel, o.Call)
				})
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

// releasesOf returns the instructions of fn that release l.
func (b *builder) releasesOf(fn *ssa.Function, l *Lease) []ssa.Instruction {
	var rel []ssa.Instruction
	for _, blk := range fn.Blocks {
		state := b.regions.in[blk].union(b.regions.checked[blk])
		for _, instr := range blk.Instrs {
			next := b.transfer(instr, state)
			if slices.Contains(state, l) && !slices.Contains(next, l) {
				rel = append(rel, instr)
			}
			state = next
		}
	}
	return rel
}

// reachedFrom reports whether instr may run after one of from, in the
// same function.
func reachedFrom(from []ssa.Instruction, instr ssa.Instruction) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var work []*ssa.BasicBlock
	for _, f := range from {
		blk := f.Block()
		if blk == instr.Block() && slices.Index(blk.Instrs, f) < slices.Index(blk.Instrs, instr) {
			return true
		}
		work = append(work, blk.Succs...)
	}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		if blk == instr.Block() {
			return true
		}
		seen[blk] = true
		work = append(work, blk.Succs...)
	}
	return false
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
		vr, ok := load.X.(*ssa.Alloc)
		if !ok || vr.Parent() != fn {
			return nil
		}
		if isStructVar(vr) && b.built(fn, vr) || b.holdsOnlyOwn(fn, vr) {
			return vr // a struct kept by value, or the one object a variable holds
		}
		return nil
	}
	if b.built(fn, v) {
		return v
	}
	return nil
}

// built reports whether v is an object fn makes: a composite literal, a
// new, a local struct variable assigned nothing but literals, or the
// result of a package-level function of a package the catalog does not
// know (a constructor of the application's, not a store client's).
func (b *builder) built(fn *ssa.Function, v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		if x.Parent() != fn {
			return false
		}
		return x.Comment == "complit" || x.Comment == "new" || isStructVar(x) && assignedLiterals(fn, x)
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

// isStructVar reports whether the local variable vr holds a struct value.
func isStructVar(vr *ssa.Alloc) bool {
	ptr, ok := vr.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = ptr.Elem().Underlying().(*types.Struct)
	return ok
}

// assignedLiterals reports whether the struct variable vr is assigned, as
// a whole, only constants (its zero value) and composite literals of fn:
// its fields are filled in place, not copied from shared state.
func assignedLiterals(fn *ssa.Function, vr *ssa.Alloc) bool {
	for _, ref := range *vr.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != vr {
			continue
		}
		switch val := st.Val.(type) {
		case *ssa.Const:
		case *ssa.UnOp:
			lit, ok := val.X.(*ssa.Alloc)
			if val.Op != token.MUL || !ok || lit.Parent() != fn || lit.Comment != "complit" {
				return false
			}
		default:
			return false
		}
	}
	return true
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

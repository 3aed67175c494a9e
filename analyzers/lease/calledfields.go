package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Applications keep the work a lease runs in fields of their own, filled
// by a registration method, and call them from the region:
//
//	func (m *member) RegisterHandler(h Handler) { m.handlers = append(m.handlers, h) }
//	...
//	if err := m.mutex.TryLock(ctx); err == nil { m.execHandlers(ctx, becameLeader) }
//	...
//	func (m *member) execHandlers(ctx context.Context, ev Event) {
//		for _, h := range m.handlers { h(ctx, ev) }
//	}
//
// A func-valued field that a region calls, itself or through a function of
// the package it calls, is a callback field as LeaderCallbacks.OnStartedLeading
// is: what is stored, appended or set there runs while the lease is held,
// and a method that puts its parameter there has a callback parameter, so
// the package that registers its handler through it (often through an
// interface, wired in main) runs the handler under the lease.

// findCalledFields records the package's func-valued fields called while a
// lease is held, gives the functions stored in them that lease, and
// reports whether any field was new.
func (b *builder) findCalledFields() bool {
	memo := make(map[*ssa.Function][]*types.Var)
	var found []*types.Var
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		fields := b.fieldsCalledAt(call, memo)
		if len(fields) == 0 {
			return true
		}
		held := b.heldBefore(call)
		if len(held) == 0 {
			return true
		}
		for _, fv := range fields {
			if b.cbFields[fv] != nil {
				continue
			}
			b.cbFields[fv] = &CallbackFieldFact{System: held[0].System, What: heldBy(held[0].What, fn.Name())}
			found = append(found, fv)
		}
		return true
	})
	if len(found) == 0 {
		return false
	}
	b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
		if fv, _ := fieldStoreOf(instr); fv != nil && slices.Contains(found, fv) {
			b.callbackField(instr)
		}
	})
	return true
}

// fieldsCalledAt returns the package's fields whose func values call runs:
// the field it calls, or those the package's function it calls runs.
func (b *builder) fieldsCalledAt(call ssa.CallInstruction, memo map[*ssa.Function][]*types.Var) []*types.Var {
	c := call.Common()
	if c.IsInvoke() {
		return nil
	}
	if fv := calledField(c.Value, b.pass.Pkg); fv != nil {
		return []*types.Var{fv}
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != b.pass.Pkg {
		return nil
	}
	return b.fieldsCalledIn(callee, memo)
}

// fieldsCalledIn returns the package's fields whose func values fn runs,
// itself or through the package's functions it calls.
func (b *builder) fieldsCalledIn(fn *ssa.Function, memo map[*ssa.Function][]*types.Var) []*types.Var {
	if fields, ok := memo[fn]; ok {
		return fields
	}
	memo[fn] = nil // a cycle adds nothing
	var fields []*types.Var
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for _, fv := range b.fieldsCalledAt(call, memo) {
				if !slices.Contains(fields, fv) {
					fields = append(fields, fv)
				}
			}
		}
	}
	memo[fn] = fields
	return fields
}

// calledField returns the field of a struct declared in pkg whose func
// value v is: the field itself (s.f), an element of the slice or map it
// holds (s.hs[i], s.byName[k]) or of a copy of that slice, or one ranged
// over (for _, h := range s.hs).
func calledField(v ssa.Value, pkg *types.Package) *types.Var {
	var fv *types.Var
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		switch addr := x.X.(type) {
		case *ssa.FieldAddr:
			fv = fieldVar(addr.X.Type(), addr.Field)
		case *ssa.IndexAddr:
			fv = copiedField(addr.X)
		}
	case *ssa.Field:
		fv = fieldVar(x.X.Type(), x.Field)
	case *ssa.Index:
		fv = copiedField(x.X)
	case *ssa.Lookup:
		fv = loadedField(x.X)
	case *ssa.Extract:
		if next, ok := x.Tuple.(*ssa.Next); ok && x.Index == 2 {
			if rng, ok := next.Iter.(*ssa.Range); ok {
				fv = loadedField(rng.X)
			}
		}
	}
	fv = originVar(fv)
	if fv == nil || fv.Pkg() != pkg {
		return nil
	}
	return fv
}

// copiedField returns the field whose slice v is: loaded from it, or a
// copy of it taken to call its funcs outside a mutex (cbs := make([]F,
// len(s.cbs)); copy(cbs, s.cbs), or append([]F(nil), s.cbs...)).
func copiedField(v ssa.Value) *types.Var {
	if fv := loadedField(v); fv != nil {
		return fv
	}
	switch x := v.(type) {
	case *ssa.MakeSlice:
		for _, ref := range *x.Referrers() {
			if c, ok := ref.(*ssa.Call); ok && isBuiltin(c, "copy") && len(c.Call.Args) == 2 && c.Call.Args[0] == x {
				return loadedField(c.Call.Args[1])
			}
		}
	case *ssa.Call:
		if isBuiltin(x, "append") && len(x.Call.Args) == 2 && isConst(x.Call.Args[0]) {
			return loadedField(x.Call.Args[1])
		}
	}
	return nil
}

// isBuiltin reports whether call calls the builtin name.
func isBuiltin(call *ssa.Call, name string) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

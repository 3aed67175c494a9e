package lease

import (
	"fmt"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Applications keep their leader-election callbacks in a config struct of
// their own and copy them into the library's callbacks later:
//
//	type Config struct{ OnStarted func(ctx context.Context) }
//	...LeaderCallbacks{OnStartedLeading: cfg.OnStarted}
//
// The field OnStarted is then a callback field like OnStartedLeading: a
// function stored there (Config{OnStarted: s.reconcile}), in this package
// or, through CallbackFieldFact, in another, runs while the lease is held.

// CallbackFieldFact: func values stored in this struct field run while a
// lease is held: they are copied into a library callback, or a region
// calls them (calledfields.go).
type CallbackFieldFact struct {
	System System
	What   string // "the Kubernetes leader election lease (OnStartedLeading, via Config.OnStarted)"
}

func (*CallbackFieldFact) AFact() {}
func (f *CallbackFieldFact) String() string {
	return "callback field: " + f.What
}

// findCallbackFields records the package's struct fields whose value is
// stored into a callback field (a library's, or one found before), until
// nothing changes.
func (b *builder) findCallbackFields() {
	b.findTaskFields()
	for changed := true; changed; {
		changed = false
		b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
			vals, cp, ok := b.storedCallback(instr)
			if !ok {
				return
			}
			for _, v := range vals {
				from := loadedField(v)
				if from == nil || from.Pkg() != b.pass.Pkg || b.cbFields[from] != nil {
					continue
				}
				b.cbFields[from] = &CallbackFieldFact{System: cp.system, What: cp.what}
				changed = true
			}
		})
	}
}

// storedCallback reports whether instr puts func values into a callback
// field, a library's or an application's: the values, and the lease their
// functions run under.
func (b *builder) storedCallback(instr ssa.Instruction) ([]ssa.Value, callbackParam, bool) {
	if st, ok := instr.(*ssa.Store); ok {
		if api := b.callbackFieldAPI(st); api != nil {
			return []ssa.Value{st.Val}, callbackParam{system: api.System, what: fmt.Sprintf("the %s lease (%s)", api.System, api.Name)}, true
		}
	}
	fv, vals := fieldStoreOf(instr)
	if fv == nil {
		return nil, callbackParam{}, false
	}
	if f := b.callbackFieldFact(fv); f != nil {
		return vals, callbackParam{system: f.System, what: f.What}, true
	}
	return nil, callbackParam{}, false
}

// fieldStoreOf returns the struct field instr puts values into and the
// values: stored in it (s.f = v), appended to the slice it holds
// (s.hs = append(s.hs, v, w)), or set at an index of the slice or a key
// of the map it holds (s.hs[i] = v, s.byName[k] = v).
func fieldStoreOf(instr ssa.Instruction) (*types.Var, []ssa.Value) {
	switch x := instr.(type) {
	case *ssa.Store:
		switch addr := x.Addr.(type) {
		case *ssa.FieldAddr:
			fv := originVar(fieldVar(addr.X.Type(), addr.Field))
			if fv == nil {
				return nil, nil
			}
			if appended, ok := appendedTo(fv, x.Val); ok {
				return fv, appended
			}
			return fv, []ssa.Value{x.Val}
		case *ssa.IndexAddr:
			if fv := loadedField(addr.X); fv != nil {
				return fv, []ssa.Value{x.Val}
			}
		}
	case *ssa.MapUpdate:
		if fv := loadedField(x.Map); fv != nil {
			return fv, []ssa.Value{x.Value}
		}
	}
	return nil, nil
}

// appendedTo returns the values v appends to the slice field fv holds,
// when v is append(s.f, a, b, ...).
func appendedTo(fv *types.Var, v ssa.Value) ([]ssa.Value, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	if !isBuiltin(call, "append") || len(call.Call.Args) != 2 {
		return nil, false
	}
	if loadedField(call.Call.Args[0]) != fv {
		return nil, false
	}
	elems, ok := variadic(call.Call.Args[1])
	return slices.DeleteFunc(elems, func(e ssa.Value) bool { return e == nil }), ok
}

// callbackFieldFact returns what is known of fv as a callback field, or nil.
func (b *builder) callbackFieldFact(fv *types.Var) *CallbackFieldFact {
	fv = fv.Origin()
	if fv.Pkg() == b.pass.Pkg {
		return b.cbFields[fv]
	}
	var f CallbackFieldFact
	if fv.Pkg() != nil && b.pass.ImportObjectFact(fv, &f) {
		return &f
	}
	return nil
}

// loadedField returns the struct field v is read from (cfg.OnStarted, of a
// pointer or of a value), or nil.
func loadedField(v ssa.Value) *types.Var {
	switch x := unwrap(v).(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			return originVar(fieldVar(fa.X.Type(), fa.Field))
		}
	case *ssa.Field:
		return originVar(fieldVar(x.X.Type(), x.Field))
	}
	return nil
}

func originVar(v *types.Var) *types.Var {
	if v == nil {
		return nil
	}
	return v.Origin()
}

// exportCallbackFields exports the package's callback fields.
func (b *builder) exportCallbackFields() bool {
	for fv, f := range b.cbFields {
		b.pass.ExportObjectFact(fv, f)
	}
	return len(b.cbFields) > 0
}

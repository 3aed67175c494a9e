package lease

import (
	"fmt"
	"go/types"

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

// CallbackFieldFact: func values stored in this struct field are copied
// into a library callback that runs while a lease is held.
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
	for changed := true; changed; {
		changed = false
		b.instrs(func(_ *ssa.Function, instr ssa.Instruction) {
			st, ok := instr.(*ssa.Store)
			if !ok {
				return
			}
			from := loadedField(st.Val)
			if from == nil || from.Pkg() != b.pass.Pkg || b.cbFields[from] != nil {
				return
			}
			if cp, ok := b.storedCallback(st); ok {
				b.cbFields[from] = &CallbackFieldFact{System: cp.system, What: cp.what}
				changed = true
			}
		})
	}
}

// storedCallback reports whether st stores into a callback field, a
// library's or an application's, and the lease its function runs under.
func (b *builder) storedCallback(st *ssa.Store) (callbackParam, bool) {
	if api := b.callbackFieldAPI(st); api != nil {
		return callbackParam{system: api.System, what: fmt.Sprintf("the %s lease (%s)", api.System, api.Name)}, true
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return callbackParam{}, false
	}
	fv := fieldVar(fa.X.Type(), fa.Field)
	if fv == nil {
		return callbackParam{}, false
	}
	if f := b.callbackFieldFact(fv); f != nil {
		return callbackParam{system: f.System, what: f.What}, true
	}
	return callbackParam{}, false
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

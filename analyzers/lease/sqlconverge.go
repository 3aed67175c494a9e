package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/sqlscan"
)

// An upsert of a constant definition needs no fence. Harness registers its
// built-in recurring jobs under a redsync lock like this:
//
//	s.store.Upsert(ctx, &Job{UID: "purge", Type: "purge", RecurringCron: "15 */4 * * *", ...})
//
//	INSERT INTO jobs (...) VALUES (:job_uid, :job_type, ..., :job_recurring_cron)
//	ON CONFLICT (job_uid) DO UPDATE SET job_type = :job_type, ..., job_scheduled = :job_scheduled
//	WHERE jobs.job_type <> :job_type OR ... OR jobs.job_recurring_cron <> :job_recurring_cron
//
// The DO UPDATE applies only where the row's definition differs from the
// one inserted (sqlscan's Converges), and every holder inserts the same
// constant definition: once one holder wrote it, another's copy matches
// and changes nothing, so a stale holder overwrites nothing. Precisely,
// such an upsert (each ORed condition compares a column with the value
// inserted into it, <>, != or IS DISTINCT FROM) is fenced when every value
// compared is a constant: a literal in the text, a Go constant bound to
// its placeholder, a struct field that the struct literal handed to the
// write sets to a constant (sqlx's :name placeholders, by db tag), or a
// constant step from one (int(maxDur / time.Second)). When the values come
// from the function's parameters, the function gets a ConvergeFact and its
// callers are judged the same way with their arguments. A definition
// computed at run time (a time, a value read from the store) may differ
// between holders, and the upsert is reported.

// A ParamField is a parameter (receiver excluded) of a function, or the
// field of it (a struct or a pointer to one) called Field.
type ParamField struct {
	Param int
	Field string
}

// ConvergeFact: the function's only unfenced writes are upserts that
// change nothing when the definition they write is the same: they need no
// fence when every one of Values is a constant at the call.
type ConvergeFact struct {
	System System
	Values []ParamField
	What   string
	// Dispatch: as in WritesFact.
	Dispatch Dispatch
	// LeaseKey: the writes are INSERTs under a unique key built from
	// Values (leasekeys.go), which may also be built from the key of a
	// lease held at the call: every write of the function is one.
	LeaseKey bool
}

func (*ConvergeFact) AFact() {}
func (f *ConvergeFact) String() string {
	return fmt.Sprintf("converges on params %v: %s", f.Values, f.What)
}

// convergeValues judges the values a converging upsert compares: rule
// "definition upsert" when all are constants, or the parameters they come
// from (ok) when some come from fn's parameters and the rest are constants.
func (b *builder) convergeValues(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) (params []ParamField, ok bool) {
	fn := call.Parent()
	for _, p := range st.Differs {
		v := boundValue(p, text, args, argsKnown)
		if v == nil && p.Name != "" {
			if s := namedStruct(call); s != nil {
				if f := taggedField(s.Type(), p.Name); f != "" {
					v, params, ok = definitionField(s, f, fn, call, params)
					if !ok {
						return nil, false
					}
					continue
				}
			}
		}
		if v == nil {
			return nil, false
		}
		if params, ok = definitionValue(v, fn, params); !ok {
			return nil, false
		}
	}
	return params, true
}

// constantDefinition reports whether st is a converging upsert whose
// compared values are all constants.
func (b *builder) constantDefinition(st *sqlscan.Statement, text sqlText, args []ssa.Value, argsKnown bool, call ssa.CallInstruction) bool {
	params, ok := b.convergeValues(st, text, args, argsKnown, call)
	return ok && len(params) == 0
}

// definitionField judges field f of the struct s (or pointer to one)
// handed to call: a parameter's field, or the value the struct literal
// built in fn stores there.
func definitionField(s ssa.Value, f string, fn *ssa.Function, call ssa.CallInstruction, params []ParamField) (ssa.Value, []ParamField, bool) {
	x := unwrap(s)
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		x = load.X
	}
	if p, ok := x.(*ssa.Parameter); ok {
		if i := paramIndex(fn, p); i >= 0 {
			return nil, appendParam(params, ParamField{i, f}), true
		}
		return nil, nil, false
	}
	alloc, ok := x.(*ssa.Alloc)
	if !ok {
		return nil, nil, false
	}
	v, ok := onlyStore(alloc, f, call)
	if !ok {
		return nil, nil, false
	}
	if v == nil {
		return nil, params, true // never stored: the zero value
	}
	params, ok = definitionValue(v, fn, params)
	return v, params, ok
}

// definitionValue judges one compared value: a constant, a constant step
// from one, or a parameter of fn (recorded in params).
func definitionValue(v ssa.Value, fn *ssa.Function, params []ParamField) ([]ParamField, bool) {
	for depth := 0; depth < 6; depth++ {
		switch x := unwrap(v).(type) {
		case *ssa.Const:
			return params, true
		case *ssa.Convert, *ssa.BinOp:
			v = throughConstStep(x) // nil, refused below, for a step between two variables
		case *ssa.Parameter:
			if i := paramIndex(fn, x); i >= 0 {
				return appendParam(params, ParamField{Param: i}), true
			}
			return nil, false
		default:
			return nil, false
		}
	}
	return nil, false
}

// onlyStore returns the one value stored into field f of alloc, a struct
// that nothing but call is handed (nil if none is: the field keeps its
// zero value); ok is false for a struct stored into twice, or handed to
// anything else.
func onlyStore(alloc *ssa.Alloc, f string, call ssa.CallInstruction) (val ssa.Value, ok bool) {
	for _, ref := range referrers(alloc) {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if fieldName(r.X.Type(), r.Field) != f {
				continue
			}
			for _, u := range referrers(r) {
				switch x := u.(type) {
				case *ssa.Store:
					if x.Addr != r || val != nil {
						return nil, false
					}
					val = x.Val
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return nil, false // &job.Data handed on: filled out of sight
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case ssa.CallInstruction:
			if r != call {
				return nil, false
			}
		default:
			if !isMakeInterfaceFor(r, call) {
				return nil, false
			}
		}
	}
	return val, true
}

// isMakeInterfaceFor reports whether instr converts a value to an
// interface that only call takes.
func isMakeInterfaceFor(instr ssa.Instruction, call ssa.CallInstruction) bool {
	mi, ok := instr.(*ssa.MakeInterface)
	if !ok {
		return false
	}
	for _, u := range referrers(mi) {
		if c, ok := u.(ssa.CallInstruction); !ok || c != call {
			return false
		}
	}
	return true
}

func appendParam(params []ParamField, p ParamField) []ParamField {
	if slices.Contains(params, p) {
		return params
	}
	return append(params, p)
}

// taggedField returns the name of the field of the struct t (or *t) that
// sqlx binds to :name: its db tag, else its lower-cased name.
func taggedField(t types.Type, name string) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := range s.NumFields() {
		tag, _, _ := strings.Cut(reflect.StructTag(s.Tag(i)).Get("db"), ",")
		if tag == name || tag == "" && strings.ToLower(s.Field(i).Name()) == name {
			return s.Field(i).Name()
		}
	}
	return ""
}

// convergeCall judges a call of a function with a ConvergeFact: fenced
// when every value is a constant at the call, judged again by fn's caller
// when some come from fn's parameters, and unfenced otherwise.
func (b *builder) convergeCall(w *Write, fn *ssa.Function, call ssa.CallInstruction, cf *ConvergeFact) {
	var params []ParamField
	for _, pf := range cf.Values {
		a := arg(call.Common(), pf.Param)
		if a == nil {
			return
		}
		ok := false
		if pf.Field != "" {
			_, params, ok = definitionField(a, pf.Field, fn, call, params)
		} else {
			params, ok = definitionValue(a, fn, params)
		}
		if !ok {
			return
		}
	}
	if len(params) == 0 {
		w.Fenced, w.FencedBy = true, "an upsert of a constant definition"
		return
	}
	w.Converge = params
}

package lease

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A leader flag is often set by a package other than its own. A service's
// main wires its election to a worker through the worker's interface
// (OnStartedLeading: func(ctx) { wheel.SetLeader(true) }), and the
// worker's goroutines ask the flag (if !b.isLeader() { return }) before
// they write. Analyzed before main, the flag's package never sees its
// setter called with true, so the flag is no check there.
//
// A standalone run does better. Each package lists, outside tests, its
// calls of other packages' methods named for leading with the constant
// true and its stores of true in their fields named for leading, and
// whether a lease is held there (LeaderSetsFact); the Program collects the
// lists; and the flag's package reads the flag its setter stores, or the
// field, as a leader flag when every such call or store is made under a
// lease (programLeaderFlags). Under go vet the flag's package is analyzed
// first and cannot know.

// LeaderSetsFact lists the package's calls of other packages' methods named
// for leading (SetLeader, setLeading, MarkActive) with the constant true,
// and its stores of true in their fields named for leading, in source
// order.
type LeaderSetsFact struct {
	Sets []LeaderSet
}

func (*LeaderSetsFact) AFact() {}
func (f *LeaderSetsFact) String() string {
	return fmt.Sprintf("sets %d leader flags of other packages", len(f.Sets))
}

// A LeaderSet is a call of another package's method with the constant
// true, or a store of true in a field of another package's type.
type LeaderSet struct {
	// Field names the field: "example.com/app/wheel.Server.Leading";
	// the rest but Held, System, What and At are then empty.
	Field  string
	Method string // "SetLeader"
	// Func is the method's full name for a static call:
	// "(*example.com/app/wheel.Pump).SetLeading"; "" for a call through an
	// interface.
	Func string
	// Iface lists, for a call through an interface, the interface's
	// methods with their signatures (name + signatureKey), sorted: the
	// methods that can run are those of types that have all of them.
	Iface []string
	Arg   int // the index of the true among the method's parameters
	// Held reports whether a lease is held where the call is made; System
	// and What name it.
	Held   bool
	System System
	What   string
	At     string // "main.go:73"
}

// exportLeaderSets exports the package's calls and stores that set other
// packages' leader flags to true, for the Program.
func (b *builder) exportLeaderSets() {
	var out []LeaderSet
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		if inTestFile(b.pass.Fset, instr.Pos()) { // a test sets up its fixture
			return
		}
		set, ok := b.leaderFieldSet(instr)
		if call, isCall := instr.(*ssa.Call); isCall && !ok {
			set, ok = b.leaderSet(call)
		}
		if ok {
			set.At = b.shortPos(instr.Pos())
			if l := b.heldAround(instr, 0); l != nil {
				set.Held, set.System, set.What = true, l.System, l.What
			}
			out = append(out, set)
		}
	})
	if len(out) > 0 {
		b.pass.ExportPackageFact(&LeaderSetsFact{Sets: out})
	}
}

// leaderSet describes call when it calls a method of another package named
// for leading with the constant true.
func (b *builder) leaderSet(call *ssa.Call) (LeaderSet, bool) {
	m := calleeFunc(call.Common())
	if m == nil || m.Pkg() == nil || m.Pkg() == b.pass.Pkg || m.Signature().Recv() == nil || !leaderWord(m.Name()) {
		return LeaderSet{}, false
	}
	args := call.Call.Args
	if !call.Call.IsInvoke() {
		fn := call.Call.StaticCallee()
		if fn == nil || fn.Signature.Recv() == nil || len(args) == 0 { // a bound method value's wrapper
			return LeaderSet{}, false
		}
		args = args[1:] // the receiver
	}
	arg := slices.IndexFunc(args, isConstTrue)
	if arg < 0 {
		return LeaderSet{}, false
	}
	set := LeaderSet{Method: m.Name(), Arg: arg}
	if call.Call.IsInvoke() {
		iface, ok := call.Call.Value.Type().Underlying().(*types.Interface)
		if !ok {
			return LeaderSet{}, false
		}
		for im := range iface.Methods() {
			set.Iface = append(set.Iface, im.Name()+signatureKey(im))
		}
		slices.Sort(set.Iface)
	} else {
		set.Func = m.Origin().FullName()
	}
	return set, true
}

// leaderFieldSet describes instr when it sets a bool field of another
// package's type named for leading to true (srv.Leading = true,
// srv.Leading.Store(true)).
func (b *builder) leaderFieldSet(instr ssa.Instruction) (LeaderSet, bool) {
	addr, val := boolStore(instr)
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok || !isConstTrue(val) {
		return LeaderSet{}, false
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return LeaderSet{}, false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	fv := fieldVar(ptr.Elem(), fa.Field)
	if !ok || fv == nil || fv.Pkg() == nil || fv.Pkg() == b.pass.Pkg || !leaderWord(fv.Name()) {
		return LeaderSet{}, false
	}
	return LeaderSet{Field: typePath(named.Origin()) + "." + fv.Name()}, true
}

// isConstTrue reports whether v is the constant true.
func isConstTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// programLeaderFlags returns the flags that the package's setters store,
// by flagKey, for the setters other packages call with true (the
// Program's leader sets): as leader flags where every such call is made
// under a lease, and in notLeader where one is not.
func (b *builder) programLeaderFlags() (flags map[any]leaderFlag, notLeader map[any]bool) {
	sets := b.prog.leaderSets()
	if len(sets) == 0 {
		return nil, nil
	}
	flags, notLeader = make(map[any]leaderFlag), make(map[any]bool)
	add := func(set LeaderSet, key any, name string) {
		switch {
		case !set.Held:
			notLeader[key] = true
		case leaderWord(name):
			if _, ok := flags[key]; !ok {
				flags[key] = leaderFlag{name: name, system: set.System,
					origin: fmt.Sprintf("set %s at %s while %s is held", set.how(), set.At, set.What)}
			}
		}
	}
	for _, set := range sets {
		if fv := b.ownField(set.Field); fv != nil {
			add(set, fv, fv.Name())
		}
	}
	for _, fn := range b.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj.Signature().Recv() == nil {
			continue
		}
		for _, set := range sets {
			if set.Method != obj.Name() || !setterOf(set, obj) {
				continue
			}
			addr, i := setterParam(fn)
			if key := flagKey(addr); key != nil && i == set.Arg+1 { // the receiver is parameter 0
				add(set, key, flagName(addr))
			}
		}
	}
	return flags, notLeader
}

// how says how set sets its flag, for the diagnostic: "by
// SetLeader(true)", "to true".
func (set LeaderSet) how() string {
	if set.Field != "" {
		return "to true"
	}
	return "by " + set.Method + "(true)"
}

// ownField returns the field that name ("example.com/app/wheel.Server.Leading")
// names among the package's struct types, or nil.
func (b *builder) ownField(name string) *types.Var {
	rest, ok := strings.CutPrefix(name, b.pass.Pkg.Path()+".")
	typ, field, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 {
		return nil
	}
	tn, _ := b.pass.Pkg.Scope().Lookup(typ).(*types.TypeName)
	if tn == nil {
		return nil
	}
	st, _ := tn.Type().Underlying().(*types.Struct)
	if st == nil {
		return nil
	}
	for fv := range st.Fields() {
		if fv.Name() == field {
			return fv
		}
	}
	return nil
}

// setterOf reports whether set's call can run the method m: m is the
// method it names, or the call is through an interface whose every method
// m's receiver type has.
func setterOf(set LeaderSet, m *types.Func) bool {
	if set.Func != "" {
		return set.Func == m.Origin().FullName()
	}
	named := receiverNamed(m)
	if named == nil {
		return false
	}
	have := make(map[string]bool)
	for sel := range types.NewMethodSet(types.NewPointer(named)).Methods() {
		fn := sel.Obj().(*types.Func)
		have[fn.Name()+signatureKey(fn)] = true
	}
	for _, want := range set.Iface {
		if !have[want] {
			return false
		}
	}
	return true
}

// leaderSets returns the program's calls of methods named for leading
// with true, or nil.
func (p *Program) leaderSets() []LeaderSet {
	if p == nil {
		return nil
	}
	return p.sets
}

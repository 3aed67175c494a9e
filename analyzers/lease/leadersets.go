package lease

import (
	"fmt"
	"go/constant"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A leader flag is often set by a package other than its own. A service's
// main wires its election to a worker through the worker's interface
// (OnStartedLeading: func(ctx) { wheel.SetLeader(true) }), and the
// worker's goroutines ask the flag (if !b.isLeader() { return }) before
// they write. Analyzed before main, the flag's package never sees its
// setter called with true, so the flag is no check there.
//
// A standalone run does better. Each package lists the calls it makes
// outside tests, with the constant true, to methods of other packages
// named for leading, and
// whether a lease is held there (LeaderSetsFact); the Program collects the
// lists; and the flag's package reads the flag its setter stores as a
// leader flag when every such call is made under a lease
// (programLeaderFlags). Under go vet the flag's package is analyzed first
// and cannot know.

// LeaderSetsFact lists the package's calls of other packages' methods named
// for leading (SetLeader, setLeading, MarkActive) with the constant true, in
// source order.
type LeaderSetsFact struct {
	Sets []LeaderSet
}

func (*LeaderSetsFact) AFact() {}
func (f *LeaderSetsFact) String() string {
	return fmt.Sprintf("sets %d leader flags of other packages", len(f.Sets))
}

// A LeaderSet is a call of another package's method with the constant true.
type LeaderSet struct {
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

// exportLeaderSets exports the package's calls of other packages' methods
// named for leading with the constant true, for the Program.
func (b *builder) exportLeaderSets() {
	var out []LeaderSet
	b.instrs(func(fn *ssa.Function, instr ssa.Instruction) {
		call, ok := instr.(*ssa.Call)
		if !ok {
			return
		}
		if set, ok := b.leaderSet(call); ok {
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
	if inTestFile(b.pass.Fset, call.Pos()) { // a test sets up its fixture
		return LeaderSet{}, false
	}
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
	pos := b.pass.Fset.Position(call.Pos())
	set.At = fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
	if l := b.heldAround(call, 0); l != nil {
		set.Held, set.System, set.What = true, l.System, l.What
	}
	return set, true
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
			key := flagKey(addr)
			switch {
			case key == nil || i != set.Arg+1: // the receiver is parameter 0
			case !set.Held:
				notLeader[key] = true
			case leaderWord(flagName(addr)):
				if _, ok := flags[key]; !ok {
					flags[key] = leaderFlag{name: flagName(addr), system: set.System,
						origin: fmt.Sprintf("set by %s(true) at %s while %s is held", set.Method, set.At, set.What)}
				}
			}
		}
	}
	return flags, notLeader
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

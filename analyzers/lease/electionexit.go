package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A process that ends with its leadership has no stale leader:
//
//	func main() { os.Exit(cli.Run(cmd)) }                       // cmd's RunE calls run
//	func run(cfg *Config) error {
//		leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{...,
//			Callbacks: leaderelection.LeaderCallbacks{
//				OnStartedLeading: func(context.Context) { startControllers(wait.NeverStop) },
//				OnStoppedLeading: func() { klog.Info("leaderelection lost") },
//			}})
//		return nil
//	}
//
// client-go's LeaderElector.Run (and RunOrDie, which calls it) returns once
// renewal has failed for RenewDeadline, which is shorter than LeaseDuration:
// it runs OnStoppedLeading (deferred) and returns before another candidate
// may take the lease. When the program does nothing after it but return,
// log and exit, all the way up to main, the process ends there, and work
// that ignores the callback's ctx ends with it: it cannot go on as a stale
// leader (a pause past the lease is unfencedwrite's business). It does not
// hold when:
//
//   - the config sets ReleaseOnCancel (or the config comes from elsewhere,
//     so it may): Run then gives the lease up before it returns, and
//     another candidate may lead while the process winds down;
//   - OnStoppedLeading does more than log, exit, cancel or close: it runs
//     before Run returns and keeps the process, and the work, alive;
//   - anything else runs after the election: a loop that campaigns again,
//     a shutdown, a wait, a deferred call that does work, a caller that
//     goes on.
//
// The way up to main is followed through the package's own callers of the
// function, each of which must return at once as well; it ends at main, at
// a cobra command's Run or RunE (cobra's Execute returns when it does, and
// main exits: the program's command is its whole work), or at an exit
// (os.Exit, log.Fatal, klog.Fatal, panic) on every path. A function with
// no caller in the package, or used as a value elsewhere, does not end the
// process as far as the package shows.

// maxExitDepth bounds how many callers up the way to main is followed.
const maxExitDepth = 4

// electionEndsProcess reports whether the leader election that st's
// callback is installed for ends the process when leadership is lost;
// onLost is the OnStoppedLeading installed with it, or nil.
func (b *builder) electionEndsProcess(st *ssa.Store, onLost *ssa.Function) bool {
	if onLost != nil && !returnsAtOnce(onLost) {
		return false
	}
	configs := electionConfigs(st)
	if len(configs) == 0 || releasesOnCancel(configs) {
		return false
	}
	fn := st.Parent()
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !b.runsElection(call, configs) {
				continue
			}
			return b.processEndsAfter(fn, call, 0)
		}
	}
	return false
}

// electionConfigs returns the local variables that make up the config st
// stores into: the one st's address is a field of (cfg.Callbacks.X), and
// the config that variable is copied into (LeaderElectionConfig{Callbacks:
// cbs}). A config that is not a local variable of st's function (a
// parameter, a field) gives nil: its other fields are not seen.
func electionConfigs(st *ssa.Store) []*ssa.Alloc {
	root, ok := addrRoot(st.Addr).(*ssa.Alloc)
	if !ok || !builtHere(root) {
		return nil
	}
	configs := []*ssa.Alloc{root}
	for _, ref := range *root.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok {
			continue
		}
		for _, use := range *load.Referrers() {
			if cp, ok := use.(*ssa.Store); ok && cp.Val == load {
				if outer, ok := addrRoot(cp.Addr).(*ssa.Alloc); ok && builtHere(outer) {
					configs = append(configs, outer)
				}
			}
		}
	}
	return configs
}

// addrRoot returns the variable an address of one of its fields is taken from.
func addrRoot(v ssa.Value) ssa.Value {
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		v = fa.X
	}
}

// builtHere reports whether the local a is built field by field in its
// function and never overwritten as a whole (cfg = other), so that its
// stores say everything about it.
func builtHere(a *ssa.Alloc) bool {
	if a.Heap {
		return false // captured or escaping: written elsewhere too
	}
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
			return false
		}
	}
	return true
}

// releasesOnCancel reports whether any of the configs sets ReleaseOnCancel
// to anything but a constant false.
func releasesOnCancel(configs []*ssa.Alloc) bool {
	for _, a := range configs {
		released := false
		eachFieldStore(a, func(field *types.Var, val ssa.Value) {
			if field.Name() == "ReleaseOnCancel" {
				c, ok := val.(*ssa.Const)
				released = released || !ok || c.Value == nil || constant.BoolVal(c.Value)
			}
		})
		if released {
			return true
		}
	}
	return false
}

// eachFieldStore calls f with each field of a, at any depth, that a store
// writes, and the value written.
func eachFieldStore(v ssa.Value, f func(*types.Var, ssa.Value)) {
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		field := fieldVar(fa.X.Type(), fa.Field)
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa && field != nil {
				f(field, st.Val)
			}
		}
		eachFieldStore(fa, f)
	}
}

// runsElection reports whether call runs a Kubernetes leader election
// (RunOrDie, LeaderElector.Run) on one of configs: passed to it, or to the
// call that made the elector.
func (b *builder) runsElection(call *ssa.Call, configs []*ssa.Alloc) bool {
	c, ok := b.resolve(call.Common())
	if !ok || c.api == nil || c.system != Kubernetes || !c.role.Has(RoleAutoRenew) {
		return false
	}
	args := call.Common().Args
	if call.Common().Signature().Recv() != nil || call.Common().IsInvoke() {
		if made := producer(callRecv(call.Common())); made != nil {
			args = made.Common().Args
		}
	}
	for _, arg := range args {
		if load, ok := unwrap(arg).(*ssa.UnOp); ok {
			if a, ok := load.X.(*ssa.Alloc); ok && slices.Contains(configs, a) {
				return true
			}
		}
	}
	return false
}

// processEndsAfter reports whether the process ends soon after call
// returns: fn does nothing after it but log and return or exit, and fn is
// main, a cobra command, or called only where the same holds.
func (b *builder) processEndsAfter(fn *ssa.Function, call ssa.CallInstruction, depth int) bool {
	returns, ok := tailAfter(call)
	if !ok || !defersOnlyQuick(fn) {
		return false
	}
	if !returns || isMain(fn) || runsAsCommand(fn) {
		return true
	}
	if depth >= maxExitDepth || fn.Parent() != nil {
		return false
	}
	sites := b.callersOfFunc(fn)
	if len(sites) == 0 {
		return false
	}
	for _, site := range sites {
		if !b.processEndsAfter(site.fn, site.call, depth+1) {
			return false
		}
	}
	return true
}

// tailAfter follows every path from call to the end of its function. ok
// reports that nothing on them but logging, exiting, cancelling and plain
// computation runs, and that none leads back to call (a loop that runs the
// election again); returns reports that some path returns rather than
// exits.
func tailAfter(call ssa.CallInstruction) (returns, ok bool) {
	start := call.Block()
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(blk *ssa.BasicBlock, from int) bool
	walk = func(blk *ssa.BasicBlock, from int) bool {
		for _, instr := range blk.Instrs[from:] {
			switch x := instr.(type) {
			case *ssa.Return:
				returns = true
				return true
			case *ssa.Panic:
				return true
			case *ssa.Go, *ssa.Send, *ssa.Select:
				return false
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					return false
				}
			case ssa.CallInstruction:
				if isExitCall(x.Common()) {
					return true
				}
				if !quickCall(x.Common()) {
					return false
				}
			}
		}
		for _, succ := range blk.Succs {
			if succ == start {
				return false
			}
			if seen[succ] {
				continue
			}
			seen[succ] = true
			if !walk(succ, 0) {
				return false
			}
		}
		return true
	}
	from := 0
	for i, instr := range start.Instrs {
		if instr == call {
			from = i + 1
		}
	}
	return returns, walk(start, from)
}

// quickCall reports whether a call after the election returns at once and
// keeps nothing running: logging, a context's cancel func, close, the
// conversions and lookups the compiler inserts.
func quickCall(c *ssa.CallCommon) bool {
	if bi, ok := c.Value.(*ssa.Builtin); ok {
		switch bi.Name() {
		case "close", "len", "cap", "append", "copy", "print", "println":
			return true
		}
		return false
	}
	if isNamed(c.Value.Type(), "context", "CancelFunc") || isNamed(c.Value.Type(), "context", "CancelCauseFunc") {
		return true
	}
	if fn := calleeFunc(c); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" {
		return true
	}
	return isLogging(c)
}

// isExitCall reports whether c ends the process: os.Exit, or a logging
// package's Fatal, Exit or Panic.
func isExitCall(c *ssa.CallCommon) bool {
	fn := calleeFunc(c)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if path == "os" {
		return fn.Name() == "Exit"
	}
	if !logPackages[path] {
		return false
	}
	for _, prefix := range []string{"Fatal", "Exit", "Panic"} {
		if strings.HasPrefix(fn.Name(), prefix) {
			return true
		}
	}
	return false
}

// returnsAtOnce reports whether a callback (OnStoppedLeading) only logs,
// exits, cancels or closes.
func returnsAtOnce(fn *ssa.Function) bool {
	for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				switch x := instr.(type) {
				case *ssa.Go, *ssa.Send, *ssa.Select:
					return false
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						return false
					}
				case ssa.CallInstruction:
					if !isExitCall(x.Common()) && !quickCall(x.Common()) {
						return false
					}
				}
			}
		}
	}
	return true
}

// defersOnlyQuick reports whether every call fn defers is quick: a
// deferred call that does work (wg.Wait, a shutdown) runs after the
// election and keeps the process alive.
func defersOnlyQuick(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && !quickCall(d.Common()) && !isExitCall(d.Common()) {
				return false
			}
		}
	}
	return true
}

// isMain reports whether fn is the program's main function.
func isMain(fn *ssa.Function) bool {
	return fn.Parent() == nil && fn.Signature.Recv() == nil && fn.Name() == "main" &&
		fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main"
}

// runsAsCommand reports whether fn, a function literal, is stored in a
// cobra command's Run or RunE field and used nowhere else.
func runsAsCommand(fn *ssa.Function) bool {
	if fn.Parent() == nil {
		return false // a declared function stored as a command is not seen here
	}
	stored := false
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case *ssa.MakeClosure:
				if x.Fn != fn {
					continue
				}
				for _, ref := range *x.Referrers() {
					st, ok := ref.(*ssa.Store)
					if !ok || st.Val != x || !isCobraRun(st.Addr) {
						return false
					}
					stored = true
				}
			case *ssa.Store:
				if x.Val == fn { // a literal that captures nothing is the function itself
					if !isCobraRun(x.Addr) {
						return false
					}
					stored = true
				}
			}
		}
	}
	return stored
}

// isCobraRun reports whether addr is the Run or RunE field of a cobra.Command.
func isCobraRun(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	field := fieldVar(fa.X.Type(), fa.Field)
	if field == nil || (field.Name() != "Run" && field.Name() != "RunE") {
		return false
	}
	return pointsToNamed(fa.X.Type(), "github.com/spf13/cobra", "Command")
}

// pointsToNamed reports whether t is a pointer to the named type pkg.name.
func pointsToNamed(t types.Type, pkg, name string) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isNamed(p.Elem(), pkg, name)
}

// callersOfFunc returns the package's calls of fn, or nil when fn is also
// used as a value (its callers are then unknown).
func (b *builder) callersOfFunc(fn *ssa.Function) []callSite {
	var sites []callSite
	for _, f := range b.funcs {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				for _, op := range instr.Operands(nil) {
					if *op != fn {
						continue
					}
					if !isCall || call.Common().Value != fn {
						return nil
					}
					if _, plain := instr.(*ssa.Call); !plain {
						return nil // go or defer: the caller does not wait for it
					}
					sites = append(sites, callSite{f, call})
				}
			}
		}
	}
	return sites
}

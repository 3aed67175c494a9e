package detachedrenewal

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/analysisdoc"
	"github.com/fencelint/fencelint/analyzers/lease"
)

//go:embed doc.go
var doc string

// Analyzer reports leases kept alive while the work they protect would not
// stop if they were lost: renewal goroutines whose failure reaches nobody,
// lost-signals nothing waits on, and leader callbacks that ignore their ctx.
var Analyzer = &analysis.Analyzer{
	Name:      "detachedrenewal",
	Doc:       analysisdoc.Extract(doc, "detachedrenewal"),
	URL:       "https://pkg.go.dev/github.com/fencelint/fencelint/analyzers/detachedrenewal",
	Run:       run,
	Requires:  []*analysis.Analyzer{lease.Analyzer},
	FactTypes: []analysis.Fact{new(DetachedLoopFact)},
}

// DetachedLoopFact: the function renews a lease again and again, and when
// a renewal fails nobody hears of it (it logs, retries or returns to
// nobody). A go statement in another package that starts it is a detached
// renewal there.
type DetachedLoopFact struct {
	System lease.System
	What   string // "Mutex.Extend at keeper.go:23"
	// Reacquire says the function takes its receiver's session lock
	// again (Renewal.Reacquire): a renewal only where that lock is held.
	Reacquire bool
}

func (*DetachedLoopFact) AFact() {}
func (f *DetachedLoopFact) String() string {
	return fmt.Sprintf("detached %s renewal loop: %s", f.System, f.What)
}

// A checker reports one package's findings.
type checker struct {
	pass  *analysis.Pass
	m     *lease.Model
	nodes map[token.Pos]ast.Node // go statements, calls (by Lparen), func literals
}

func run(pass *analysis.Pass) (any, error) {
	m := lease.ModelOf(pass)
	if len(m.Goroutines) == 0 && len(m.Signals) == 0 && len(m.Loopers) == 0 {
		return nil, nil
	}
	c := &checker{pass: pass, m: m, nodes: nodesByPos(pass.Files)}
	for _, g := range m.Loopers {
		c.exportLoop(g)
	}
	for _, g := range m.Goroutines {
		c.goroutine(g)
	}
	for _, s := range m.Signals {
		c.signal(s)
	}
	return nil, nil
}

// nodesByPos indexes the nodes diagnostics are reported at by the position
// SSA gives them. It walks the files itself rather than require the inspect
// analyzer: few packages get here, and a driver keeps every pass's result
// (an inspector per package) until its run ends.
func nodesByPos(files []*ast.File) map[token.Pos]ast.Node {
	nodes := make(map[token.Pos]ast.Node)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				nodes[n.Lparen] = n
			case *ast.GoStmt, *ast.FuncLit:
				nodes[n.Pos()] = n
			}
			return true
		})
	}
	return nodes
}

// rangeAt returns the node at pos, or an empty range there.
func (c *checker) rangeAt(pos token.Pos) analysis.Range {
	if n, ok := c.nodes[pos]; ok {
		return n
	}
	return posRange(pos)
}

type posRange token.Pos

func (p posRange) Pos() token.Pos { return token.Pos(p) }
func (p posRange) End() token.Pos { return token.Pos(p) }

// goroutine reports a go statement that renews a lease again and again
// while a failed renewal never reaches the work.
func (c *checker) goroutine(g *lease.Goroutine) {
	if len(g.Loops) == 0 {
		c.startedLoop(g)
		return
	}
	for _, r := range g.Loops {
		if c.heard(g, r, nil) || r.Reacquire && !slices.Contains(r.Goes, g.Go) || liveness(g, r, nil) {
			continue
		}
		if startedElsewhere(g, r) {
			return // one bug, one finding: at the go statement that starts the renewal
		}
		if c.lockHearsSession(r) {
			continue
		}
		msg := c.detachedMessage(g, r)
		if c.regionFenced(g.Go.Parent(), r.System) {
			msg = c.wastedMessage(g, r)
		}
		c.m.Reportf(c.pass, c.rangeAt(g.Pos), "%s", msg)
		return
	}
}

// startedElsewhere reports whether r is a renewal that another go statement
// of g's goroutine starts (go session.RenewPeriodic(...) in a function g
// calls): that go statement is reported, and where the user fixes it.
func startedElsewhere(g *lease.Goroutine, r *lease.Renewal) bool {
	started, ok := r.Call.(*ssa.Go)
	return ok && started != g.Go
}

// lockHearsSession reports whether r, a Consul session renewal, renews the
// session of a Consul lock whose lost channel the work hears: Lock.Lock
// watches its session and closes that channel when the session is gone,
// so a renewal failure reaches the work through it. The lock is taken in
// r's function or in one that calls it (lock() calling createSession()),
// and its channel is observed.
func (c *checker) lockHearsSession(r *lease.Renewal) bool {
	if r.System != lease.Consul {
		return false
	}
	for _, s := range c.m.Signals {
		if s.System != lease.Consul || s.Call == nil || !s.Observed || !returnsChan(s.Call) {
			continue
		}
		if s.Fn == r.Fn || calls(s.Fn, r.Fn) {
			return true
		}
	}
	return false
}

// calls reports whether caller calls callee directly.
func calls(caller, callee *ssa.Function) bool {
	for _, blk := range caller.Blocks {
		for _, instr := range blk.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && lease.Callee(call.Common()) == callee {
				return true
			}
		}
	}
	return false
}

// exportLoop exports a DetachedLoopFact for an exported function that, if
// started with go, would renew in a loop whose failures nobody hears.
func (c *checker) exportLoop(g *lease.Goroutine) {
	obj, ok := g.Fn.Object().(*types.Func)
	if !ok {
		return
	}
	for _, r := range g.Loops {
		if r.Reacquire && r.Method != g.Fn || liveness(g, r, nil) { // a lock taken again is a renewal only where its holder runs it
			continue
		}
		if !c.heard(g, r, nil) {
			p := c.pass.Fset.Position(r.Pos)
			c.pass.ExportObjectFact(obj, &DetachedLoopFact{System: r.System, What: fmt.Sprintf("%s at %s:%d", r.What, filepath.Base(p.Filename), p.Line), Reacquire: r.Reacquire})
			return
		}
	}
}

// startedLoop reports a go statement that starts another package's
// function whose DetachedLoopFact says it renews in a loop nobody hears
// fail.
func (c *checker) startedLoop(g *lease.Goroutine) {
	if g.Fn == nil || g.Fn.Pkg == nil || g.Fn.Pkg.Pkg == c.pass.Pkg {
		return
	}
	obj, ok := g.Fn.Object().(*types.Func)
	var f DetachedLoopFact
	if !ok || !c.pass.ImportObjectFact(obj.Origin(), &f) {
		return
	}
	if f.Reacquire {
		if len(g.RecvLeases) > 0 {
			c.m.Reportf(c.pass, c.rangeAt(g.Pos), "%s runs %s, which takes %s again on a timer (%s) to keep its session alive and tells nobody when that fails (the session died, and the lock with it), so the work never hears and keeps writing while another holder takes the lock; "+
				"have it cancel the work's context or close a channel the work selects on when it fails", c.goroutineName(g), funcName(obj), lockName(f.System), f.What)
		}
		return
	}
	consequence := "the work never hears when renewal fails and keeps writing after the lease expires"
	if c.regionFenced(g.Go.Parent(), f.System) {
		consequence = "the work never hears when renewal fails; its writes are fenced, so no data is lost, but it keeps working after the lease is gone and every write it makes is refused"
	}
	c.m.Reportf(c.pass, c.rangeAt(g.Pos), "%s runs %s, which renews %s in a loop (%s) and tells nobody when renewal fails, so %s; "+
		"have it cancel the work's context or close a channel the work selects on when renewal fails", c.goroutineName(g), funcName(obj), lockName(f.System), f.What, consequence)
}

// heard reports whether a failure of r, a renewal the goroutine g runs,
// reaches the work: it tells the work itself, or it ends the goroutine that
// is the work, or it is returned to a caller within g that hears it.
func (c *checker) heard(g *lease.Goroutine, r *lease.Renewal, seen []*lease.Renewal) bool {
	switch {
	case r.Notifies:
		return true
	case !r.Returns || slices.Contains(seen, r):
		return false
	case r.Fn == g.Fn:
		return g.Works // returning ends the work only if the goroutine is (part of) the work
	case slices.Contains(g.Repeated, r.Fn):
		return false // wait.Until runs it again
	}
	sites := callSites(g, r.Fn)
	if len(sites) == 0 {
		return true // called through a func value: assume the caller hears
	}
	for _, site := range sites {
		if _, ok := site.(*ssa.Call); !ok {
			continue // go and defer drop the error
		}
		outer := renewalAt(g, site)
		if outer == nil || c.heard(g, outer, append(seen, r)) {
			return true // a caller that is not a renewal: assume it acts on the error
		}
	}
	return false
}

// liveness reports whether r, a renewal g runs, keeps alive a lease that
// is no lock (Renewal.Liveness): by its own call, or, for a wrapper that
// renews the lease it is handed (Renewal.LeaseFromCaller), at every call of
// it in g. A failure such a renewal keeps to itself loses no write.
func liveness(g *lease.Goroutine, r *lease.Renewal, seen []*lease.Renewal) bool {
	if r.Liveness {
		return true
	}
	if !r.LeaseFromCaller || slices.Contains(seen, r) {
		return false
	}
	sites := callSites(g, r.Fn)
	for _, site := range sites {
		outer := renewalAt(g, site)
		if outer == nil || !liveness(g, outer, append(seen, r)) {
			return false
		}
	}
	return len(sites) > 0
}

// callSites returns the calls of fn made in g's functions.
func callSites(g *lease.Goroutine, fn *ssa.Function) []ssa.CallInstruction {
	var sites []ssa.CallInstruction
	for _, f := range g.Funcs {
		for _, blk := range f.Blocks {
			for _, instr := range blk.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && lease.Callee(call.Common()) == fn {
					sites = append(sites, call)
				}
			}
		}
	}
	return sites
}

// renewalAt returns the renewal made by call, if it is one.
func renewalAt(g *lease.Goroutine, call ssa.CallInstruction) *lease.Renewal {
	for _, r := range g.Renewals {
		if r.Call == call {
			return r
		}
	}
	return nil
}

// goroutineName is how a message names g: "this goroutine" at a go
// statement, "the goroutine safego.RunWithRestart starts here" at the call
// of a goroutine helper.
func (c *checker) goroutineName(g *lease.Goroutine) string {
	switch {
	case g.Helper == nil:
		return "this goroutine"
	case g.Helper.Pkg() == c.pass.Pkg && g.Helper.Signature().Recv() == nil:
		return "the goroutine " + g.Helper.Name() + " starts here"
	}
	return "the goroutine " + funcName(g.Helper) + " starts here"
}

// detachedMessage explains a renewal goroutine whose failure stays inside.
func (c *checker) detachedMessage(g *lease.Goroutine, r *lease.Renewal) string {
	line := c.pass.Fset.Position(r.Pos).Line
	if r.Reacquire {
		return fmt.Sprintf("%s takes %s again with %s (%s) to keep its session alive, but when that fails (the session died, and the lock with it) the work never hears and keeps writing while another holder takes the lock; "+
			"when it fails, cancel the work's context or close a channel the work selects on", c.goroutineName(g), lockName(r.System), r.What, c.at(r.Pos, g.Pos))
	}
	if r.Periodic && !r.ErrorUsed {
		return fmt.Sprintf("the error of %s (line %d) is dropped, so the work never hears when the %s session expires and keeps writing as if it held the lock; "+
			"run it in a goroutine that cancels the work's context when it returns, or fence the writes", r.What, line, r.System)
	}
	return fmt.Sprintf("%s renews %s with %s (%s), but the work never hears when renewal fails and keeps writing after the lease expires; "+
		"when renewal fails, cancel the work's context or close a channel it selects on", c.goroutineName(g), lockName(r.System), r.What, c.at(r.Pos, g.Pos))
}

// wastedMessage explains a renewal goroutine whose failure stays inside
// while the work's writes are all fenced: nothing is lost, but the work goes
// on without the lease and each write it makes is refused.
func (c *checker) wastedMessage(g *lease.Goroutine, r *lease.Renewal) string {
	return fmt.Sprintf("%s renews %s with %s (%s), but the work never hears when renewal fails; "+
		"its writes are fenced, so no data is lost, but it keeps working after the lease is gone and every write it makes is refused; "+
		"when renewal fails, cancel the work's context or close a channel it selects on", c.goroutineName(g), lockName(r.System), r.What, c.at(r.Pos, g.Pos))
}

// at names pos for a message reported at from: "line 41" in the same file,
// "store.go:41" in another.
func (c *checker) at(pos, from token.Pos) string {
	p, at := c.pass.Fset.Position(pos), c.pass.Fset.Position(from)
	if p.Filename == at.Filename {
		return fmt.Sprintf("line %d", p.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// lockName names the lease of a system in a message.
func lockName(s lease.System) string {
	if s == "" {
		return "a lease"
	}
	return "the " + string(s) + " lock"
}

// regionWrites returns the writes made under a lease of system (any, if
// system is "") taken in the function fn is declared in or nested in, or in
// one of also (the callers of a helper that keeps a lease alive).
func (c *checker) regionWrites(fn *ssa.Function, system lease.System, call ssa.CallInstruction, also ...*ssa.Function) []*lease.Write {
	var writes []*lease.Write
	roots := append([]*ssa.Function{outermost(fn)}, also...)
	for _, w := range c.m.Writes {
		if w.LockImpl {
			continue
		}
		for _, l := range w.Held {
			if call != nil && l.Call == call || (system == "" || l.System == system) && slices.Contains(roots, outermost(l.Fn)) {
				writes = append(writes, w)
				break
			}
		}
	}
	return writes
}

// regionFenced reports whether the region's work is known and entirely
// fenced: then losing the lease cannot lose a write.
func (c *checker) regionFenced(fn *ssa.Function, system lease.System) bool {
	writes := c.regionWrites(fn, system, nil)
	for _, w := range writes {
		if !w.Fenced {
			return false
		}
	}
	return len(writes) > 0
}

// firstUnfenced returns the first unfenced write of a region, or nil.
func firstUnfenced(writes []*lease.Write) *lease.Write {
	for _, w := range writes {
		if !w.Fenced {
			return w
		}
	}
	return nil
}

func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// signal reports a lost-signal that never reaches the work.
func (c *checker) signal(s *lease.Signal) {
	switch {
	case s.Call == nil:
		c.callback(s)
	case s.Observed:
	case s.Origin != "":
		c.importedSignal(s)
	case s.System == lease.Etcd && !c.keptAliveByHand(s):
		c.etcdSignal(s)
	case s.System == lease.ZooKeeper:
		c.zkSignal(s)
	case s.System == lease.Consul:
		if c.unfencedUnder(s) != nil {
			c.consulSignal(s)
		}
	case s.System == lease.Rueidis:
		if w := c.unfencedUnder(s); w != nil {
			c.ctxSignal(s, w)
		}
	}
}

// etcdSignal reports an etcd session or KeepAlive channel nothing observes,
// when the lease region makes an unfenced write.
func (c *checker) etcdSignal(s *lease.Signal) {
	w := c.unfencedUnder(s)
	if w == nil && s.KeepsLock != "" && s.Value != nil && returnsChan(s.Call) {
		c.m.Reportf(c.pass, c.rangeAt(s.Pos), "nothing acts when the channel of %s closes, so the callers of %s never hear that their lock's lease is gone and their work goes on; "+
			"hand them a context cancelled when the channel closes and run the work on it", s.What, s.KeepsLock)
		return
	}
	if w == nil {
		return // service registration and the like: nothing to protect
	}
	line := c.pass.Fset.Position(w.Pos).Line
	switch {
	case !returnsChan(s.Call):
		c.m.Reportf(c.pass, c.rangeAt(s.Pos), "nothing waits on this etcd session's Done() or uses its Ctx(), so the work never hears when its lease expires and the write at line %d goes on; "+
			"%s and fence the write", line, s.System.HearLoss())
	case s.Value == nil:
		c.m.Reportf(c.pass, c.rangeAt(s.Pos), "this discards the channel %s returns, so the work never hears when the keep-alives stop and the lease expires, and the write at line %d goes on; "+
			"%s", s.What, line, s.System.HearRenewals(true))
	default:
		c.m.Reportf(c.pass, c.rangeAt(s.Pos), "nothing acts when the channel of %s closes, so the work never hears that the lease is gone and the write at line %d goes on; "+
			"%s", s.What, line, s.System.HearRenewals(false))
	}
}

// unfencedUnder returns the first unfenced write made under a lock that
// the lease of s may keep: one taken in the function that obtains s or, for
// a KeepAlive in a helper, in the helper's callers, or one made from the
// field s's carrier is kept in, anywhere in the package.
func (c *checker) unfencedUnder(s *lease.Signal) *lease.Write {
	if s.Carrier != nil {
		if w := firstUnfenced(c.writesFrom(s.Carrier)); w != nil {
			return w
		}
	}
	if s.Origin != "" {
		return nil
	}
	if returnsChan(s.Call) {
		return firstUnfenced(c.regionWrites(s.Fn, s.System, s.Call, s.Callers...))
	}
	return firstUnfenced(c.regionWrites(s.Fn, s.System, s.Call))
}

// writesFrom returns the writes made under locks made from carrier.
func (c *checker) writesFrom(carrier types.Object) []*lease.Write {
	var writes []*lease.Write
	for _, w := range c.m.Writes {
		if !w.LockImpl && slices.ContainsFunc(w.Held, func(l *lease.Lease) bool { return l.From == carrier }) {
			writes = append(writes, w)
		}
	}
	return writes
}

// where names the position of w for a message reported at pos: "line 41"
// in the same file, "store.go:41" in another.
func (c *checker) where(w *lease.Write, pos token.Pos) string {
	return c.at(w.Pos, pos)
}

// zkSignal reports a ZooKeeper connection whose session events nothing
// acts on, while a lock taken on it guards an unfenced write.
func (c *checker) zkSignal(s *lease.Signal) {
	w := c.unfencedUnder(s)
	if w == nil {
		return
	}
	how := "nothing acts on the event channel"
	if s.Value == nil {
		how = "this discards the event channel"
	}
	c.m.Reportf(c.pass, c.rangeAt(s.Pos), "%s %s returns, so the work never hears when the ZooKeeper session expires and its lock nodes vanish, and the write at %s goes on; "+
		"%s, and fence the write", how, s.What, c.where(w, s.Pos), s.System.HearLoss())
}

// importedSignal reports a lock made from a session or connection that
// another package obtained and keeps in a field, whose lost-signal neither
// package watches.
func (c *checker) importedSignal(s *lease.Signal) {
	w := c.unfencedUnder(s)
	if w == nil {
		return
	}
	if s.System == lease.ZooKeeper {
		c.m.Reportf(c.pass, c.rangeAt(s.Pos), "this lock is made from %s, whose ZooKeeper session events nothing acts on (%s), so the work never hears when the session expires and the write at %s goes on; "+
			"%s, and fence the write", carrierName(s.Carrier), s.Origin, c.where(w, s.Pos), s.System.HearLoss())
		return
	}
	c.m.Reportf(c.pass, c.rangeAt(s.Pos), "this lock is made from %s, an etcd session (%s) whose Done() nothing waits on and whose Ctx() nothing uses, so the work never hears when its lease expires and the write at %s goes on; "+
		"%s and fence the write", carrierName(s.Carrier), s.Origin, c.where(w, s.Pos), s.System.HearLoss())
}

// funcName names a function of another package as its callers write it:
// "keeper.KeepExtending", "Keeper.Run".
func funcName(fn *types.Func) string {
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		return typeName(recv.Type()) + "." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// carrierName names the field or accessor a session is read from.
func carrierName(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			return typeName(recv.Type()) + "." + fn.Name() + "()"
		}
		return fn.Name() + "()"
	}
	if fv, ok := obj.(*types.Var); ok && fv.Pkg() != nil {
		return "the field " + fv.Name() + " (package " + fv.Pkg().Name() + ")"
	}
	return obj.Name()
}

// typeName names the named type t is or points to.
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// keptAliveByHand reports whether s is an etcd session made on a lease
// (WithLease) that the same function, or a helper it calls, keeps alive
// with KeepAlive: that channel is the lease's lost-signal. If something
// acts when it closes, the work hears; if not, one finding, at KeepAlive,
// covers both.
func (c *checker) keptAliveByHand(s *lease.Signal) bool {
	if returnsChan(s.Call) || !s.OnGrantedLease {
		return false
	}
	for _, k := range c.m.Signals {
		if k != s && k.Call != nil && k.System == s.System && returnsChan(k.Call) &&
			(outermost(k.Fn) == outermost(s.Fn) || slices.Contains(k.Callers, outermost(s.Fn))) {
			return true
		}
	}
	return false
}

// returnsChan reports whether call's first result is a channel (KeepAlive),
// not a session.
func returnsChan(call ssa.CallInstruction) bool {
	res := call.Common().Signature().Results()
	if res.Len() == 0 {
		return false
	}
	_, ok := res.At(0).Type().Underlying().(*types.Chan)
	return ok
}

// consulSignal reports a Consul lock channel discarded or never read.
func (c *checker) consulSignal(s *lease.Signal) {
	how := "nothing reads"
	if s.Value == nil {
		how = "this discards"
	}
	c.m.Reportf(c.pass, c.rangeAt(s.Pos), "%s the channel %s returns, which closes when the lock is lost, so the work never hears of it and goes on without the lock; "+
		"%s (it is nil if %s returned without the lock)", how, s.What, s.System.HearLoss(), s.What)
}

// ctxSignal reports a lock whose context, which the library cancels once
// the lock is lost, is discarded while the lock guards an unfenced write.
func (c *checker) ctxSignal(s *lease.Signal, w *lease.Write) {
	c.m.Reportf(c.pass, c.rangeAt(s.Pos), "this discards the context %s returns, which is canceled when the lock is lost, so the work never hears of it and the write at %s goes on; "+
		"%s, and fence the write", s.What, c.where(w, s.Pos), s.System.HearLoss())
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

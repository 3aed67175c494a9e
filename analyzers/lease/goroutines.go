package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Work handed to a goroutine inside a lease region runs under that lease,
// just as the body of a closure made there does: go s.rebalance(ctx),
// go worker.Run(ctx) and g.Go(s.flush) (errgroup, sync.WaitGroup.Go) write
// through the function they start. A go statement is a call like any other
// for findWrites (the function's facts make it a write); spawnedWrite covers
// the function values handed to a group, which SSA runs through a bound
// method wrapper the package's functions do not include. Closures need
// neither: they start with the lease their creator held (regions.go).

// spawners are the methods that run their function argument in a new
// goroutine: package path, receiver, method.
var spawners = map[[3]string]bool{
	{"golang.org/x/sync/errgroup", "Group", "Go"}:    true,
	{"golang.org/x/sync/errgroup", "Group", "TryGo"}: true,
	{"sync", "WaitGroup", "Go"}:                      true,
}

// spawnedWrite returns the write made by a declared function or method
// value that call hands to a goroutine group, or nil.
func (b *builder) spawnedWrite(fn *ssa.Function, call ssa.CallInstruction) *Write {
	c := call.Common()
	spawner := calleeFunc(c)
	if spawner == nil || spawner.Pkg() == nil || !spawners[[3]string{spawner.Pkg().Path(), receiverName(spawner), spawner.Name()}] {
		return nil
	}
	target := funcValue(arg(c, 0))
	if target == nil || target.Parent() != nil {
		return nil // a closure: its own body's writes are under the lease already
	}
	obj, ok := target.Object().(*types.Func)
	if !ok {
		return nil
	}
	var wf WritesFact
	if !b.fact(obj, &wf) {
		return nil
	}
	w := newWrite(fn, call, wf.System, shortName(spawner)+"("+shortName(obj)+")")
	w.Via = wf.What
	return w
}

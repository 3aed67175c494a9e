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

// A goroutine that takes a lock itself was written to run outside its
// creator's region when the lock is the one its creator holds: Harness's
// runJob starts each job in a goroutine the scheduler's loop does not wait
// for, and the goroutine takes the global lock again for the write that
// needs it. What such a goroutine writes before or after its own lock is
// not done under its creator's (or its creator's caller's) hold of that
// lock: the closure does not inherit it, and its writes make a WritesFact
// whose OutsideOf names the lock, which callers holding it disregard. A
// goroutine that takes no lock of its own, or another lock, keeps running
// under the creator's lease (consul-esm's go a.computeWatchedNodes). Locks
// are told apart by name (leaseName), so two locks taken by the same
// wrapper or catalogued call count as one; only closures started by go are
// read so.

// goroutineLock returns the name of the lease taken by the closure fn, or
// by a closure fn is nested in, that is started by a go statement; "" if
// there is none.
func (b *builder) goroutineLock(fn *ssa.Function) string {
	for ; fn != nil && fn.Parent() != nil; fn = fn.Parent() {
		if !startedByGo(fn) {
			continue
		}
		if name := b.acquiredItself(fn); name != "" {
			return name
		}
	}
	return ""
}

// startedByGo reports whether the closure fn is started by a go statement
// of its parent: go func() {...}().
func startedByGo(fn *ssa.Function) bool {
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			v := g.Call.Value
			if mc, ok := v.(*ssa.MakeClosure); ok {
				v = mc.Fn
			}
			if v == fn {
				return true
			}
		}
	}
	return false
}

// acquiredItself returns the name of the first lease fn acquires itself,
// or "".
func (b *builder) acquiredItself(fn *ssa.Function) string {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if c, ok := b.resolve(call.Common()); ok && c.role&(RoleAcquire|RoleTryAcquire) != 0 {
				return leaseName(c)
			}
		}
	}
	return ""
}

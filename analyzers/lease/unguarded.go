package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A loop that claims a lease once and keeps it runs its other work every
// turn, lease or not:
//
//	for {
//		select {
//		case <-claimTick.C:
//			if !c.master {
//				if ok, _ := c.lockMaster(); ok { // SET NX, never let go
//					c.master = true
//				}
//			}
//		case <-gcTick.C:
//			if c.master {
//				c.gcNodes() // the master's work: under the lease
//			}
//		case <-scheduleTick.C:
//			c.schedulePlugins() // every node's work, master or not
//		}
//	}
//
// The regions are may-held, so the lease taken in one turn reaches every
// later turn and all of the loop's work looks guarded by it. A write the
// lease reaches only around the loop (no path from the acquire to the
// write that does not go back to the loop's head) is made under it only
// where the code asks whether it holds it: a branch on the acquire's
// result, or on a variable the acquiring turn set (c.master above), decides
// whether the write runs. Elsewhere the write runs whether or not the lease
// is held, and the lease is not what it relies on.

// A write the code makes also when the acquire failed, in a function that
// drops the lock object the acquire returned and so never lets it go, is
// not guarded by it either:
//
//	if _, err := locks.Obtain(ctx, key, ttl, nil); err != nil {
//		log(err) // another instance has it: skip the one-time work
//	} else {
//		recomputeAll(ctx) // under the lease
//	}
//	worker.Work(ctx) // runs either way
//
// The may-held regions carry the lease, never let go, past the join.

// unguardedBy reports whether l, a lease acquired or checked in w's
// function, does not guard w: it reaches w only around a loop and nothing
// on the way to w asks whether it is held, or w also runs when its
// acquire failed.
func (b *builder) unguardedBy(l *Lease, w *Write) bool {
	if w.Call == nil || l.Fn != w.Fn {
		return false
	}
	at := w.Call.Block()
	switch l.Kind {
	case Acquired, Declared:
		if l.Call == nil || l.Call.Parent() != w.Call.Parent() {
			return false
		}
		if b.runsWhenFailed(l, at) {
			return true
		}
		if forwardReaches(l.Call, w.Call) {
			return false
		}
		return !b.askedHeld(l, at)
	case Checked:
		// The blocks the check guards hold it; a write in none of them,
		// and after none of them in the same turn, runs unguarded.
		guarded := false
		for _, blk := range w.Fn.Blocks {
			if !slices.Contains(b.regions.checked[blk], l) {
				continue
			}
			if blk == at || blockReaches(blk, at) {
				return false
			}
			guarded = true
		}
		return guarded
	}
	return false
}

// runsWhenFailed reports whether blk is reached, within one turn of the
// loops it is in, from the branch taken when l's acquire failed, and the
// function never lets l go. A function that does let it go (defer
// mx.Unlock() on the success branch) means the lease to cover what follows
// when it got it, and writes on anyway when it did not ("log and update the
// job anyway"): those writes stay under the lease.
func (b *builder) runsWhenFailed(l *Lease, blk *ssa.BasicBlock) bool {
	if !handleDropped(l) || b.letsGo(l) {
		return false
	}
	for _, d := range l.Fn.Blocks {
		iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if failed, edge := b.failedAcquisition(iff.Cond); failed == l {
			fs := d.Succs[edge]
			if fs.Dominates(d) && inLoopOf(blk, fs) {
				continue // the failure goes round the loop blk is in: a later turn
			}
			if fs == blk || blockReaches(fs, blk) {
				return true
			}
		}
	}
	return false
}

// handleDropped reports whether l's acquire returns a lock object beside
// its error and the code drops it (_, err := locks.Obtain(...)): nothing
// can let the lock go or ask about it, it only expires. An acquire that
// returns no handle (an error alone: err != nil may also mean "this node
// holds it already") is not read so.
func handleDropped(l *Lease) bool {
	call, ok := l.Call.(*ssa.Call)
	if !ok {
		return false
	}
	tuple, ok := call.Type().(*types.Tuple)
	if !ok || tuple.Len() != 2 || !isErrorType(tuple.At(1).Type()) || typeIsBool(tuple.At(0).Type()) {
		return false
	}
	for _, ref := range referrers(call) {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == 0 && len(referrers(x)) > 0 {
			return false
		}
	}
	return true
}

// letsGo reports whether l's function releases a lease of l's system, by a
// call or a deferred call.
func (b *builder) letsGo(l *Lease) bool {
	for _, blk := range l.Fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if c, ok := b.resolve(call.Common()); ok && c.role.Has(RoleRelease) && (c.system == l.System || c.system == "") {
				return true
			}
		}
	}
	return false
}

// forwardReaches reports whether a path from instruction from to
// instruction to stays within one turn of every loop that contains to: it
// takes no back edge of such a loop (an inner loop that from is in and to
// is after, such as one that takes a lock per source, it may go round).
func forwardReaches(from, to ssa.Instruction) bool {
	start, end := from.Block(), to.Block()
	if start == end && instrIndex(start, from) < instrIndex(end, to) {
		return true
	}
	return blockReaches(start, end)
}

// blockReaches reports whether a path from the end of block start to block
// end takes no back edge of a loop that contains end.
func blockReaches(start, end *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		for _, succ := range blk.Succs {
			if seen[succ] || succ.Dominates(blk) && inLoopOf(end, succ) {
				continue // the next turn of a loop end is in
			}
			if succ == end {
				return true
			}
			seen[succ] = true
			work = append(work, succ)
		}
	}
	return false
}

// inLoopOf reports whether blk is in the loop whose head is header:
// header dominates blk, and blk leads back to header.
func inLoopOf(blk, header *ssa.BasicBlock) bool {
	if !header.Dominates(blk) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{blk: true}
	work := []*ssa.BasicBlock{blk}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, succ := range b.Succs {
			if succ == header {
				return true
			}
			if !seen[succ] {
				seen[succ] = true
				work = append(work, succ)
			}
		}
	}
	return false
}

// askedHeld reports whether a branch that decides whether blk runs reads
// l's acquire result or a variable set after the acquire in the same turn.
func (b *builder) askedHeld(l *Lease, blk *ssa.BasicBlock) bool {
	flags := setAfter(l.Call)
	for d := blk.Idom(); d != nil; d = d.Idom() {
		iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok || d.Succs[0] == d.Succs[1] {
			continue
		}
		if readsAcquire(iff.Cond, l.Call, flags, 0) {
			return true
		}
	}
	return false
}

// setAfter returns the fields and package variables stored to in the
// blocks a path from call reaches within one turn of its loops (an
// atomic.Bool's Store too).
func setAfter(call ssa.CallInstruction) map[any]bool {
	flags := make(map[any]bool)
	for _, blk := range call.Parent().Blocks {
		for _, instr := range blk.Instrs {
			var addr ssa.Value
			switch x := instr.(type) {
			case *ssa.Store:
				addr = x.Addr
			case *ssa.Call:
				if isAtomicBool(x, "Store") && len(x.Call.Args) > 0 {
					addr = x.Call.Args[0]
				}
			}
			if key := flagKey(addr); key != nil && forwardReaches(call, instr) {
				flags[key] = true
			}
		}
	}
	return flags
}

// readsAcquire reports whether cond is computed from the result of call or
// from a load of one of flags.
func readsAcquire(cond ssa.Value, call ssa.CallInstruction, flags map[any]bool, depth int) bool {
	if depth > 6 {
		return false
	}
	next := func(v ssa.Value) bool { return readsAcquire(v, call, flags, depth+1) }
	switch x := cond.(type) {
	case *ssa.Call:
		if isAtomicBool(x, "Load") && len(x.Call.Args) > 0 && flags[flagKey(x.Call.Args[0])] {
			return true
		}
		return ssa.CallInstruction(x) == call
	case *ssa.Extract:
		return next(x.Tuple)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if key := flagKey(x.X); key != nil && flags[key] {
				return true
			}
		}
		return next(x.X)
	case *ssa.BinOp:
		return next(x.X) || next(x.Y)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if next(e) {
				return true
			}
		}
	case *ssa.ChangeType:
		return next(x.X)
	case *ssa.Convert:
		return next(x.X)
	}
	return false
}

package lease

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An etcd STM (concurrency.NewSTM) runs a function that reads keys with
// stm.Get and stm.Rev and writes them with stm.Put and stm.Del; it commits
// them in a Txn whose If compares the revisions of the keys it read, and
// runs the function again when one changed. That guards the STM's own
// read-to-commit window, not the lease: a holder paused past its lease
// before it starts the STM reads what the next holder wrote and commits
// over it the decision it made before (gophercron's scheduler reads a
// task's state outside the STM, then inside sets it STARTING whatever it
// finds). An STM's write is fenced when the function that makes it also
// reads the lease's key through the STM (Election.Key(), Mutex.Key(), a
// hand-rolled lock's key) and decides a branch on what it read: with the
// key in its read set, the commit fails once the key changes, and the
// branch gives up when it is gone (if stm.Rev(m.Key()) == 0 { return
// errLost }).

// stmNote says, in diagnostics, why an STM's write is no fence.
const stmNote = "an STM retries when the keys it read change, not when the lease is lost"

// stmAdvice says how to fence an STM's write.
const stmAdvice = "fence it: read the lease's key in the STM and give up when it is gone " +
	"(if stm.Rev(election.Key()) == 0 { return errLost }): the commit then fails once the key changes"

// stmFenced reports whether fn, which writes through the STM stm, reads
// the lease's key through the same STM and decides a branch on it.
func (b *builder) stmFenced(fn *ssa.Function, stm ssa.Value) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !call.Call.IsInvoke() || call.Call.Value != stm || len(call.Call.Args) == 0 {
				continue
			}
			if name := call.Call.Method.Name(); name != "Get" && name != "Rev" {
				continue
			}
			keys := call.Call.Args[:1]
			if elems, ok := variadic(keys[0]); ok { // Get(key ...string)
				keys = elems
			}
			if slices.ContainsFunc(keys, b.isLeaseOrLockKey) && decidesBranch(call, 0) {
				return true
			}
		}
	}
	return false
}

// isLeaseOrLockKey reports whether v is an etcd election's or mutex's
// key, or a hand-rolled lock's.
func (b *builder) isLeaseOrLockKey(v ssa.Value) bool {
	return v != nil && (b.isLeaseKey(v) || b.isLockKey(v))
}

// decidesBranch reports whether v flows, through comparisons, negations,
// conversions and phis, into the condition of an if.
func decidesBranch(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 6 {
		return false
	}
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.If:
			return true
		case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.Phi:
			if decidesBranch(x.(ssa.Value), depth+1) {
				return true
			}
		}
	}
	return false
}

package lease

import (
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
			key := call.Call.Args[0]
			if slice, ok := key.(*ssa.Slice); ok { // Get(key ...string)
				key = firstStored(slice)
			}
			if key != nil && (b.isLeaseKey(key) || b.isLockKey(key)) && decidesBranch(call, 0) {
				return true
			}
		}
	}
	return false
}

// firstStored returns the value stored in the first element of the array
// a variadic call's slice is made from, or nil.
func firstStored(s *ssa.Slice) ssa.Value {
	arr, ok := s.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, ref := range *arr.Referrers() {
		idx, ok := ref.(*ssa.IndexAddr)
		if !ok || !isConstInt(idx.Index, 0) {
			continue
		}
		for _, use := range *idx.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == idx {
				return st.Val
			}
		}
	}
	return nil
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

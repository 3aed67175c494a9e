package lease

import (
	"go/token"
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

//
// An STM's write is fenced too when the STM makes it only where the very
// key it writes, read through the same STM, holds one value, and gives up
// otherwise: a create where the key is absent (if stm.Get(k) != "" {
// return errExists }; stm.Put(k, v)), or a move from the one state
// compared there (if stm.Get(k) != "running" { return errNotRunning };
// stm.Put(k, "done")). That is a Txn's Compare(Value(k), "=", v) on a
// key it writes, with the STM's retry: a stale holder finds what the next
// holder wrote and gives up, or its commit fails and the STM runs again
// and finds it. A write made where the key holds anything but one value
// is no such decision: an update only when the key exists (if
// stm.Get(k) == "" { return errMissing }), as for a Txn's KeyExists, or
// anything but done (if stm.Get(k) == "done" { return nil }): the next
// holder's write passes the check too. Nor is a read whose branches both
// write (gophercron's "set STARTING whatever it finds").

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

// stmDecided reports whether write, a Put or Del through the STM stm in
// fn, is made only past a check of its own key, read through stm, whose
// other branch gives up: a create when the key was absent, or a move from
// a state compared with a value. It names what decided it.
func (b *builder) stmDecided(fn *ssa.Function, stm ssa.Value, write ssa.CallInstruction) (string, bool) {
	key := arg(write.Common(), 0)
	if key == nil {
		return "", false
	}
	writes := stmWriteBlocks(fn, stm)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			read, ok := instr.(*ssa.Call)
			if !ok || !read.Call.IsInvoke() || read.Call.Value != stm || !stmReadsKey(read, key) {
				continue
			}
			for _, ref := range referrers(read) {
				cmp, ok := ref.(*ssa.BinOp)
				if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
					continue
				}
				absent := stmAbsent(cmp, read)
				for _, br := range branchesOn(cmp) {
					won, ok := stmWonEdge(br, cmp, writes)
					if ok && !reachesAvoiding(fn, write.Block(), map[edge]bool{won: true}) {
						if absent {
							return "a create if absent in the STM", true
						}
						return "a state the STM compares before it writes", true
					}
				}
			}
		}
	}
	return "", false
}

// stmReadsKey reports whether read, an STM's Get or Rev, reads key alone.
func stmReadsKey(read *ssa.Call, key ssa.Value) bool {
	name := read.Call.Method.Name()
	if name != "Get" && name != "Rev" || len(read.Call.Args) != 1 {
		return false
	}
	k := read.Call.Args[0]
	if elems, ok := variadic(k); ok && name == "Get" { // Get(key ...string)
		if len(elems) != 1 {
			return false
		}
		k = elems[0]
	}
	return sameBuiltKey(unwrap(k), unwrap(key))
}

// stmAbsent reports whether cmp compares read with what an absent key
// reads as: "" from Get, 0 from Rev.
func stmAbsent(cmp *ssa.BinOp, read *ssa.Call) bool {
	other := cmp.Y
	if cmp.Y == read {
		other = cmp.X
	}
	if s, ok := constString(other); ok {
		return s == ""
	}
	n, ok := constInt(other)
	return ok && n == 0
}

// branchesOn returns the ifs whose condition is cond, negated any number
// of times.
func branchesOn(cond ssa.Value) []*ssa.If {
	var ifs []*ssa.If
	for _, ref := range referrers(cond) {
		switch x := ref.(type) {
		case *ssa.If:
			ifs = append(ifs, x)
		case *ssa.UnOp:
			if x.Op == token.NOT {
				ifs = append(ifs, branchesOn(x)...)
			}
		}
	}
	return ifs
}

// stmWonEdge returns the edge of br, an if on cmp, past which the STM
// goes on to write, when the other edge gives up (writes nothing through
// the STM before it returns or meets br again) and the write is on the
// side where the key holds the compared value.
func stmWonEdge(br *ssa.If, cmp *ssa.BinOp, writes map[*ssa.BasicBlock]bool) (edge, bool) {
	blk := br.Block()
	gives := [2]bool{givesUp(blk.Succs[0], blk, writes), givesUp(blk.Succs[1], blk, writes)}
	if gives[0] == gives[1] {
		return edge{}, false
	}
	won := 0
	if gives[0] {
		won = 1
	}
	negated := false
	for v := br.Cond; v != ssa.Value(cmp); {
		not, ok := v.(*ssa.UnOp)
		if !ok {
			return edge{}, false
		}
		negated, v = !negated, not.X
	}
	isEqual := (cmp.Op == token.EQL) != negated
	// Edge 0 is taken when the condition holds: with ==, when the key
	// holds the compared value. The write must be where it does: from
	// that one state (absence included), as a Txn's Compare(Value(k), "=",
	// v) writes. Where the key holds anything else (!= "done", or !=
	// "": it exists), the next holder's write passes the check too.
	if (won == 0) != isEqual {
		return edge{}, false
	}
	return edge{blk, won}, true
}

// stmWriteBlocks returns the blocks of fn that hold a Put or Del through
// stm.
func stmWriteBlocks(fn *ssa.Function, stm ssa.Value) map[*ssa.BasicBlock]bool {
	blocks := make(map[*ssa.BasicBlock]bool)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if call, ok := instr.(*ssa.Call); ok && call.Call.IsInvoke() && call.Call.Value == stm {
				if name := call.Call.Method.Name(); name == "Put" || name == "Del" {
					blocks[blk] = true
				}
			}
		}
	}
	return blocks
}

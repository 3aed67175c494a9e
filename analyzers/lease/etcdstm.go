package lease

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

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
// write (gophercron's "set STARTING whatever it finds"), except a create
// where the key is absent (if len(v) == 0 { stm.Put(k, base) }), which
// is one whatever the STM writes where the key exists. A write to another
// key is decided too where the STM creates the key whose absence it
// checked along with it (vearch's CreateDB puts the name, ID and body
// keys where the name is free): it is part of that creation.
//
// A counter drawn in an STM needs no fence either: stm.Put(k, n+1) with
// n parsed from the STM's own stm.Get(k), the value handed out through a
// variable of the function that runs the STM (an ID generator). Whatever
// the next holder drew, the commit compares k's revision, so the value
// put follows the one the key held at the commit: the stale holder draws
// a number no one else gets. A count bumped and not handed out is
// another matter: like UPDATE SET n = n + 1, a stale holder's bump counts
// twice.

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
// a state compared with a value; or only where its own key was absent,
// whatever the other branch does; or only past the absence of another key
// the STM creates with it (CreateDB's body beside its name and id keys);
// or draws a counter's next value (stmIncrement). It names what decided
// it.
func (b *builder) stmDecided(fn *ssa.Function, stm ssa.Value, write ssa.CallInstruction) (string, bool) {
	key := arg(write.Common(), 0)
	if key == nil {
		return "", false
	}
	if stmIncrement(stm, write) {
		return "a counter drawn in the STM", true
	}
	writes := stmWriteBlocks(fn, stm)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			read, ok := instr.(*ssa.Call)
			if !ok || !read.Call.IsInvoke() || read.Call.Value != stm {
				continue
			}
			own := stmReadsKey(read, key)
			if !own && !stmCreatesWith(fn, stm, read, write) {
				continue
			}
			for _, cmp := range stmCompares(read) {
				absent := stmAbsent(cmp, read)
				if !own && !absent {
					continue
				}
				for _, br := range branchesOn(cmp) {
					won, ok := stmWonEdge(br, cmp, writes, absent)
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

// stmCompares returns the equality comparisons of read, an STM's Get or
// Rev, with another value: of the value itself, or of its length
// (len(v) == 0 asks whether the key is absent, as v == "" does).
func stmCompares(read *ssa.Call) []*ssa.BinOp {
	var cmps []*ssa.BinOp
	add := func(refs []ssa.Instruction) {
		for _, ref := range refs {
			if cmp, ok := ref.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) {
				cmps = append(cmps, cmp)
			}
		}
	}
	add(referrers(read))
	for _, ref := range referrers(read) {
		if n, ok := ref.(*ssa.Call); ok && isLen(n.Common()) {
			add(referrers(n))
		}
	}
	return cmps
}

// stmCreatesWith reports whether read is an STM's read of one key that fn
// also puts through stm, so that write, another key's, is part of that
// key's creation.
func stmCreatesWith(fn *ssa.Function, stm ssa.Value, read *ssa.Call, write ssa.CallInstruction) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			put, ok := instr.(*ssa.Call)
			if !ok || put == write || !put.Call.IsInvoke() || put.Call.Value != stm || put.Call.Method.Name() != "Put" {
				continue
			}
			if k := arg(put.Common(), 0); k != nil && stmReadsKey(read, k) {
				return true
			}
		}
	}
	return false
}

// stmIncrement reports whether write draws the next value of a counter:
// stm.Put(k, v) with v computed from the STM's own read of k and
// constants alone, and handed out through a variable of the function that
// runs the STM (v := stm.Get(k); n, _ := strconv.ParseInt(v, 10, 64);
// nextID = n + 1; stm.Put(k, strconv.FormatInt(nextID, 10))). The commit
// compares k's revision, so the value drawn follows from what the key
// held at the commit, whoever wrote it: a stale holder draws a number no
// one else gets and overwrites nothing. (A counter bumped and not handed
// out accumulates, as UPDATE SET n = n + 1 does: a stale holder's bump
// counts twice.)
func stmIncrement(stm ssa.Value, write ssa.CallInstruction) bool {
	c := write.Common()
	if c.Method == nil || c.Method.Name() != "Put" || len(c.Args) < 2 {
		return false
	}
	key := c.Args[0]
	var t valueTrace
	t.read = func(read *ssa.Call) bool {
		return read.Call.IsInvoke() && read.Call.Value == stm && read.Call.Method.Name() == "Get" && stmReadsKey(read, key)
	}
	return t.fromReadAlone(c.Args[1], 0) && t.reads && t.handedOut
}

// A valueTrace follows a value back to what it is computed from.
type valueTrace struct {
	read      func(*ssa.Call) bool // the calls it may come from
	reads     bool                 // it comes from one
	handedOut bool                 // it passed through a variable a closure captured
}

// fromReadAlone reports whether v is computed only from constants and
// calls t.read accepts, through conversions, arithmetic, strconv's and
// fmt's formatting and parsing, and variables last stored earlier in the
// same block.
func (t *valueTrace) fromReadAlone(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Convert:
		return t.fromReadAlone(x.X, depth+1)
	case *ssa.ChangeType:
		return t.fromReadAlone(x.X, depth+1)
	case *ssa.MakeInterface:
		return t.fromReadAlone(x.X, depth+1)
	case *ssa.BinOp:
		return t.fromReadAlone(x.X, depth+1) && t.fromReadAlone(x.Y, depth+1)
	case *ssa.Extract:
		return t.fromReadAlone(x.Tuple, depth+1)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return t.fromReadAlone(x.X, depth+1)
		}
		st := lastStoreBefore(x, x.X)
		if st == nil {
			return false
		}
		if _, captured := x.X.(*ssa.FreeVar); captured {
			t.handedOut = true
		}
		return t.fromReadAlone(st.Val, depth+1)
	case *ssa.Call:
		if t.read(x) {
			t.reads = true
			return true
		}
		f := calleeFunc(x.Common())
		if f == nil || f.Pkg() == nil || !formats(f) {
			return false
		}
		for _, a := range callArgs(x.Common()) {
			elems, ok := variadic(a)
			if !ok {
				elems = []ssa.Value{a}
			}
			for _, e := range elems {
				if !t.fromReadAlone(e, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// formats reports whether f only parses or formats its operands:
// strconv's and fmt's Sprint family.
func formats(f *types.Func) bool {
	switch f.Pkg().Path() {
	case "strconv":
		return strings.HasPrefix(f.Name(), "Parse") || strings.HasPrefix(f.Name(), "Format") || f.Name() == "Itoa" || f.Name() == "Atoi"
	case "fmt":
		return f.Name() == "Sprint" || f.Name() == "Sprintf"
	}
	return false
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
// reads as: "" from Get, 0 from Rev, or a length of 0.
func stmAbsent(cmp *ssa.BinOp, read *ssa.Call) bool {
	other := cmp.Y
	if cmp.Y == read || lenOf(cmp.Y, read) {
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
// the STM before it returns or meets br again), or when cmp asks whether
// the key is absent, and the write is on the side where the key holds the
// compared value (is absent).
func stmWonEdge(br *ssa.If, cmp *ssa.BinOp, writes map[*ssa.BasicBlock]bool, absent bool) (edge, bool) {
	blk := br.Block()
	negated := false
	for v := br.Cond; v != ssa.Value(cmp); {
		not, ok := v.(*ssa.UnOp)
		if !ok {
			return edge{}, false
		}
		negated, v = !negated, not.X
	}
	isEqual := (cmp.Op == token.EQL) != negated
	if absent {
		// A create where the key is absent: what the other branch does
		// to a key that exists is judged on its own.
		if isEqual {
			return edge{blk, 0}, true
		}
		return edge{blk, 1}, true
	}
	won, ok := goesOnEdge(blk, writes)
	if !ok {
		return edge{}, false
	}
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

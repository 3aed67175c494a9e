package lease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A compare-and-swap that reads the version it compares afresh, looks at
// nothing else it read, and tries again when the compare fails, writes what
// it was given whatever is there. cke updates its repair queue entries
// like this:
//
//	data, _ := json.Marshal(entry) // the caller's copy
//	RETRY:
//	resp, _ := s.Get(ctx, key)
//	if resp.Count == 0 {
//		return ErrNotFound
//	}
//	rev := resp.Kvs[0].ModRevision
//	txn, _ := s.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
//		Then(clientv3.OpPut(key, string(data))).Commit()
//	if !txn.Succeeded {
//		goto RETRY
//	}
//
// The compare only asks whether anyone wrote the key since the read made a
// moment ago; when someone did, the loop reads again and writes the same
// data. A caller that decided what to write under a lease it has lost since
// overwrites the next holder's entry. Such a swap is no fence. Precisely,
// a compare-and-swap is blind when
//
//   - the version it expects comes, through fields and indexes, from a
//     call (the read) in its own function that is given the key it writes;
//   - the read and the swap are in one loop: the swap is retried on a fresh
//     read;
//   - the key and the value written are fixed before that loop (a value
//     recomputed in the loop may be computed from what it read); and
//   - of what the read returned, the loop looks at nothing but versions,
//     counts and whether the key exists: a loop that looks at the value
//     (yorc's status update, which compares the stored status first)
//     decides again on every turn, and is given the benefit of the doubt.
//
// etcd's Txn (a compare of the key's ModRevision, Version or Value) and
// ZooKeeper's Set and Delete (a version from Get or Exists) are read so.

// blindSwap reports whether a compare-and-swap on key, expecting expected
// and writing value (nil for a delete), is blind; at is an instruction of
// the swap (the compare, or the call that writes).
func blindSwap(at ssa.Instruction, key, expected, value ssa.Value) bool {
	read := readOf(expected)
	if read == nil || read.Parent() != at.Parent() || !hasArg(read.Common(), key) {
		return false
	}
	loop := loopOf(read.Block())
	if !loop[at.Block()] || !fixedBefore(key, loop, 0) || value != nil && !fixedBefore(value, loop, 0) {
		return false
	}
	return !looksAtValue(read, expected)
}

// readOf returns the call whose result expected is drawn from through
// fields, indexes and loads (resp.Kvs[0].ModRevision, stat.Version), or nil.
func readOf(expected ssa.Value) *ssa.Call {
	for v := expected; ; {
		switch x := unwrap(v).(type) {
		case *ssa.Call:
			return x
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		default:
			return nil
		}
	}
}

// hasArg reports whether one of call's arguments is v.
func hasArg(call *ssa.CallCommon, v ssa.Value) bool {
	for _, a := range callArgs(call) {
		if a != nil && sameValue(a, v, 0) {
			return true
		}
	}
	return false
}

// loopOf returns the blocks of the loop blk is in: those it reaches that
// reach it back. It is empty when blk is in no loop.
func loopOf(blk *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	from := reachable(blk, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	to := reachable(blk, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	loop := make(map[*ssa.BasicBlock]bool)
	for b := range from {
		if to[b] {
			loop[b] = true
		}
	}
	return loop
}

// reachable returns the blocks reached from blk by one or more steps of next.
func reachable(blk *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := slices.Clone(next(blk))
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if !seen[b] {
			seen[b] = true
			work = append(work, next(b)...)
		}
	}
	return seen
}

// fixedBefore reports whether v is the same on every turn of loop: made
// before it, or converted in it from what is (string(data)).
func fixedBefore(v ssa.Value, loop map[*ssa.BasicBlock]bool, depth int) bool {
	if depth > 4 {
		return false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil || !loop[instr.Block()] {
		return true // a parameter, a constant, a global, or made before the loop
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return fixedBefore(x.X, loop, depth+1)
	case *ssa.ChangeType:
		return fixedBefore(x.X, loop, depth+1)
	case *ssa.MakeInterface:
		return fixedBefore(x.X, loop, depth+1)
	}
	return false
}

// looksAtValue reports whether anything uses what read returned beyond
// versions, counts, existence and its error (expected, the version the
// swap compares, is the swap's): a value, or the result handed on whole.
func looksAtValue(read *ssa.Call, expected ssa.Value) bool {
	seen := map[ssa.Value]bool{unwrap(expected): true}
	var uses func(v ssa.Value, depth int) bool
	uses = func(v ssa.Value, depth int) bool {
		if seen[v] || isErrorType(v.Type()) {
			return false
		}
		if depth > 8 {
			return true
		}
		seen[v] = true
		for _, ref := range referrers(v) {
			switch r := ref.(type) {
			case *ssa.Extract:
				if zkData(read, r) || uses(r, depth+1) {
					return true
				}
			case *ssa.FieldAddr:
				if valueField(r.X.Type(), r.Field) || uses(r, depth+1) {
					return true
				}
			case *ssa.Field:
				if valueField(r.X.Type(), r.Field) || uses(r, depth+1) {
					return true
				}
			case *ssa.IndexAddr, *ssa.Index, *ssa.UnOp:
				if uses(r.(ssa.Value), depth+1) {
					return true
				}
			case *ssa.BinOp, *ssa.If, *ssa.DebugRef:
				// a version or count compared: no decision on the value
			case *ssa.Call:
				if !isLen(r.Common()) {
					return true
				}
			default:
				return true // stored, returned, handed on: out of sight
			}
		}
		return false
	}
	return uses(read, 0)
}

// zkData reports whether x is the data a ZooKeeper Get returns (its first
// result), used.
func zkData(read *ssa.Call, x *ssa.Extract) bool {
	f := calleeFunc(read.Common())
	results, ok := read.Type().(*types.Tuple)
	return f != nil && f.Name() == "Get" && ok && results.Len() == 3 && x.Index == 0 && len(referrers(x)) > 0
}

// valueField reports whether field i of the struct that t (or what t
// points to) is carries a stored value rather than a version or a count.
func valueField(t types.Type, i int) bool {
	switch fieldName(t, i) {
	case "Value", "Data", "Kv", "PrevKv":
		return true
	}
	return false
}

// zkBlindSwap reports whether call, a ZooKeeper Set or Delete whose
// version argument is at api.Arg, is a blind compare-and-swap.
func zkBlindSwap(call ssa.CallInstruction, api *API) bool {
	c := call.Common()
	var value ssa.Value
	if api.Name == "Set" {
		value = arg(c, 1)
	}
	return blindSwap(call, arg(c, 0), arg(c, api.Arg), value)
}

// blindSwapNote says, in diagnostics, why a blind compare-and-swap is no
// fence: its compare is why it looks like one.
func blindSwapNote(what string) string {
	return "its " + what + " read afresh on every retry"
}

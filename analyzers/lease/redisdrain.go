package lease

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A Redis transaction that reads a key whole and then deletes it takes the
// key's contents, as GETDEL does: an analytics pump's drain of the list its
// producers push to, under the lock that keeps two pumps apart,
//
//	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
//		vals = pipe.LRange(ctx, key, 0, -1)
//		pipe.Del(ctx, key)
//		return nil
//	})
//
// MULTI/EXEC makes the read and the delete one step, so every element is
// taken by exactly one caller, lease or not: a stale holder's DEL removes
// only what its own LRANGE returned to it, nothing another holder read or
// wrote meanwhile is lost, and nothing is taken twice. What the holder then
// does with what it took is judged where it writes. Precisely: a go-redis
// Del or Unlink of one key, in the function handed to TxPipelined (not
// Pipelined, which is not atomic), after a read of that same key whole in
// that function (LRange or ZRange from 0 to -1, SMembers, HGetAll, Get). A
// pop, a partial range or a DEL after a read made outside the transaction
// stays a write: what it removes depends on a read a stale holder made.

// drainsKey reports whether call, the go-redis write name made in fn, is
// the DEL of an atomic drain.
func (b *builder) drainsKey(fn *ssa.Function, call ssa.CallInstruction, name string) bool {
	if name != "Del" && name != "Unlink" || !b.runByTxPipelined(fn) {
		return false
	}
	keys, known := variadic(redisArg(call.Common(), 1))
	if !known || len(keys) != 1 || keys[0] == nil {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if read, ok := instr.(ssa.CallInstruction); ok && read != call && precedes(read, call) && b.readsWhole(read.Common(), keys[0]) {
				return true
			}
		}
	}
	return false
}

// runByTxPipelined reports whether fn is a closure whose only use is to be
// handed to go-redis's TxPipelined, which runs it once inside MULTI/EXEC.
func (b *builder) runByTxPipelined(fn *ssa.Function) bool {
	if fn.Parent() == nil {
		return false
	}
	var made *ssa.MakeClosure
	for _, blk := range fn.Parent().Blocks {
		for _, instr := range blk.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if made != nil {
					return false
				}
				made = mc
			}
		}
	}
	if made == nil {
		return false
	}
	refs := referrers(made)
	if len(refs) != 1 {
		return false
	}
	run, ok := refs[0].(ssa.CallInstruction)
	if !ok {
		return false
	}
	f := calleeFunc(run.Common())
	if f == nil || f.Pkg() == nil || b.ix.canonical(f.Pkg().Path()) != pkgGoRedis || f.Name() != "TxPipelined" {
		return false
	}
	args := callArgs(run.Common())
	return len(args) > 0 && args[len(args)-1] == ssa.Value(made)
}

// readsWhole reports whether call is a go-redis read of all of key's value.
func (b *builder) readsWhole(call *ssa.CallCommon, key ssa.Value) bool {
	f := calleeFunc(call)
	if f == nil || f.Pkg() == nil || b.ix.canonical(f.Pkg().Path()) != pkgGoRedis {
		return false
	}
	if !sameKey(redisArg(call, 1), key) {
		return false
	}
	switch f.Name() {
	case "SMembers", "HGetAll", "Get":
		return true
	case "LRange", "ZRange", "ZRangeWithScores":
		start, ok1 := constInt(redisArg(call, 2))
		stop, ok2 := constInt(redisArg(call, 3))
		return ok1 && ok2 && start == 0 && stop == -1
	}
	return false
}

// sameKey reports whether two key expressions of one function name the
// same key: the same value, the same constant, the same variable loaded
// again (a captured key), or the same concatenation of such parts.
func sameKey(a, b ssa.Value) bool {
	a, b = unwrap(a), unwrap(b)
	if a == nil || b == nil {
		return false
	}
	if a == b {
		return true
	}
	switch x := a.(type) {
	case *ssa.Const:
		y, ok := b.(*ssa.Const)
		return ok && x.Value != nil && y.Value != nil && x.Value.Kind() == y.Value.Kind() && constant.Compare(x.Value, token.EQL, y.Value)
	case *ssa.BinOp:
		y, ok := b.(*ssa.BinOp)
		return ok && x.Op == y.Op && sameKey(x.X, y.X) && sameKey(x.Y, y.Y)
	case *ssa.UnOp:
		if y, ok := b.(*ssa.UnOp); ok && x.Op == token.MUL && y.Op == token.MUL && x.X == y.X {
			return true
		}
	}
	return sameReceiver(a, b)
}

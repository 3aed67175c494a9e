package lease

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A list push onto a queue is a message. A type that pushes onto a Redis
// list in one method and takes from it with a blocking pop in another is a
// queue (a job or event queue of the application's, a store's Enqueue and
// Dequeue):
//
//	func (s *Store) Enqueue(q string, v any) error { return s.rdb.LPush(ctx, q, encode(v)).Err() }
//	func (s *Store) Dequeue(ctx context.Context, q string) (string, error) {
//		res, err := s.rdb.BRPop(ctx, time.Second, q).Result()
//		...
//
// Its consumers wait on the list, take each entry once and act on it; a
// push appends an entry and overwrites nothing another holder wrote, as an
// XADD does. What a stale holder can do is enqueue an extra entry, the
// duplicate a consumer of a queue must already handle (a job retried after
// a crash) and, where it acts on state, re-read under its own lock. So a
// push made in a method of a queue type is no write a fence protects; a
// push elsewhere (a list of history, a queue whose consumer fencelint does
// not see) stays one, and so does one in a function that also trims, pops
// or rewrites the list, which keeps state in it.

// pushesOntoQueue reports whether call, the Redis command cmd made in fn,
// is a list push onto a queue: fn is a method (or a literal in one) of a
// type with a method that takes from a list with a blocking pop.
func (b *builder) pushesOntoQueue(fn *ssa.Function, cmd string) bool {
	if !slices.Contains([]string{"LPUSH", "RPUSH", "LPUSHX", "RPUSHX"}, cmd) || b.editsList(fn) {
		return false
	}
	t := receiverType(fn)
	_, ok := b.queueTypes()[t]
	return t != nil && ok
}

// clearsQueue reports whether c, the Redis command cmd made in fn, deletes
// only lists that fn's type waits on with a blocking pop: a signal list
// emptied of stale wake-ups before the work it then waits for (gitpulse's
// logic deletes its update key, enqueues the fetch and blocks on that key
// until the fetcher pushes onto it). A stale holder's delete drops a
// wake-up, a message, as a push adds one; the data stays where the
// fetcher writes it. A key is taken for the popped one when it is built
// the same way: the same function, or the same concatenation, on the same
// constants (GetNewLockKey(locks.UpdateFollower, in.DeveloperId) deleted,
// GetNewLockKey(locks.UpdateFollower, id) popped).
func (b *builder) clearsQueue(fn *ssa.Function, c *ssa.CallCommon, cmd string) bool {
	if cmd != "DEL" && cmd != "UNLINK" {
		return false
	}
	t := receiverType(fn)
	if t == nil {
		return false
	}
	popped := b.queueTypes()[t]
	keys := redisKeyArgs(c)
	for _, k := range keys {
		if !slices.ContainsFunc(popped, func(p ssa.Value) bool { return b.sameKey(k, p) || sameKeyShape(k, p) }) {
			return false
		}
	}
	return len(keys) > 0
}

// sameKeyShape reports whether two keys are built by the same function, or
// the same concatenation, from the same constants (what varies being
// values fencelint does not compare across functions).
func sameKeyShape(a, b ssa.Value) bool {
	a, b = unwrap(a), unwrap(b)
	var as, bs []ssa.Value
	switch x := a.(type) {
	case *ssa.Call:
		y, ok := b.(*ssa.Call)
		if !ok || x.Call.IsInvoke() || x.Call.StaticCallee() == nil || x.Call.StaticCallee() != y.Call.StaticCallee() {
			return false
		}
		as, bs = x.Call.Args, y.Call.Args
	case *ssa.BinOp:
		y, ok := b.(*ssa.BinOp)
		if !ok || x.Op != token.ADD || y.Op != token.ADD {
			return false
		}
		as, bs = []ssa.Value{x.X, x.Y}, []ssa.Value{y.X, y.Y}
	default:
		return false
	}
	if len(as) != len(bs) {
		return false
	}
	constants := 0
	for i := range as {
		ca, aok := unwrap(as[i]).(*ssa.Const)
		cb, bok := unwrap(bs[i]).(*ssa.Const)
		if aok != bok || aok && !sameValue(ca, cb, 0) {
			return false
		}
		if aok {
			constants++
		}
	}
	return constants > 0
}

// queueTypes returns the package's types with a method (or a literal in
// one) that makes a blocking list pop, with the keys they pop.
func (b *builder) queueTypes() map[*types.TypeName][]ssa.Value {
	if b.queues != nil {
		return b.queues
	}
	b.queues = map[*types.TypeName][]ssa.Value{}
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		switch b.redisCommand(call.Common()) {
		case "BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP":
			if t := receiverType(fn); t != nil {
				b.queues[t] = append(b.queues[t], poppedKeys(call.Common())...)
			}
		}
		return true
	})
	return b.queues
}

// poppedKeys returns the keys a blocking pop waits on: go-redis's variadic
// keys (BLPop(ctx, timeout, keys...)) or go-zero's one key, its last
// argument (BlpopWithTimeoutCtx(ctx, node, timeout, key)). None for
// redigo's, whose keys come before the timeout in one list.
func poppedKeys(c *ssa.CallCommon) []ssa.Value {
	if isRedigo(c) || len(c.Args) == 0 {
		return nil
	}
	last := c.Args[len(c.Args)-1]
	if elems, ok := variadic(last); ok {
		return elems
	}
	if isString(last.Type()) {
		return []ssa.Value{last}
	}
	return nil
}

// editsList reports whether fn also trims, pops or rewrites a list: a
// bounded list of history, not a queue it feeds.
func (b *builder) editsList(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch b.redisCommand(call.Common()) {
			case "LTRIM", "LREM", "LSET", "LPOP", "RPOP", "LINSERT":
				return true
			}
		}
	}
	return false
}

// redisCommand returns the Redis command a go-redis or go-zero method or a redigo Do
// sends, in upper case, or "" for any other call.
func (b *builder) redisCommand(c *ssa.CallCommon) string {
	f := calleeFunc(c)
	if f == nil || f.Pkg() == nil {
		return ""
	}
	switch b.ix.canonical(f.Pkg().Path()) {
	case pkgGoRedis:
		if receiverName(f) == "" {
			return ""
		}
		return strings.ToUpper(f.Name())
	case pkgGoZeroRedis:
		if receiverName(f) == "Redis" {
			return goZeroCommand(f.Name())
		}
	case pkgRedigo:
		switch f.Name() {
		case "Do", "Send", "DoContext", "DoWithTimeout":
			cmd, _ := redigoRole(c)
			return cmd
		}
	}
	return ""
}

// receiverType returns the named type whose method fn is, or encloses fn
// as a function literal; nil for a package-level function.
func receiverType(fn *ssa.Function) *types.TypeName {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := types.Unalias(t).(*types.Named); ok {
		return named.Origin().Obj()
	}
	return nil
}

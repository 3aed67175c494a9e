package lease

import (
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
	return t != nil && b.queueTypes()[t]
}

// queueTypes returns the package's types with a method (or a literal in
// one) that makes a blocking list pop.
func (b *builder) queueTypes() map[*types.TypeName]bool {
	if b.queues != nil {
		return b.queues
	}
	b.queues = map[*types.TypeName]bool{}
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		switch b.redisCommand(call.Common()) {
		case "BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP":
			if t := receiverType(fn); t != nil {
				b.queues[t] = true
			}
		}
		return true
	})
	return b.queues
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

// redisCommand returns the Redis command a go-redis method or a redigo Do
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

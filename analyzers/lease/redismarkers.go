package lease

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A SET NX with an expiry is a hand-rolled lock only when the caller that
// lost it keeps off its key. One that every caller refreshes, also the
// callers whose SET NX found the key there, is a marker with a sliding TTL
// ("seen online in the last 10 minutes", "ran within the last minute"):
// no caller holds it exclusively, so the writes after it are not made
// under a lease. This file finds the SET NX calls whose own key the same
// function refreshes on a path the SET NX's result does not decide. Which
// calls claim a key and which refresh one is the catalog's knowledge: the
// Redis RoleTryAcquire rows and the RoleRefresh rows and commands. The
// claim is read only where a boolean result tells won from lost (go-redis's
// SetNX and its BoolCmd); a refresh, by any Redis client the catalog knows.

// isMarker reports whether the SET NX call c is a marker, not a lock.
func (b *builder) isMarker(c *ssa.CallCommon) bool {
	if b.markers == nil {
		b.markers = b.findMarkers()
	}
	return b.markers[c]
}

// findMarkers returns the package's SET NX calls that are markers.
func (b *builder) findMarkers() map[*ssa.CallCommon]bool {
	markers := make(map[*ssa.CallCommon]bool)
	b.calls(func(fn *ssa.Function, call ssa.CallInstruction) bool {
		if b.boolClaim(call.Common()) && b.refreshedRegardless(fn, call) {
			markers[call.Common()] = true
		}
		return true
	})
	return markers
}

// boolClaim reports whether c claims a Redis key by a catalogued
// try-acquire whose boolean result tells won from lost: go-redis's SetNX,
// and its BoolCmd. (A SetArgs NX, whose row is a write, tells it by its
// error, redis.Nil, which also carries failures; redigo's SET NX by a reply
// its conversions read: their refreshes are not judged.)
func (b *builder) boolClaim(c *ssa.CallCommon) bool {
	api := b.ix.lookupFunc(calleeFunc(c))
	return api != nil && api.System == Redis && api.Role.Has(RoleTryAcquire) && api.Fence != RedisCommand
}

// refreshedRegardless reports whether fn, after the SET NX call, refreshes
// the SET NX's own key on a path that does not depend on the SET NX's
// result.
func (b *builder) refreshedRegardless(fn *ssa.Function, setnx ssa.CallInstruction) bool {
	v := setnx.Value()
	key := redisArg(setnx.Common(), 1)
	if v == nil || key == nil {
		return false
	}
	decided := decidedBlocks(fn, resultBools(v))
	for _, blk := range fn.Blocks {
		if decided[blk] || !setnx.Block().Dominates(blk) {
			continue
		}
		for i, instr := range blk.Instrs {
			if blk == setnx.Block() && i <= slices.Index(blk.Instrs, ssa.Instruction(setnx)) {
				continue
			}
			if call, ok := instr.(ssa.CallInstruction); ok && b.refreshesKey(call.Common(), key) {
				return true
			}
		}
	}
	return false
}

// refreshesKey reports whether c sets the value or TTL of key again: a
// catalogued Redis call that, with its arguments, plays RoleRefresh on it.
func (b *builder) refreshesKey(c *ssa.CallCommon, key ssa.Value) bool {
	fn := calleeFunc(c)
	api := b.ix.lookupFunc(fn)
	if api == nil || api.System != Redis {
		return false
	}
	if role, _ := redisCallRole(c, fn.Name(), api); !role.Has(RoleRefresh) {
		return false
	}
	k := redisKey(c, api)
	return k != nil && b.sameKey(k, key)
}

// redisKey returns the key a call of the catalogued Redis command api
// names: the first argument after the command a redigo call names, the
// Key step of a rueidis command's chain, the first after the context of a
// go-redis call.
func redisKey(c *ssa.CallCommon, api *API) ssa.Value {
	if api.Fence == RedisCommand {
		if args, _ := redigoArgs(c); len(args) > 0 {
			return args[0]
		}
		return nil
	}
	if api.Fence == RueidisCommand {
		cmd, _ := rueidisChain(apiArg(c, api))
		return cmd.key
	}
	return redisArg(c, 1)
}

// resultBools returns the values that carry a go-redis BoolCmd's result:
// cmd.Val() and the first result of cmd.Result().
func resultBools(cmd ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *cmd.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok || call.Common().IsInvoke() {
			continue
		}
		f := calleeFunc(call.Common())
		if f == nil || len(call.Common().Args) == 0 || unwrap(call.Common().Args[0]) != cmd {
			continue
		}
		switch f.Name() {
		case "Val":
			out = append(out, call)
		case "Result":
			for _, r := range *call.Referrers() {
				if x, ok := r.(*ssa.Extract); ok && x.Index == 0 {
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// decidedBlocks returns the blocks that run only on one outcome of a
// branch on one of vals (if ok {...}, if !ok { return }).
func decidedBlocks(fn *ssa.Function, vals []ssa.Value) map[*ssa.BasicBlock]bool {
	decided := make(map[*ssa.BasicBlock]bool)
	for _, blk := range fn.Blocks {
		br, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok || !slices.ContainsFunc(vals, func(v ssa.Value) bool { return testsValue(br.Cond, v) }) {
			continue
		}
		for _, succ := range blk.Succs {
			if len(succ.Preds) != 1 {
				continue
			}
			for _, d := range fn.Blocks {
				if succ.Dominates(d) {
					decided[d] = true
				}
			}
		}
	}
	return decided
}

// testsValue reports whether cond is v, its negation, or v compared with
// a constant.
func testsValue(cond, v ssa.Value) bool {
	switch x := unwrap(cond).(type) {
	case *ssa.UnOp:
		return x.Op == token.NOT && unwrap(x.X) == v
	case *ssa.BinOp:
		_, xc := x.X.(*ssa.Const)
		_, yc := x.Y.(*ssa.Const)
		return (x.Op == token.EQL || x.Op == token.NEQ) && (unwrap(x.X) == v && yc || unwrap(x.Y) == v && xc)
	}
	return unwrap(cond) == v
}

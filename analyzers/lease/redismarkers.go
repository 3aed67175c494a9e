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
// function refreshes on a path the SET NX's result does not decide
// (go-redis; redigo's commands are named by strings and are not read here).

// refreshCommands returns the go-redis commands that set a key's value or
// TTL again: what a marker's every caller does to its key.
func refreshCommands() []string {
	return []string{
		"Expire", "PExpire", "ExpireAt", "PExpireAt", "Persist",
		"Set", "SetEx", "SetEX", "SetArgs", "SetXX", "GetSet",
	}
}

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
		if isGoRedisSetNX(call.Common()) && b.refreshedRegardless(fn, call) {
			markers[call.Common()] = true
		}
		return true
	})
	return markers
}

// isGoRedisSetNX reports whether c is go-redis's SetNX, whose BoolCmd
// tells won from lost. (A SetArgs NX tells it by its error, redis.Nil,
// which also carries failures: its refreshes are not judged.)
func isGoRedisSetNX(c *ssa.CallCommon) bool {
	f := calleeFunc(c)
	return f != nil && f.Pkg() != nil && CanonicalPath(f.Pkg().Path()) == pkgGoRedis && f.Name() == "SetNX"
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

// refreshesKey reports whether c sets the value or TTL of key again.
func (b *builder) refreshesKey(c *ssa.CallCommon, key ssa.Value) bool {
	f := calleeFunc(c)
	if f == nil || f.Pkg() == nil || CanonicalPath(f.Pkg().Path()) != pkgGoRedis || !slices.Contains(refreshCommands(), f.Name()) {
		return false
	}
	if f.Name() == "SetArgs" && setArgsNX(c) {
		return false
	}
	k := redisArg(c, 1)
	return k != nil && b.sameKey(k, key)
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

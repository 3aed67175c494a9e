package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

// scriptWrite classifies a Redis Lua script call (Eval, EvalSha,
// Script.Run). A script that refuses an older token than the stored fence
// is fenced, and its token is the ARGV it compares. A script that checks a
// stored owner value and writes other keys in the same atomic step is
// fenced too (Redis cannot interleave a newer holder); one that only
// deletes or expires the key it compared is the lock's own release or
// renewal. Scripts that do not write, or that fencelint cannot read, make
// no Write.
func (b *builder) scriptWrite(w *Write, c *ssa.CallCommon, api *API) *Write {
	src, ok := b.scriptText(c, api)
	if !ok {
		return nil
	}
	s := luascan.Parse(src)
	if s.Unknown || !s.Writes || s.Guard == luascan.Unsure {
		return nil
	}
	switch s.Guard {
	case luascan.FenceCompare:
		w.Fenced = true
		w.Token = scriptArgv(c, api, fenceArgv(s))
	case luascan.OwnerCompare:
		w.Fenced = true
		w.LockImpl = writesOnlyGuardKey(s)
	case luascan.CreateOnly:
		w.LockImpl = true
	}
	return w
}

// fenceArgv returns the ARGV index a fence-comparing script compares.
func fenceArgv(s *luascan.Script) int {
	for _, c := range s.Calls {
		if c.Write && c.Guard == luascan.FenceCompare && c.GuardArgv > 0 {
			return c.GuardArgv
		}
	}
	return 0
}

// writesOnlyGuardKey reports whether every write of the script targets the
// key its guard compared (a compare-and-delete or compare-and-expire).
func writesOnlyGuardKey(s *luascan.Script) bool {
	for _, c := range s.Calls {
		if !c.Write {
			continue
		}
		if len(c.Args) == 0 || c.Args[0].Kind != luascan.Key || c.Args[0].Index != c.GuardKey {
			return false
		}
	}
	return true
}

// scriptArgv returns the Go value passed as ARGV[i] (1-based), or nil.
// Eval(ctx, script, keys, args...) and Script.Run(ctx, c, keys, args...)
// both pass ARGV as the variadic tail after the keys.
func scriptArgv(c *ssa.CallCommon, api *API, i int) ssa.Value {
	if i <= 0 {
		return nil
	}
	args, ok := variadic(redisArg(c, 3))
	if !ok || i > len(args) {
		return nil
	}
	return args[i-1]
}

// scriptText returns the Lua source of a script call, including scripts
// held in package-level variables.
func (b *builder) scriptText(c *ssa.CallCommon, api *API) (string, bool) {
	if src, ok := scriptSource(c, api); ok {
		return src, true
	}
	recv := callRecv(c)
	if load, ok := unwrap(recv).(*ssa.UnOp); ok {
		switch addr := load.X.(type) {
		case *ssa.Global: // var s = redis.NewScript(...)
			return b.globalScript(addr)
		case *ssa.FieldAddr: // s.unlock, set by the constructor: &Store{unlock: redis.NewScript(...)}
			return b.fieldScript(fieldVar(addr.X.Type(), addr.Field))
		}
	}
	return "", false
}

// fieldScript returns the source of the scripts the package stores into a
// struct field, when every store is a redis.NewScript of the same text.
func (b *builder) fieldScript(field *types.Var) (string, bool) {
	if field == nil {
		return "", false
	}
	src, found := "", false
	for _, v := range b.storesTo(field) {
		p := producer(v)
		if p == nil {
			return "", false
		}
		s, ok := constString(arg(p.Common(), 0))
		if !ok || found && s != src {
			return "", false
		}
		src, found = s, true
	}
	return src, found
}

// scriptRole returns scriptLockRole's answer for a call, read once.
func (b *builder) scriptRole(c *ssa.CallCommon, api *API) Role {
	if role, ok := b.scriptRoles[c]; ok {
		return role
	}
	role := b.scriptLockRole(c, api)
	b.scriptRoles[c] = role
	return role
}

// scriptLockRole returns the lock role of a Redis script call that only
// touches the lock key it compared with the caller's token: a
// compare-and-delete releases the lock (LiveKit's UnlockRoom, the
// redsync-style unlock script), a compare-and-expire renews it. Any other
// script plays no lock role.
func (b *builder) scriptLockRole(c *ssa.CallCommon, api *API) Role {
	src, ok := b.scriptText(c, api)
	if !ok {
		return 0
	}
	s := luascan.Parse(src)
	if s.Unknown || !s.Writes || s.Guard != luascan.OwnerCompare || !writesOnlyGuardKey(s) {
		return 0
	}
	role := Role(0)
	for _, call := range s.Calls {
		if !call.Write {
			continue
		}
		var r Role
		switch call.Command {
		case "DEL", "UNLINK":
			r = RoleRelease
		case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
			r = RoleRenew
		default:
			return 0
		}
		if role != 0 && role != r {
			return 0
		}
		role = r
	}
	return role
}

// scriptSource returns the Lua source of an Eval call (api.Arg) or of the
// redis.NewScript that made a Script's receiver (api.Arg < 0).
func scriptSource(c *ssa.CallCommon, api *API) (string, bool) {
	if api.Arg >= 0 {
		return constString(apiArg(c, api))
	}
	if p := producer(callRecv(c)); p != nil {
		return constString(arg(p.Common(), 0))
	}
	return "", false
}

// globalScript returns the source of a package-level script variable
// initialized with redis.NewScript("...") (stored by the package's init).
func (b *builder) globalScript(g *ssa.Global) (string, bool) {
	for _, fn := range b.funcs {
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				if st, ok := instr.(*ssa.Store); ok && st.Addr == g {
					if p := producer(st.Val); p != nil {
						return constString(arg(p.Common(), 0))
					}
				}
			}
		}
	}
	return "", false
}

package lease

import (
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
	if load, ok := unwrap(recv).(*ssa.UnOp); ok { // var s = redis.NewScript(...)
		if global, ok := load.X.(*ssa.Global); ok {
			return b.globalScript(global)
		}
	}
	return "", false
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

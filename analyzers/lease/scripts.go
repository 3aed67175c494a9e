package lease

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

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
	if scriptCounts(s) {
		markDraw(w, w.Call)
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
// held in package-level variables and scripts embedded with //go:embed
// (this package's, or another's through its ScriptFact).
func (b *builder) scriptText(c *ssa.CallCommon, api *API) (string, bool) {
	if src, ok := scriptSource(c, api); ok {
		return src, true
	}
	script := scriptValue(c, api)
	if script == nil {
		return "", false
	}
	if isString(script.Type()) {
		return b.embeddedScript(script)
	}
	if p := producer(script); p != nil {
		if src, ok := b.embeddedScript(arg(p.Common(), 0)); ok {
			return src, true // redis.NewScript(scripts.Unlock)
		}
	}
	if load, ok := unwrap(script).(*ssa.UnOp); ok {
		switch addr := load.X.(type) {
		case *ssa.Global: // var s = redis.NewScript(...)
			return b.globalScript(addr)
		case *ssa.FieldAddr: // s.unlock, set by the constructor: &Store{unlock: redis.NewScript(...)}
			return b.fieldScript(fieldVar(addr.X.Type(), addr.Field))
		}
	}
	return "", false
}

// scriptValue returns what holds the script of a script call: its text
// (Eval's), or the Script it runs, the receiver (go-redis's Script.Run,
// api.Arg < 0) or an argument (go-zero's ScriptRun).
func scriptValue(c *ssa.CallCommon, api *API) ssa.Value {
	if api.Arg < 0 {
		return callRecv(c)
	}
	return apiArg(c, api)
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

// scriptLockRole returns the lock role of a Redis script call. A script
// whose one write is SET KEYS[i] v NX with an expiry claims a lock, as
// SetNX does (emshop's coupon lock: checks, then the claim, its result
// returned as a code). One that only touches the lock key it compared
// with the caller's token is a
// compare-and-delete releases the lock (LiveKit's UnlockRoom, the
// redsync-style unlock script), a compare-and-expire renews it. Any other
// script plays no lock role.
func (b *builder) scriptLockRole(c *ssa.CallCommon, api *API) Role {
	src, ok := b.scriptText(c, api)
	if !ok {
		return 0
	}
	s := luascan.Parse(src)
	if lockClaim(s) > 0 {
		return RoleTryAcquire
	}
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

// scriptSource returns the Lua source of an Eval call's constant text,
// or of the redis.NewScript that made the Script it runs.
func scriptSource(c *ssa.CallCommon, api *API) (string, bool) {
	script := scriptValue(c, api)
	if script == nil {
		return "", false
	}
	if isString(script.Type()) {
		return constString(script)
	}
	if p := producer(script); p != nil {
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

// lockClaim returns the KEYS index (1-based) of the lock a script claims.
// It writes only KEYS[i], with SET and an expiry (EX, PX, EXAT, PXAT):
// once as the claim (NX, or guarded by the key being absent or holding the
// caller's value: current == false or current == ARGV[1]), and otherwise
// only guarded by the stored value equal to the caller's, the holder
// extending its own claim (go-zero's RedisLock, copied into many
// applications, extends the key when it holds the caller's value, else
// takes it with SET NX PX). A script that also writes other keys is an
// atomic check-and-write (a flash sale's stock decrement), not a lock the
// caller goes on to hold; one with no expiry seeds a value (as SetNX with
// none). 0: no claim.
func lockClaim(s *luascan.Script) int {
	if s.Unknown {
		return 0
	}
	key, claims := 0, false
	for _, c := range s.Calls {
		if !c.Write {
			continue
		}
		if c.Command != "SET" || len(c.Args) == 0 || c.Args[0].Kind != luascan.Key || c.Args[0].Index <= 0 ||
			key != 0 && c.Args[0].Index != key || !hasWord(c.Args[2:], "EX", "PX", "EXAT", "PXAT") {
			return 0
		}
		key = c.Args[0].Index
		switch {
		case (hasWord(c.Args[2:], "NX") || c.Guard == luascan.CreateOnly && c.GuardKey == key) && !claims:
			claims = true // SET NX, or a SET run only when the key is absent or the caller's
		case c.Guard == luascan.OwnerCompare && c.GuardKey == key && !hasWord(c.Args[2:], "NX"):
			// the holder's own extension
		default:
			return 0
		}
	}
	if !claims {
		return 0
	}
	return key
}

// hasWord reports whether one of args is a literal equal, ignoring case,
// to one of words.
func hasWord(args []luascan.Arg, words ...string) bool {
	for _, a := range args {
		for _, w := range words {
			if a.Kind == luascan.Literal && strings.EqualFold(a.Text, w) {
				return true
			}
		}
	}
	return false
}

// scriptLockKey returns the Go value a lock-claiming script call passes as
// the KEYS element the script claims: Eval(ctx, script, []string{key}, ...)
// and Script.Run(ctx, c, []string{key}, ...) both pass KEYS third.
func (b *builder) scriptLockKey(c *ssa.CallCommon, api *API) ssa.Value {
	src, ok := b.scriptText(c, api)
	if !ok {
		return nil
	}
	i := lockClaim(luascan.Parse(src))
	keys, ok := variadic(redisArg(c, 2))
	if i <= 0 || !ok || i > len(keys) {
		return nil
	}
	return keys[i-1]
}

// embeddedScript returns the script a package-level string variable holds
// when it embeds one file with //go:embed: read here for this package's
// variables, from the declaring package's ScriptFact for another's.
func (b *builder) embeddedScript(v ssa.Value) (string, bool) {
	load, ok := unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return "", false
	}
	if g.Pkg != nil && g.Pkg.Pkg == b.pass.Pkg {
		return b.embeddedVar(g)
	}
	var f ScriptFact
	if obj, ok := g.Object().(*types.Var); ok && b.pass.ImportObjectFact(obj, &f) {
		return f.Src, true
	}
	return "", false
}

// exportScripts exports, for each package-level string variable that
// embeds one Redis Lua script, its text: the package that runs it is
// usually another (scripts.CheckCouponUsageLua passed to Eval).
func (b *builder) exportScripts() {
	for v, files := range b.embedded().byVar {
		if len(files) != 1 || !isStringish(v.Type()) || v.Parent() != v.Pkg().Scope() || !isLuaScript(files[0].text) {
			continue
		}
		b.pass.ExportObjectFact(v, &ScriptFact{Src: files[0].text})
	}
}

// isLuaScript reports whether text calls Redis as a Lua script does.
func isLuaScript(text string) bool {
	return strings.Contains(text, "redis.call") || strings.Contains(text, "redis.pcall")
}

// ScriptFact: the package-level variable embeds (//go:embed) this Redis Lua
// script.
type ScriptFact struct {
	Src string
}

func (*ScriptFact) AFact()           {}
func (f *ScriptFact) String() string { return fmt.Sprintf("lua script (%d bytes)", len(f.Src)) }

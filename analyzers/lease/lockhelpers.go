package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"math/bits"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Applications take hand-rolled Redis locks through a helper package of
// their own, which builds every key from the caller's (a prefix, a
// namespace) and offers the lock beside generic setters:
//
//	func Lock(key string, expire time.Duration) error { ... client.SetNX(ctx, serialKey(key), "1", expire) ... }
//	func Unlock(key string) error                      { return client.Del(ctx, serialKey(key)).Err() }
//	func Expire(key string, ttl time.Duration) error   { return client.Expire(ctx, serialKey(key), ttl).Err() }
//
// Calls that let such a lock go or renew it are the lock's own, not
// writes it guards. Two rules see them:
//
//   - In the helper package, Unlock's DEL is the lock's release (its role,
//     which Unlock's callers then see), though no call there passes it a
//     lock key: its key is built from its parameter as Lock's SET NX key
//     is from the same parameter of Lock. So is the package's generic
//     delete when Unlock hands it that parameter (Unlock(key) { return
//     s.Delete(key) }): the write is the lock's own. Only a function named for
//     letting go or renewing (unlock, release, extend, renew, refresh) is
//     read so: the package's generic Del(key) builds its key the same
//     way. A variadic key list (unlock(ctx, keys ...string)) pairs with a
//     lone key of the same place.
//   - In the caller's package, a helper whose every write goes to a key
//     built from one of its parameters (WritesFact.KeyParams), called with
//     the key of a lock the package takes (cache.Expire(masterKey, ttl)
//     after cache.SetNX(masterKey, id, ttl) won), writes the lock itself.
//     An acquire wrapper's key (RoleFact.Key) is likewise the parameter
//     its lock key is built from.
//
// A key is built from a parameter when it is that parameter, a string
// concatenation of it with constants, or a call of a function on it and
// constants only (serialKey(key), fmt.Sprintf("lock:%s", key)).

// isPairedLockKey reports whether k, a key fn writes, is built from fn's
// parameters as the key of a SET NX in another function of the package is
// from the same parameters of that function, and fn is named for letting
// a lock go or renewing it.
func (b *builder) isPairedLockKey(fn *ssa.Function, k ssa.Value) bool {
	if !hasWordPrefix(fn.Name(), "unlock", "release", "extend", "renew", "refresh") {
		return false
	}
	for _, lk := range b.lockKeys() {
		g := valueFunc(lk)
		if g == nil || g == fn {
			continue
		}
		if sameValueIn(k, lk, 0, map[*ssa.Function]int{fn: 0, g: 0}) || sameVariadicKey(k, lk) {
			return true
		}
	}
	return false
}

// A lock helper that does more than SET NX keeps state of its own beside
// the lock key: a read-writer lock registers readers in a hash built like
// the writer's key, and its Lock clears the readers whose registration
// expired before it returns.
//
//	writerKey := fmt.Sprintf("%s{%s}:writer", rw.prefix, name)
//	readersKey := fmt.Sprintf("%s{%s}:readers", rw.prefix, name)
//	rw.client.SetNX(ctx, writerKey, token, ttl) ... rw.client.HDel(ctx, readersKey, id)
//
// keepsLockState takes such a write for the lock's own: fn is named for
// taking a lock (lock, acquire, obtain: Lock, TryLock, RLock) and k is
// built as a SET NX key of fn is, by the same function or concatenation
// of the same values, its string constants aside. A function named
// otherwise that writes beside its lock key (job:{id}:lock, then
// job:{id}:report) writes data the lock guards, and so does a locking
// function whose key is built from other values (another name).

// keepsLockState reports whether call, a Redis write in fn, names only
// keys built as the key of a SET NX in fn is, but for their string
// constants, and fn is named for taking a lock.
func (b *builder) keepsLockState(fn *ssa.Function, call *ssa.CallCommon) bool {
	if !hasWordPrefix(fn.Name(), "lock", "trylock", "rlock", "wlock", "acquire", "obtain") {
		return false
	}
	keys := redisKeyArgs(call)
	for _, k := range keys {
		if !slices.ContainsFunc(b.lockKeys(), func(lk ssa.Value) bool { return valueFunc(lk) == fn && builtAlike(k, lk) }) {
			return false
		}
	}
	return len(keys) > 0
}

// builtAlike reports whether a and b are two keys computed by the same
// steps from the same values but for their string constants, and from at
// least one value that is not a constant: fmt.Sprintf("%s:readers", name) and
// fmt.Sprintf("%s:writer", name), or prefix+name+":readers" and
// prefix+name+":writer".
func builtAlike(a, b ssa.Value) bool {
	shared, differs := false, false
	steps := map[*ssa.Function]int{valueFunc(a): 0}
	var alike func(x, y ssa.Value, depth int) bool
	alike = func(x, y ssa.Value, depth int) bool {
		x, y = unwrap(x), unwrap(y)
		switch {
		case stringConsts(x, y):
			differs = differs || x.(*ssa.Const).Value.ExactString() != y.(*ssa.Const).Value.ExactString()
			return true
		case !isConst(x) && sameValueIn(x, y, 0, steps):
			shared = true
			return true
		case depth > 8:
			return false
		}
		next := func(p, q ssa.Value) bool { return alike(p, q, depth+1) }
		switch x := x.(type) {
		case *ssa.BinOp:
			y, ok := y.(*ssa.BinOp)
			return ok && x.Op == token.ADD && y.Op == token.ADD && next(x.X, y.X) && next(x.Y, y.Y)
		case *ssa.Slice: // a call's ...any
			y, ok := y.(*ssa.Slice)
			return ok && sameElems(x, y, next)
		case *ssa.Call:
			y, ok := y.(*ssa.Call)
			return ok && sameCall(x.Common(), y.Common(), next)
		}
		return false
	}
	return alike(a, b, 0) && shared && differs
}

// stringConsts reports whether a and b are both string constants.
func stringConsts(a, b ssa.Value) bool {
	x, ok := unwrap(a).(*ssa.Const)
	y, ok2 := unwrap(b).(*ssa.Const)
	return ok && ok2 && x.Value != nil && y.Value != nil && x.Value.Kind() == constant.String && y.Value.Kind() == constant.String
}

// sameVariadicKey reports whether k, the variadic parameter of its
// function (unlock(ctx, keys ...string): Del(ctx, keys...)), and lk, a
// parameter of another function, are the same parameter of the two by
// index, lk being one key of k's type.
func sameVariadicKey(k, lk ssa.Value) bool {
	p, ok := unwrap(k).(*ssa.Parameter)
	q, ok2 := unwrap(lk).(*ssa.Parameter)
	if !ok || !ok2 {
		return false
	}
	pf, qf := p.Parent(), q.Parent()
	i := slices.Index(pf.Params, p)
	if !pf.Signature.Variadic() || i != len(pf.Params)-1 || i != slices.Index(qf.Params, q) {
		return false
	}
	elems, ok := p.Type().Underlying().(*types.Slice)
	return ok && types.Identical(elems.Elem(), q.Type())
}

// deletesPairedLockKey reports whether call, a go-redis Del or Unlink
// (name), deletes only keys isPairedLockKey takes for a lock's: the
// release of a lock helper package.
func (b *builder) deletesPairedLockKey(call *ssa.CallCommon, name string) bool {
	if name != "Del" && name != "Unlink" || b.findingKeys {
		return false
	}
	keys := redisKeyArgs(call)
	for _, k := range keys {
		fn := valueFunc(k)
		if fn == nil || !b.isPairedLockKey(fn, k) {
			return false
		}
	}
	return len(keys) > 0
}

// valueFunc returns the function v is computed in, or nil for constants
// and globals.
func valueFunc(v ssa.Value) *ssa.Function {
	switch x := v.(type) {
	case *ssa.Parameter:
		return x.Parent()
	case ssa.Instruction:
		return x.Parent()
	}
	return nil
}

// redisWrapperKey returns the key a call of a Redis acquire wrapper of
// another package locks (cache.SetNX(masterKey, id, ttl), cache.Lock(key)),
// or nil.
func (b *builder) redisWrapperKey(c *ssa.CallCommon) ssa.Value {
	fn := calleeFunc(c)
	if fn == nil || fn.Pkg() == b.pass.Pkg {
		return nil
	}
	rf := b.roleFact(fn)
	if rf == nil || rf.System != Redis || rf.Role&(RoleAcquire|RoleTryAcquire) == 0 {
		return nil
	}
	return b.wrapperKey(c)
}

// keyBuiltFrom returns the one non-constant value key is built from (see the
// package comment above), or nil.
func keyBuiltFrom(key ssa.Value) ssa.Value {
	for range 8 {
		switch x := unwrap(key).(type) {
		case *ssa.BinOp:
			if x.Op != token.ADD {
				return x
			}
			switch {
			case isConst(x.X):
				key = x.Y
			case isConst(x.Y):
				key = x.X
			default:
				return x
			}
		case *ssa.Call:
			src := oneVaryingArg(x.Common())
			if src == nil {
				return x
			}
			key = src
		default:
			return x
		}
	}
	return nil
}

// oneVaryingArg returns the only argument of a static call that is not a
// constant, looking into a variadic slice, or nil.
func oneVaryingArg(c *ssa.CallCommon) ssa.Value {
	if c.StaticCallee() == nil {
		return nil
	}
	var varying ssa.Value
	for _, a := range c.Args {
		elems, ok := variadic(a)
		if !ok {
			elems = []ssa.Value{a}
		}
		for _, e := range elems {
			if e == nil || isConst(e) {
				continue
			}
			if varying != nil {
				return nil
			}
			varying = e
		}
	}
	return varying
}

// keyParamsOfKeys returns the parameters of fn its keys are built from,
// when every one of them is built from one; 0 otherwise.
func keyParamsOfKeys(fn *ssa.Function, keys []ssa.Value) uint64 {
	if fn.Parent() != nil || len(keys) == 0 {
		return 0 // a closure's parameters are not its function's
	}
	var params uint64
	for _, k := range keys {
		i := paramIndex(fn, keyBuiltFrom(k))
		if i < 0 || i >= 64 {
			return 0
		}
		params |= 1 << i
	}
	return params
}

// keyParamsOf returns the parameters that every unfenced write (made while
// its function holds no lease) builds its keys from, or 0.
func keyParamsOf(writes []*Write) uint64 {
	var mask uint64
	for _, w := range writes {
		if w.heldOwn || w.LockImpl || w.Fenced {
			continue
		}
		if w.keyParams == 0 {
			return 0
		}
		mask |= w.keyParams
	}
	return mask
}

// keyParamCall judges w, a call in fn of a helper whose writes go to keys
// built from the parameters in mask: the lock's own when it is passed the
// key of a lock the package takes in its one such parameter; else a write
// whose keys are built from those of fn's parameters the arguments are
// built from, if any.
func (b *builder) keyParamCall(w *Write, fn *ssa.Function, call *ssa.CallCommon, mask uint64) {
	if bits.OnesCount64(mask) == 1 {
		// A helper of two keys may write another one too.
		if k := arg(call, bits.TrailingZeros64(mask)); b.isLockKey(k) || b.isPairedLockKey(fn, k) {
			w.LockImpl = true
			return
		}
	}
	var keys []ssa.Value
	for i := range 64 {
		if mask&(1<<i) == 0 {
			continue
		}
		k := arg(call, i)
		if k == nil {
			return
		}
		keys = append(keys, k)
	}
	w.keyParams = keyParamsOfKeys(fn, keys)
}

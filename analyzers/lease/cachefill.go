package lease

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A cache fill needs no fence. A stampede lock keeps a fleet from loading
// the same entry at once:
//
//	v, err := rdb.Get(ctx, key).Result()
//	if err == nil {
//		return v, nil            // a hit
//	}
//	if !errors.Is(err, redis.Nil) {
//		return "", err
//	}
//	v = load(ctx, id)            // a miss: read the source of truth
//	rdb.Set(ctx, key, v, time.Minute)  // the fill: not reported
//
// A holder paused past the lock's TTL fills the entry late with what it
// read from the source of truth, the same thing the next holder wrote,
// or older by the pause; it lives until the entry's TTL at most, and the
// source of truth is elsewhere. That is a cache's staleness, not data the
// lock protects. Precisely, a write is a fill when
//
//   - the same function read the same key before it (the same value is
//     an argument of both calls, context aside): a go-redis Get, HGet,
//     HGetAll or Exists, or a method of the same receiver type whose name
//     starts with Get, Load, Fetch, Lookup or Exists;
//   - it runs only when that read missed, as a branch on the read's
//     result says (found false, err == redis.Nil or errors.Is(err,
//     redis.Nil), Get's error not nil when the read reports no found flag,
//     an empty value), and on no branch where it hit;
//   - so what it writes cannot build on what was read: a
//     read-modify-write, the lock's very business, writes on a hit too,
//     and stays judged;
//   - it is a cache's: the write sets an expiry (go-redis Set or SetEx
//     with a TTL), or the write's method, its receiver's type or that
//     type's package is named for a cache (cache.Store.Set, a
//     UserCache's Put).
//
// Check-then-create of data with no expiry (settings written on first
// use) is not a fill: a stale holder's late create overwrites what the
// next holder created and then changed.
func (b *builder) cacheFill(w *Write, fn *ssa.Function, call ssa.CallInstruction) {
	c := call.Common()
	f := calleeFunc(c)
	if f == nil || !fillName(f.Name()) {
		return
	}
	if !b.setsExpiry(c, f) && !namedForCache(c, f) {
		return
	}
	for _, blk := range fn.Blocks {
		if !blk.Dominates(call.Block()) {
			continue
		}
		for _, instr := range blk.Instrs {
			if instr == call {
				break
			}
			read, ok := instr.(*ssa.Call)
			if !ok || !readsSameKey(read.Common(), c) {
				continue
			}
			if missOnly(read, call.Block()) {
				w.Fenced, w.FencedBy = true, "a cache fill (written only when the read of the same key missed)"
				return
			}
		}
	}
}

// fillName reports whether a method named name stores one entry whole:
// go-redis's SET forms, or a cache's Set, Put, Store or Save (not a
// set's or list's SetAdd, nor SetNX, already create-only).
func fillName(name string) bool {
	switch name {
	case "Set", "SetEx", "SetEX", "PSetEX", "SetWithTTL", "SetWithExpiry", "SetWithExpiration", "SetDefault",
		"Put", "PutWithTTL", "Store", "Save":
		return true
	}
	return false
}

// readName reports whether a method named name reads an entry.
func readName(name string) bool {
	switch name {
	case "GetSet", "GetDel", "GetEx":
		return false // they write
	}
	for _, p := range []string{"Get", "HGet", "Load", "Fetch", "Lookup", "Exists", "HExists"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// setsExpiry reports whether c, a go-redis Set or SetEx, gives the key a
// TTL (zero keeps the key for good).
func (b *builder) setsExpiry(c *ssa.CallCommon, f *types.Func) bool {
	callee, ok := b.resolve(c)
	if !ok || callee.api == nil || callee.api.System != Redis {
		return false
	}
	switch f.Name() {
	case "Set", "SetEx", "SetEX", "PSetEX":
	default:
		return false
	}
	ttl := redisArg(c, 3)
	if ttl == nil {
		return false
	}
	n, ok := constInt(ttl)
	return !ok || n > 0
}

// namedForCache reports whether c's method, its receiver's type or that
// type's package says cache.
func namedForCache(c *ssa.CallCommon, f *types.Func) bool {
	names := []string{f.Name()}
	if recv := callRecv(c); recv != nil {
		if n, ok := types.Unalias(derefType(recv.Type())).(*types.Named); ok {
			names = append(names, n.Obj().Name())
			if pkg := n.Obj().Pkg(); pkg != nil {
				names = append(names, pkg.Name())
			}
		}
	}
	for _, n := range names {
		if strings.Contains(strings.ToLower(n), "cache") {
			return true
		}
	}
	return false
}

// readsSameKey reports whether read reads an entry of the store w writes
// with a key w writes too: a read method on a receiver of the same type,
// sharing an argument other than a context.
func readsSameKey(read, w *ssa.CallCommon) bool {
	f := calleeFunc(read)
	if f == nil || !readName(f.Name()) {
		return false
	}
	rr, wr := callRecv(read), callRecv(w)
	if rr == nil || wr == nil || !types.Identical(rr.Type(), wr.Type()) {
		return false
	}
	return sharedKey(read, w) != nil
}

// sharedKey returns an argument both calls take, or nil.
func sharedKey(x, y *ssa.CallCommon) ssa.Value {
	for _, a := range callArgs(x) {
		if isContext(a.Type()) || isConst(a) {
			continue
		}
		for _, b := range callArgs(y) {
			if unwrap(a) == unwrap(b) {
				return a
			}
		}
	}
	return nil
}

// missOnly reports whether blk runs only when read missed: some branch
// on read's result that tells a miss from a hit leads there on its miss
// side, and none on its hit side.
func missOnly(read *ssa.Call, blk *ssa.BasicBlock) bool {
	miss := false
	for _, b := range blk.Parent().Blocks {
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || !b.Dominates(blk) {
			continue
		}
		side, ok := missSide(br.Cond, read)
		if !ok {
			continue
		}
		switch {
		case onlyThrough(b.Succs[side], blk):
			miss = true
		case onlyThrough(b.Succs[1-side], blk):
			return false // written on a hit
		}
	}
	return miss
}

// onlyThrough reports whether every path into blk goes through succ, a
// successor of a branch.
func onlyThrough(succ, blk *ssa.BasicBlock) bool {
	return len(succ.Preds) == 1 && succ.Dominates(blk)
}

// missSide returns the successor (0: true, 1: false) of a branch on cond
// taken when read missed, if cond tells a miss from a hit.
func missSide(cond ssa.Value, read *ssa.Call) (side int, ok bool) {
	cond = unwrap(cond)
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		side, ok := missSide(not.X, read)
		return 1 - side, ok
	}
	if readResult(cond, read) == readFound {
		return 1, true // if found {...}
	}
	switch x := cond.(type) {
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return 0, false
		}
		eq := 0 // the side on which the operands are equal
		if x.Op == token.NEQ {
			eq = 1
		}
		for _, pair := range [][2]ssa.Value{{x.X, x.Y}, {x.Y, x.X}} {
			switch r, other := readResult(unwrap(pair[0]), read), unwrap(pair[1]); {
			case r == readErr && isMissError(other):
				return eq, true
			case r == readErr && isNilConst(other) && !reportsFound(read):
				return 1 - eq, true // err == nil: a hit
			case r == readValue && isZeroConst(other):
				return eq, true
			}
		}
	case *ssa.Call:
		if f := calleeFunc(x.Common()); f != nil && f.Pkg() != nil && f.Pkg().Path() == "errors" && f.Name() == "Is" && len(x.Call.Args) == 2 {
			if readResult(unwrap(x.Call.Args[0]), read) == readErr && isMissError(unwrap(x.Call.Args[1])) {
				return 0, true
			}
		}
	}
	return 0, false
}

// What a value says about a read.
type readOutcome int

const (
	readNone  readOutcome = iota
	readFound             // a found flag: true on a hit
	readErr               // the read's error
	readValue             // the value read
)

// readResult says which of read's results v is: an element of its result
// tuple, or, for a go-redis command, its Err, its Val, or a result of its
// Result, Bytes, Int and the like.
func readResult(v ssa.Value, read *ssa.Call) readOutcome {
	switch x := v.(type) {
	case *ssa.Extract:
		if x.Tuple == read {
			return outcomeOf(x.Type())
		}
		if call, ok := x.Tuple.(*ssa.Call); ok && cmdMethod(call, read) != "" {
			return outcomeOf(x.Type()) // Result, Bytes, Int, ...
		}
	case *ssa.Call:
		if x == read {
			return outcomeOf(x.Type())
		}
		switch cmdMethod(x, read) {
		case "Err":
			return readErr
		case "Val":
			return readValue
		}
	}
	return readNone
}

// outcomeOf classifies a read's result by its type.
func outcomeOf(t types.Type) readOutcome {
	switch {
	case isErrorType(t):
		return readErr
	case isBoolType(t):
		return readFound
	}
	return readValue
}

// cmdMethod returns the name of the method call calls on read's result,
// a go-redis command, or "".
func cmdMethod(call, read *ssa.Call) string {
	c := call.Common()
	if c.IsInvoke() || len(c.Args) == 0 {
		return ""
	}
	recv := unwrap(c.Args[0])
	if embedded, ok := recv.(*ssa.FieldAddr); ok {
		recv = embedded.X // Err is baseCmd's, promoted
	}
	if recv != ssa.Value(read) {
		return ""
	}
	if f := calleeFunc(c); f != nil {
		return f.Name()
	}
	return ""
}

// reportsFound reports whether read returns a found flag, beside which
// its error means a failure, not a miss.
func reportsFound(read *ssa.Call) bool {
	tuple, ok := read.Type().(*types.Tuple)
	if !ok {
		return false
	}
	for i := range tuple.Len() {
		if isBoolType(tuple.At(i).Type()) {
			return true
		}
	}
	return false
}

// isMissError reports whether v is a package's "no such key" error:
// go-redis's redis.Nil, redigo's ErrNil, a cache's ErrCacheMiss or
// ErrNotFound.
func isMissError(v ssa.Value) bool {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value) == "redis: nil" // go-redis's Nil is a constant
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return false
	}
	switch g.Name() {
	case "Nil", "ErrNil", "ErrCacheMiss", "ErrNotFound", "ErrKeyNotFound", "ErrMiss":
		return true
	}
	return false
}

// isZeroConst reports whether v is "", 0 or nil.
func isZeroConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Int:
		n, ok := constant.Int64Val(c.Value)
		return ok && n == 0
	}
	return false
}

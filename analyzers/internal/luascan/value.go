package luascan

// valKind classifies what an expression is known to hold.
type valKind uint8

const (
	vUnknown valKind = iota // nothing this package follows
	vUnsure                 // a value that was followed but then lost (reassigned in a branch, a parameter)
	vStored                 // a value read from Redis (GET, HGET, ...); index: KEYS index of the key read
	vArgv                   // ARGV[index] or a conversion of it
	vKey                    // KEYS[index]
	vKeys                   // the KEYS table itself
	vArgvs                  // the ARGV table itself
	vLit                    // a literal; lit holds its value
	vBool                   // the result of a comparison or a logical combination of them
	vCreated                // the 0/1 result of SETNX, HSETNX, MSETNX: 1 when this call created the key
	vCounted                // a number stepped from the stored value of KEYS[index] (cur + ARGV[1], INCR's result)
	vRedisFn                // the function redis.call (or redis.pcall: protected) itself
)

// val is the abstract value of an expression.
type val struct {
	kind  valKind
	index int    // KEYS/ARGV index (0 when not a literal index)
	lit   string // vLit: the literal's value ("nil", "true", a string or numeral)
	// protected marks the vRedisFn value of redis.pcall.
	protected bool
	// ifTrue and ifFalse are the guards that hold when a vBool is true or
	// false.
	ifTrue, ifFalse guardInfo
}

// guardInfo is a guard with what it compared. absent marks the fact "the
// value stored at KEYS[key] is missing" (nil or false), which guards
// nothing by itself but completes a fence: "not cur or token > cur" lets a
// first writer in, like SQL's "fence IS NULL OR fence < $1".
type guardInfo struct {
	g         Guard
	key, argv int
	absent    bool
}

// maxGuard returns the stronger of two guards.
func maxGuard(a, b guardInfo) guardInfo {
	if b.g > a.g {
		return b
	}
	return a
}

// minGuard returns the weaker of two guards.
func minGuard(a, b guardInfo) guardInfo {
	if b.g < a.g {
		return b
	}
	return a
}

// both returns the guard that holds when both a and b hold.
func both(a, b guardInfo) guardInfo {
	switch {
	case a.absent:
		return b
	case b.absent:
		return a
	}
	return maxGuard(a, b)
}

// either returns the guard that holds when a or b holds: the weaker one,
// except that "missing or newer token" is still a fence on that key, and
// "missing or the caller's own" creates the key or touches only the
// caller's (a lock taken or re-entered: current == false or current ==
// ARGV[1]).
func either(a, b guardInfo) guardInfo {
	if b.absent {
		a, b = b, a
	}
	switch {
	case a.absent && !b.absent && b.g == FenceCompare && b.key == a.key:
		return b
	case a.absent && !b.absent && b.g == OwnerCompare && b.key == a.key:
		return guardInfo{g: CreateOnly, key: b.key, argv: b.argv}
	case a.absent:
		return guardInfo{}
	}
	return minGuard(a, b)
}

// conjunction returns one guard that holds when all of gs hold: the
// strongest, or a missing key's fact when that is all they say.
func conjunction(gs []guardInfo) guardInfo {
	var g, absent guardInfo
	for _, f := range gs {
		switch {
		case f.absent && !absent.absent:
			absent = f
		case !f.absent:
			g = maxGuard(g, f)
		}
	}
	if g.g == None && absent.absent {
		return absent
	}
	return g
}

// eitherAll returns the guard that holds when any one of gs holds.
func eitherAll(gs []guardInfo) guardInfo {
	if len(gs) == 0 {
		return guardInfo{}
	}
	g := gs[0]
	for _, f := range gs[1:] {
		g = either(g, f)
	}
	return g
}

// truth returns the guards that hold when v is truthy and when it is falsy.
// A stored value is falsy when its key is missing.
func truth(v val) (ifTrue, ifFalse guardInfo) {
	switch v.kind {
	case vBool:
		return v.ifTrue, v.ifFalse
	case vStored:
		return guardInfo{}, guardInfo{absent: true, key: v.index}
	}
	return guardInfo{}, guardInfo{}
}

// compare returns the value of "a op b" for a comparison operator.
func compare(a val, op string, b val) val {
	res := val{kind: vBool}
	switch {
	case a.kind == vArgv && b.kind == vStored:
		a, b, op = b, a, mirror(op)
	case a.kind == vStored && b.kind == vArgv:
	case a.kind == vLit && b.kind == vCreated:
		return created(op, a)
	case a.kind == vCreated && b.kind == vLit:
		return created(op, b)
	case a.kind == vLit && b.kind == vStored:
		return missing(b, op, a)
	case a.kind == vStored && b.kind == vLit:
		return missing(a, op, b)
	case isFollowed(a) && isFollowed(b) && (a.kind == vUnsure || b.kind == vUnsure):
		res.ifTrue, res.ifFalse = guardInfo{g: Unsure}, guardInfo{g: Unsure}
		return res
	default:
		return res
	}
	// Now "stored op argv".
	gi := func(g Guard) guardInfo { return guardInfo{g: g, key: a.index, argv: b.index} }
	switch op {
	case "==":
		res.ifTrue = gi(OwnerCompare)
	case "~=":
		res.ifFalse = gi(OwnerCompare)
	case "<", "<=": // stored < token: the token is newer
		res.ifTrue = gi(FenceCompare)
	case ">", ">=": // false means stored <= token (or <)
		res.ifFalse = gi(FenceCompare)
	}
	return res
}

// created returns the value of "setnx_result == 1" (or ~=, or 0): what
// follows a successful SETNX only runs for the caller that created the key.
func created(op string, lit val) val {
	res := val{kind: vBool}
	g := guardInfo{g: CreateOnly}
	switch {
	case lit.lit == "1" && op == "==", lit.lit == "0" && op == "~=":
		res.ifTrue = g
	case lit.lit == "0" && op == "==", lit.lit == "1" && op == "~=":
		res.ifFalse = g
	}
	return res
}

// missing returns the value of "stored == nil/false" (or ~=): a test for
// a missing key.
func missing(stored val, op string, lit val) val {
	res := val{kind: vBool}
	if lit.lit != "nil" && lit.lit != "false" {
		return res
	}
	absent := guardInfo{absent: true, key: stored.index}
	switch op {
	case "==":
		res.ifTrue = absent
	case "~=":
		res.ifFalse = absent
	}
	return res
}

// arith returns the value of "a + b" or "a - b": a number stepped from a
// key's stored value when one side is that value (or already such a
// number) and the other an ARGV or a literal.
func arith(a val, op string, b val) val {
	amount := func(v val) bool { return v.kind == vArgv || v.kind == vLit }
	counted := func(v val) bool { return (v.kind == vStored || v.kind == vCounted) && v.index > 0 }
	switch {
	case counted(a) && amount(b):
		return val{kind: vCounted, index: a.index}
	case op == "+" && amount(a) && counted(b):
		return val{kind: vCounted, index: b.index}
	}
	return val{}
}

// isFollowed reports values that could take part in a guard comparison.
func isFollowed(v val) bool {
	return v.kind == vUnsure || v.kind == vStored || v.kind == vArgv
}

// mirror returns the operator with its operands swapped.
func mirror(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// logical returns the value of "a and b" / "a or b".
func logical(a val, op string, b val) val {
	if op == "or" && a.kind != vBool && b.kind == vLit && (a.kind == vStored || a.kind == vArgv || a.kind == vUnsure) {
		return a // cur or '0': a default for a missing key
	}
	if a.kind != vBool && b.kind != vBool {
		return val{}
	}
	at, af := truth(a)
	bt, bf := truth(b)
	if op == "and" {
		return val{kind: vBool, ifTrue: both(at, bt), ifFalse: either(af, bf)}
	}
	return val{kind: vBool, ifTrue: either(at, bt), ifFalse: both(af, bf)}
}

// not returns the value of "not v".
func not(v val) val {
	t, f := truth(v)
	return val{kind: vBool, ifTrue: f, ifFalse: t}
}

// unsure returns what a value becomes when it may or may not have been
// reassigned.
func unsure(v val) val {
	if v.kind == vUnknown {
		return v
	}
	return val{kind: vUnsure}
}

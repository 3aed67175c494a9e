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
)

// val is the abstract value of an expression.
type val struct {
	kind  valKind
	index int    // KEYS/ARGV index (0 when not a literal index)
	lit   string // vLit: the literal's value ("nil", "true", a string or numeral)
	// ifTrue and ifFalse are the guards that hold when a vBool is true or
	// false.
	ifTrue, ifFalse guardInfo
}

// guardInfo is a guard with what it compared.
type guardInfo struct {
	g         Guard
	key, argv int
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

// truth returns the guards that hold when v is truthy and when it is falsy.
func truth(v val) (ifTrue, ifFalse guardInfo) {
	if v.kind == vBool {
		return v.ifTrue, v.ifFalse
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
	at, af := truth(a)
	bt, bf := truth(b)
	if a.kind != vBool && b.kind != vBool {
		return val{}
	}
	if op == "and" {
		return val{kind: vBool, ifTrue: maxGuard(at, bt), ifFalse: minGuard(af, bf)}
	}
	return val{kind: vBool, ifTrue: minGuard(at, bt), ifFalse: maxGuard(af, bf)}
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

package luascan

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// suffix is a parsed suffixed expression: a name or parenthesized
// expression followed by field accesses, indexes and calls.
type suffix struct {
	v     val
	path  string // dotted global name ("redis.call", "tonumber"), "" otherwise
	local string // the local variable, when the expression is just one
	call  bool   // the expression ends with a call
}

// suffixed parses a suffixed expression.
func (p *parser) suffixed() suffix {
	var s suffix
	pos := p.tok.pos
	switch {
	case p.tok.kind == tName && !keyword(p.tok.text):
		n := p.tok.text
		p.next()
		s.v = p.lookup(n)
		if p.isLocal(n) {
			s.local = n
		} else {
			s.path = n
		}
	case p.accept("("):
		s.v = p.expr()
		p.expect(")")
	default:
		p.fail("unexpected " + strconv.Quote(p.tok.text))
		return s
	}
	for p.problem == "" {
		switch {
		case p.accept("."):
			n := p.name()
			if s.path != "" {
				s.path += "." + n
			}
			s = suffix{path: s.path, v: field(s.v)}
			if fn, protected := redisFn(s.path); fn {
				s.v = val{kind: vRedisFn, protected: protected}
			}
		case p.accept("["):
			k := p.expr()
			p.expect("]")
			s = suffix{v: index(s.v, k)}
		case p.accept(":"):
			p.name()
			p.args()
			s = suffix{call: true}
		case p.is("(") || p.is("{") || p.tok.kind == tString:
			s = p.call(s, pos)
		default:
			return s
		}
	}
	return s
}

// isLocal reports whether name is a local variable in scope.
func (p *parser) isLocal(name string) bool {
	for i := len(p.env) - 1; i >= 0; i-- {
		if p.env[i].name == name {
			return true
		}
	}
	return false
}

// field returns the value of v.name: a field of a decoded stored value is
// a stored value too (cjson.decode(redis.call("GET", KEYS[1])).fence).
func field(v val) val {
	if v.kind == vStored || v.kind == vUnsure {
		return v
	}
	return val{}
}

// index returns the value of v[k].
func index(v, k val) val {
	n := 0
	if k.kind == vLit {
		if i, err := strconv.Atoi(k.lit); err == nil && i > 0 {
			n = i
		}
	}
	switch v.kind {
	case vKeys:
		return val{kind: vKey, index: n}
	case vArgvs:
		return val{kind: vArgv, index: n}
	case vStored, vUnsure:
		return v // HMGET/MGET results: an element of what was read
	}
	return val{}
}

// args parses call arguments: (e1, e2), "string" or {table}.
func (p *parser) args() []val {
	switch {
	case p.tok.kind == tString:
		v := val{kind: vLit, lit: p.tok.text}
		p.next()
		return []val{v}
	case p.is("{"):
		p.table()
		return []val{{}}
	}
	p.expect("(")
	var vs []val
	if !p.is(")") {
		vs = p.exprList()
	}
	p.expect(")")
	return vs
}

// call parses the arguments of a call of s starting at pos and returns the
// call's value.
func (p *parser) call(s suffix, pos int) suffix {
	if s.v.kind == vRedisFn { // redis.call(...), or a local alias of it
		return suffix{v: p.redisCall(pos, s.v.protected, p.args()), call: true}
	}
	args := p.args()
	if s.path == "pcall" && len(args) > 0 && args[0].kind == vRedisFn {
		// pcall(redis.call, "SET", ...): the call runs, its error is caught.
		p.redisCall(pos, true, args[1:])
		return suffix{call: true}
	}
	for _, a := range args {
		if a.kind == vRedisFn {
			p.failAt(pos, "redis.call passed to a function")
		}
	}
	out := suffix{call: true, path: s.path}
	switch s.path {
	case "tonumber", "tostring", "string.sub", "string.lower", "string.upper", "math.floor", "math.ceil",
		"ipairs", "pairs", "cjson.decode", "cmsgpack.unpack":
		if len(args) > 0 && args[0].kind != vLit {
			out.v = args[0]
		}
	}
	return out
}

// redisFn reports whether path names redis.call or redis.pcall (Valkey:
// server.call, server.pcall), and which.
func redisFn(path string) (fn, protected bool) {
	switch path {
	case "redis.call", "server.call":
		return true, false
	case "redis.pcall", "server.pcall":
		return true, true
	}
	return false, false
}

// redisCall records a redis call at pos with its arguments (the command
// first) and the guard that holds here, and returns its result's value.
func (p *parser) redisCall(pos int, protected bool, args []val) val {
	c := Call{Pos: pos, Protected: protected}
	if len(args) > 0 && args[0].kind == vLit {
		c.Command = strings.ToUpper(args[0].lit)
	}
	if len(args) > 1 {
		for _, a := range args[1:] {
			c.Args = append(c.Args, argOf(a))
		}
	}
	c.Write = writes(c)
	c.Step = c.Write && p.steps(c)
	g := maxGuard(p.guard(), intrinsicGuard(c))
	c.Guard, c.GuardKey, c.GuardArgv = g.g, g.key, g.argv
	// Calls nested in the arguments were recorded first; keep source order.
	at, _ := slices.BinarySearchFunc(p.script.Calls, pos, func(c Call, pos int) int { return cmp.Compare(c.Pos, pos) })
	p.script.Calls = slices.Insert(p.script.Calls, at, c)
	return resultOf(c)
}

// steps reports whether the write c moves the number stored at its key
// (Call.Step).
func (p *parser) steps(c Call) bool {
	if len(c.Args) == 0 || c.Args[0].Kind != Key || c.Args[0].Index == 0 {
		return false
	}
	key := c.Args[0].Index
	switch c.Command {
	case "INCR", "INCRBY", "DECR", "DECRBY", "INCRBYFLOAT":
		return true
	case "SET":
		if len(c.Args) < 2 {
			return false
		}
		switch v := c.Args[1]; v.Kind {
		case Counted:
			return v.Index == key
		case Argv, Literal:
			return p.missing(key)
		}
	}
	return false
}

// missing reports whether the code here runs only where the script found
// KEYS[key] missing.
func (p *parser) missing(key int) bool {
	return slices.ContainsFunc(p.facts, func(f guardInfo) bool { return f.absent && f.key == key })
}

// resultOf returns the value a redis call evaluates to.
func resultOf(c Call) val {
	if c.Step && c.Command != "SET" {
		return val{kind: vCounted, index: c.Args[0].Index} // INCR replies the new number
	}
	if created := intrinsicGuard(c); created.g == CreateOnly {
		if c.Command == "SET" {
			// SET ... NX replies OK or nil: truthy only for the creator.
			return val{kind: vBool, ifTrue: created}
		}
		return val{kind: vCreated}
	}
	if isRead(c.Command) && len(c.Args) > 0 {
		v := val{kind: vStored}
		if c.Args[0].Kind == Key {
			v.index = c.Args[0].Index
		}
		return v
	}
	return val{}
}

// guard returns the strongest guard holding at this point. Inside a
// function body nothing is known about the call sites, so an unguarded
// write there is Unsure rather than None.
func (p *parser) guard() guardInfo {
	var g guardInfo
	for _, f := range p.facts {
		g = maxGuard(g, f)
	}
	if p.funcs > 0 {
		g = maxGuard(g, guardInfo{g: Unsure})
	}
	return g
}

// argOf classifies a command argument.
func argOf(v val) Arg {
	switch v.kind {
	case vKey:
		return Arg{Kind: Key, Index: v.index}
	case vArgv:
		return Arg{Kind: Argv, Index: v.index}
	case vLit:
		return Arg{Kind: Literal, Text: v.lit}
	case vCounted:
		return Arg{Kind: Counted, Index: v.index}
	}
	return Arg{}
}

// intrinsicGuard returns the guard a write carries by itself: SET ... NX
// and the *NX commands only create, SET ... IFEQ v compares the key's
// value with v.
func intrinsicGuard(c Call) guardInfo {
	switch c.Command {
	case "SETNX", "HSETNX", "MSETNX", "RENAMENX":
		return guardInfo{g: CreateOnly}
	case "SET":
	default:
		return guardInfo{}
	}
	var g guardInfo
	for i, a := range c.Args {
		if a.Kind != Literal {
			continue
		}
		switch strings.ToUpper(a.Text) {
		case "NX":
			g = maxGuard(g, guardInfo{g: CreateOnly})
		case "IFEQ", "IFDEQ":
			gi := guardInfo{g: OwnerCompare}
			if c.Args[0].Kind == Key {
				gi.key = c.Args[0].Index
			}
			if i+1 < len(c.Args) && c.Args[i+1].Kind == Argv {
				gi.argv = c.Args[i+1].Index
			}
			g = maxGuard(g, gi)
		}
	}
	return g
}

// isRead reports commands whose result is a stored value that a script may
// compare with an ARGV.
func isRead(cmd string) bool {
	switch cmd {
	case "GET", "HGET", "HMGET", "MGET", "GETRANGE", "GETEX", "GETDEL", "GETSET", "ZSCORE", "LINDEX",
		"JSON.GET", "HGETDEL", "HGETEX":
		return true
	}
	return false
}

// writes reports whether the call modifies data: a write command, or a
// command that writes only with an option (SORT ... STORE, GETEX EX ...).
func writes(c Call) bool {
	if isWrite(c.Command) {
		return true
	}
	var opts []string
	switch c.Command {
	case "SORT", "SORT_RO", "GEORADIUS", "GEORADIUSBYMEMBER":
		opts = []string{"STORE", "STOREDIST"}
	case "GETEX":
		opts = []string{"EX", "PX", "EXAT", "PXAT", "PERSIST"}
	default:
		return false
	}
	for _, a := range c.Args {
		for _, o := range opts {
			if a.Kind == Literal && strings.EqualFold(a.Text, o) {
				return true
			}
		}
	}
	return false
}

// IsWrite reports whether the Redis command (upper case) modifies data.
func IsWrite(cmd string) bool { return isWrite(cmd) }

// isWrite reports commands that modify data.
func isWrite(cmd string) bool {
	switch cmd {
	case "SET", "SETNX", "SETEX", "PSETEX", "MSET", "MSETNX", "GETSET", "GETDEL", "APPEND",
		"SETRANGE", "SETBIT", "BITOP", "BITFIELD", "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY",
		"DEL", "UNLINK", "DELEX", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "RENAME",
		"RENAMENX", "COPY", "MOVE", "RESTORE", "HSET", "HSETNX", "HMSET", "HDEL", "HINCRBY",
		"HINCRBYFLOAT", "HEXPIRE", "HPEXPIRE", "HEXPIREAT", "HPEXPIREAT", "HPERSIST", "HGETDEL", "HGETEX",
		"HSETEX", "LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "LPOP", "RPOP", "LSET", "LREM", "LINSERT", "LTRIM",
		"LMOVE", "RPOPLPUSH", "LMPOP", "SADD", "SREM", "SPOP", "SMOVE", "SINTERSTORE", "SUNIONSTORE",
		"SDIFFSTORE", "ZADD", "ZREM", "ZINCRBY", "ZPOPMIN", "ZPOPMAX", "ZMPOP", "ZREMRANGEBYSCORE",
		"ZREMRANGEBYRANK", "ZREMRANGEBYLEX", "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE", "ZRANGESTORE",
		"XADD", "XDEL", "XTRIM", "XACK", "XCLAIM", "XAUTOCLAIM", "XGROUP", "XSETID", "PFADD", "PFMERGE",
		"GEOADD", "GEOSEARCHSTORE", "FLUSHDB", "FLUSHALL",
		"SWAPDB", "JSON.SET", "JSON.DEL", "JSON.FORGET", "JSON.MSET", "JSON.MERGE", "JSON.NUMINCRBY",
		"JSON.ARRAPPEND", "JSON.ARRINSERT", "JSON.ARRPOP", "JSON.ARRTRIM", "JSON.STRAPPEND", "JSON.TOGGLE",
		"JSON.CLEAR":
		return true
	}
	return false
}

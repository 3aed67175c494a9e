package luascan

// Script is what Parse learned about a Redis Lua script.
type Script struct {
	// Calls are the redis.call and redis.pcall calls in source order.
	Calls []Call
	// Writes reports that some call writes (or may write: a command that
	// is not a literal string).
	Writes bool
	// Guard is the weakest guard among the writing calls (None when the
	// script does not write).
	Guard Guard
	// Unknown reports that the script could not be read (a syntax error,
	// a command name computed at run time, nesting too deep). Callers must
	// not draw conclusions from the rest.
	Unknown bool
	// Problem says why the script is Unknown, with its byte offset.
	Problem string
	// CounterKey, when not 0, says that the script is a counter on
	// KEYS[CounterKey]: every write it makes steps the number stored there
	// (Call.Step) or sets that key's TTL. Redis runs a script whole, so a
	// late run takes the next number and overwrites nothing.
	CounterKey int
}

// Call is one redis.call(...) or redis.pcall(...).
type Call struct {
	// Command is the upper-case command name ("SET", "JSON.SET"), or ""
	// when it is not a string literal.
	Command string
	// Protected reports redis.pcall.
	Protected bool
	// Args are the arguments after the command name.
	Args []Arg
	// Write reports a command that modifies data.
	Write bool
	// Guard is the strongest guard that holds whenever the call runs.
	Guard Guard
	// GuardKey and GuardArgv say what the guard compared: the stored value
	// of KEYS[GuardKey] with ARGV[GuardArgv] (0 when not a literal index).
	GuardKey, GuardArgv int
	// Step reports a write that moves the number stored at its key:
	// INCR, INCRBY, DECR, DECRBY or INCRBYFLOAT of it, a SET of it to what
	// the script read there plus or minus an amount, or a SET of a first
	// value where the script found the key missing.
	Step bool
	// Pos is the byte offset of the call in the source.
	Pos int
}

// ArgKind classifies a command argument.
type ArgKind uint8

const (
	// Other is an argument this package does not follow.
	Other ArgKind = iota
	// Key is KEYS[Index] (directly or through a local).
	Key
	// Argv is ARGV[Index] (directly, through a local, or via
	// tonumber/tostring).
	Argv
	// Literal is a string or number literal; Text holds its value.
	Literal
	// Counted is the number the script read from KEYS[Index] plus or
	// minus an ARGV or a literal (tonumber(cur) + ARGV[1]), or what an
	// INCR of that key returned.
	Counted
)

// Arg is one argument of a Call.
type Arg struct {
	Kind  ArgKind
	Index int    // 1-based KEYS/ARGV index
	Text  string // literal value
}

// Guard is how a write is protected against a stale or foreign caller.
// Guards are ordered from weakest to strongest.
type Guard uint8

const (
	// None: the write runs unconditionally, as far as the script shows.
	None Guard = iota
	// Unsure: the write is conditional on a comparison this package could
	// not follow (a reassigned local, a helper function). Callers should
	// stay quiet.
	Unsure
	// CreateOnly: the write itself only succeeds when the key is absent
	// (SET ... NX, SETNX, HSETNX, MSETNX), or runs only when the key is
	// absent or holds the caller's ARGV (a lock taken or re-entered).
	CreateOnly
	// OwnerCompare: the write runs only when a stored value equals an ARGV
	// (or the write is SET ... IFEQ): the owner check of a lock release or
	// extension.
	OwnerCompare
	// FenceCompare: the write runs only when an ARGV is greater than (or at
	// least) a stored value, or the key is missing: the shape of a fencing
	// token check. Whether ARGV[GuardArgv] really carries a token (and not,
	// say, a rate limit) is for the caller to check.
	FenceCompare
)

// String returns the guard's name.
func (g Guard) String() string {
	switch g {
	case Unsure:
		return "unsure"
	case CreateOnly:
		return "create-only"
	case OwnerCompare:
		return "owner-compare"
	case FenceCompare:
		return "fence-compare"
	}
	return "none"
}

// Parse reads a Redis Lua script. It never panics and never fails: a script
// it cannot read is marked Unknown.
func Parse(src string) *Script {
	p := newParser(src)
	p.chunk()
	s := &p.script
	if p.problem != "" {
		s.Unknown, s.Problem = true, p.problem
	}
	s.Guard = FenceCompare
	for _, c := range s.Calls {
		if c.Command == "" {
			s.Writes = true
			s.Unknown = true
			if s.Problem == "" {
				s.Problem = "redis command computed at run time"
			}
		}
		if c.Write || c.Command == "" {
			s.Writes = true
			s.Guard = min(s.Guard, c.Guard)
		}
	}
	if !s.Writes {
		s.Guard = None
	}
	if !s.Unknown {
		s.CounterKey = counterKey(s.Calls)
	}
	return s
}

// counterKey returns the key every write of calls steps (or sets the TTL
// of), when at least one steps it; 0 otherwise.
func counterKey(calls []Call) int {
	key, stepped := 0, false
	for _, c := range calls {
		if !c.Write {
			continue
		}
		if len(c.Args) == 0 || c.Args[0].Kind != Key || c.Args[0].Index == 0 || key != 0 && c.Args[0].Index != key {
			return 0
		}
		key = c.Args[0].Index
		switch {
		case c.Step:
			stepped = true
		case c.Command == "EXPIRE" || c.Command == "PEXPIRE":
		default:
			return 0
		}
	}
	if !stepped {
		return 0
	}
	return key
}

package luascan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

// Scripts copied verbatim from the libraries' sources.
const (
	// github.com/go-redsync/redsync/v4@v4.18.1 scripts.go, deleteScript.
	redsyncDelete = `
	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end
`
	// github.com/go-redsync/redsync/v4@v4.18.1 scripts.go, touchWithSetNXScript.
	redsyncTouchWithSetNX = `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	elseif redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then
		return 1
	else
		return 0
	end
`
	// github.com/go-redsync/redsync/v4@v4.18.1 scripts.go, touchScript.
	redsyncTouch = `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	else
		return 0
	end
`
	// github.com/bsm/redislock@v0.9.4 redislock.go, luaRefresh.
	redislockRefresh = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`
	// github.com/bsm/redislock@v0.9.4 redislock.go, luaRelease.
	redislockRelease = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	// github.com/bsm/redislock@v0.9.4 redislock.go, luaPTTL.
	redislockPTTL = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pttl", KEYS[1]) else return -3 end`
	// github.com/bsm/redislock@v0.9.4 redislock.go, luaObtain.
	redislockObtain = `
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[3]) then return redis.status_reply("OK") end

local offset = tonumber(ARGV[2])
if redis.call("getrange", KEYS[1], 0, offset-1) == string.sub(ARGV[1], 1, offset) then return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[3]) end
`
	// The fence script of lock-apis.md section 12: refuse a token that is
	// not newer than the stored one, then store token and data.
	// The fence script as balance's CheckAndSetUpdateTime nests it: compared
	// only where the key holds a value.
	nestedFence = `
local cur = redis.call('GET', KEYS[1])
if cur then
	if tonumber(ARGV[1]) <= tonumber(cur) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])`
	fenceScript = `local cur = tonumber(redis.call('GET', KEYS[1]) or '0'); if tonumber(ARGV[1]) <= cur then return 0 end; redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[2]); return 1`
)

// call renders a Call compactly: "SET k1 a1 'PX' w guard(k1,a1)".
func call(c luascan.Call) string {
	var b strings.Builder
	if c.Protected {
		b.WriteString("pcall ")
	}
	b.WriteString(c.Command)
	for _, a := range c.Args {
		switch a.Kind {
		case luascan.Key:
			fmt.Fprintf(&b, " k%d", a.Index)
		case luascan.Argv:
			fmt.Fprintf(&b, " a%d", a.Index)
		case luascan.Literal:
			fmt.Fprintf(&b, " '%s'", a.Text)
		default:
			b.WriteString(" ?")
		}
	}
	if c.Write {
		b.WriteString(" w")
	}
	if c.Guard != luascan.None {
		fmt.Fprintf(&b, " %s(k%d,a%d)", c.Guard, c.GuardKey, c.GuardArgv)
	}
	return b.String()
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		calls []string
		guard luascan.Guard
	}{
		{"redsync delete", redsyncDelete,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"redsync touch", redsyncTouch,
			[]string{"GET k1", "PEXPIRE k1 a2 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"elseif condition runs after the if condition failed", `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= cur then return 0
elseif redis.call('INCR', KEYS[2]) > 10 then return 1 end`,
			[]string{"GET k1", "INCR k2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"redsync touch with SET NX", redsyncTouchWithSetNX,
			[]string{"GET k1", "PEXPIRE k1 a2 w owner-compare(k1,a1)", "SET k1 a1 'PX' a2 'NX' w create-only(k0,a0)"},
			luascan.CreateOnly},
		{"redislock refresh", redislockRefresh,
			[]string{"GET k1", "PEXPIRE k1 a2 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"redislock release", redislockRelease,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"redislock pttl", redislockPTTL,
			[]string{"GET k1", "PTTL k1 owner-compare(k1,a1)"}, luascan.None},
		{"redislock obtain", redislockObtain,
			[]string{"SET k1 a1 'NX' 'PX' a3 w create-only(k0,a0)", "GETRANGE k1 '0' ?", "SET k1 a1 'PX' a3 w owner-compare(k1,a1)"},
			luascan.CreateOnly},
		{"claim when absent or the caller's", `
local current = redis.call("GET", KEYS[1])
if current == false or current == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
  return 1
end
return 0`,
			[]string{"GET k1", "SET k1 a1 'PX' a2 w create-only(k1,a1)"}, luascan.CreateOnly},
		{"claim when absent (not) or the caller's", `
local v = redis.call("GET", KEYS[1])
if not v or v == ARGV[1] then redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end`,
			[]string{"GET k1", "SET k1 a1 'PX' a2 w create-only(k1,a1)"}, luascan.CreateOnly},
		{"absent or another key's owner is no claim", `
local v = redis.call("GET", KEYS[1])
if not v or redis.call("GET", KEYS[2]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end`,
			[]string{"GET k1", "GET k2", "SET k1 a1 'PX' a2 w"}, luascan.None},
		{"fence script", fenceScript,
			[]string{"GET k1", "SET k1 a1 w fence-compare(k1,a1)", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"fence checked only where the key holds one", nestedFence,
			[]string{"GET k1", "SET k1 a1 w fence-compare(k1,a1)", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"nested check that does not leave", `
local cur = redis.call('GET', KEYS[1])
if cur then
	if tonumber(ARGV[1]) <= tonumber(cur) then cur = false end
end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "SET k2 a2 w"}, luascan.None},
		{"missing, or newer, across branches", `
local cur = redis.call('GET', KEYS[1])
if cur then
	if tonumber(ARGV[1]) <= tonumber(cur) then return 0 end
elseif ARGV[3] == '1' then
	redis.call('DEL', KEYS[3])
else
	return 0
end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "DEL k3 w", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.None},
		{"a branch that falls through unchecked", `
local cur = redis.call('GET', KEYS[1])
if ARGV[3] == '1' then
	if tonumber(ARGV[1]) <= tonumber(cur or '0') then return 0 end
else
	redis.call('DEL', KEYS[3])
end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "DEL k3 w", "SET k2 a2 w"}, luascan.None},
		{"every branch checks the owner or leaves", `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif owner == ARGV[3] then
	redis.call('SET', KEYS[1], ARGV[1])
else
	return 0
end
redis.call('SET', KEYS[2], 'x')`,
			[]string{"GET k1", "PEXPIRE k1 a2 w owner-compare(k1,a1)", "SET k1 a1 w owner-compare(k1,a3)", "SET k2 'x' w owner-compare(k1,a1)"}, luascan.OwnerCompare},

		// Fences written other ways.
		{"fence in the then branch", `
local cur = redis.call('HGET', KEYS[1], 'fence')
if cur == false or tonumber(ARGV[1]) > tonumber(cur) then
  redis.call('HSET', KEYS[1], 'fence', ARGV[1], 'data', ARGV[2])
  return 1
end
return 0`,
			[]string{"HGET k1 'fence'", "HSET k1 'fence' a1 'data' a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"fence and owner in the then branch", `
local tok = tonumber(ARGV[1])
local cur = tonumber(redis.call("GET", KEYS[1]) or "0")
if tok > cur and redis.call("GET", KEYS[2]) == ARGV[2] then
  redis.call("SET", KEYS[1], tok)
  return redis.call("SET", KEYS[3], ARGV[3])
end
return 0`,
			[]string{"GET k1", "GET k2", "SET k1 a1 w fence-compare(k1,a1)", "SET k3 a3 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"fence with not and ~=", `
if not (redis.call('GET', KEYS[1]) ~= ARGV[1]) then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"early exit on owner mismatch", `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('not owner')
end
redis.call('INCR', KEYS[2])`,
			[]string{"GET k1", "INCR k2 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"early exit by error()", `
local stored = tonumber(redis.call('GET', KEYS[1]))
if stored ~= nil and stored >= tonumber(ARGV[1]) then error('stale token') end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"early exit: stored >= token", `
local stored = tonumber(redis.call('GET', KEYS[1]) or 0)
if stored >= tonumber(ARGV[1]) then error('stale token') end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"comparison kept in a local", `
local fresh = tonumber(ARGV[1]) > tonumber(redis.call('GET', KEYS[1]) or '0')
if not fresh then return 0 end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"missing key or newer token", `
local cur = redis.call('GET', KEYS[1])
if not cur or tonumber(cur) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end`,
			[]string{"GET k1", "SET k1 a1 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"present and not newer: exit", `
local cur = redis.call('GET', KEYS[1])
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"missing key alone guards nothing", `
local cur = redis.call('GET', KEYS[1])
if not cur then redis.call('SET', KEYS[1], ARGV[1]) end`,
			[]string{"GET k1", "SET k1 a1 w"}, luascan.None},
		{"missing key or owner is a claim, not an owner check", `
local cur = redis.call('GET', KEYS[1])
if cur == false or cur == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1]) end`,
			[]string{"GET k1", "SET k1 a1 w create-only(k1,a1)"}, luascan.CreateOnly},
		{"missing other key or newer token is no fence", `
local a = redis.call('GET', KEYS[2])
if not a or tonumber(redis.call('GET', KEYS[1])) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end`,
			[]string{"GET k2", "GET k1", "SET k1 a1 w"}, luascan.None},
		{"JSON state with a fence field", `
local state = cjson.decode(redis.call('GET', KEYS[1]) or '{}')
if state.fence and state.fence >= tonumber(ARGV[1]) then return 0 end
state.fence = tonumber(ARGV[1])
server.call('SET', KEYS[1], cjson.encode(state))`,
			[]string{"GET k1", "SET k1 ? w fence-compare(k1,a1)"}, luascan.FenceCompare},
		{"else branch of the owner check", `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 else redis.call('SET', KEYS[1], ARGV[1]) end`,
			[]string{"GET k1", "SET k1 a1 w"}, luascan.None},
		{"code after if/else where the then branch falls through", `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then redis.call('INCR', KEYS[3]) else return 0 end
redis.call('SET', KEYS[2], ARGV[2])`,
			[]string{"GET k1", "INCR k3 w", "SET k2 a2 w"}, luascan.None},

		// Not fences.
		{"wrong direction", `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1])`,
			[]string{"GET k1", "SET k1 a1 w"}, luascan.None},
		{"compared with a literal", `
if redis.call('GET', KEYS[1]) == '1' then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w"}, luascan.None},
		{"TTL is not a stored value", `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end`,
			[]string{"PTTL k1", "PEXPIRE k1 a1 w"}, luascan.None},
		{"or of a guard and anything", `
if redis.call('GET', KEYS[1]) == ARGV[1] or ARGV[2] == '1' then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w"}, luascan.None},
		{"unconditional writes", `redis.call('SET', KEYS[1], ARGV[1]); return redis.call('EXPIRE', KEYS[1], 10)`,
			[]string{"SET k1 a1 w", "EXPIRE k1 '10' w"}, luascan.None},
		{"read only", `return redis.call('GET', KEYS[1])`, []string{"GET k1"}, luascan.None},
		{"conditional write commands", `redis.call('SORT', KEYS[1]); redis.call('GETEX', KEYS[1]); redis.call('SORT', KEYS[1], 'STORE', KEYS[2])`,
			[]string{"SORT k1", "GETEX k1", "SORT k1 'STORE' k2 w"}, luascan.None},
		{"token drawn only by the creator of the lock", `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`,
			[]string{"SET k1 a1 'NX' 'PX' a2 w create-only(k0,a0)", "INCR k2 w create-only(k0,a0)"}, luascan.CreateOnly},
		{"SETNX result compared with 1", `
if redis.call('SETNX', KEYS[1], ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end`,
			[]string{"SETNX k1 a1 w create-only(k0,a0)", "PEXPIRE k1 a2 w create-only(k0,a0)"}, luascan.CreateOnly},
		{"SETNX result is truthy even when 0", `
if redis.call('SETNX', KEYS[1], ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end`,
			[]string{"SETNX k1 a1 w create-only(k0,a0)", "PEXPIRE k1 a2 w"}, luascan.None},
		{"pcall of redis.call and a local alias", `
local call = redis.call
if call('GET', KEYS[1]) == ARGV[1] then
  local ok, err = pcall(redis.call, 'SET', KEYS[2], ARGV[2])
  call('DEL', KEYS[1])
end`,
			[]string{"GET k1", "pcall SET k2 a2 w owner-compare(k1,a1)", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"nested calls keep source order", `return redis.call('SET', KEYS[1], redis.call('GET', KEYS[2]))`,
			[]string{"SET k1 ? w", "GET k2"}, luascan.None},
		{"SET IFEQ compares by itself", `return redis.call('SET', KEYS[1], ARGV[2], 'IFEQ', ARGV[1])`,
			[]string{"SET k1 a2 'IFEQ' a1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},

		// Following values.
		{"locals for keys and args", `
local key, owner = KEYS[1], ARGV[1]
local current = redis.call("get", key)
if current == owner then return redis.call("del", key) end`,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"reassigned in a branch: unsure", `
local cur = redis.call('GET', KEYS[1])
if ARGV[3] == 'reset' then cur = '0' end
if cur == ARGV[1] then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w unsure(k0,a0)"}, luascan.Unsure},
		{"reassigned in the same block", `
local cur = '0'
cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"shadowing local", `
local v = redis.call('GET', KEYS[1])
do local v = ARGV[9] end
if v == ARGV[1] then redis.call('DEL', KEYS[1]) end`,
			[]string{"GET k1", "DEL k1 w owner-compare(k1,a1)"}, luascan.OwnerCompare},
		{"helper function: unsure", `
local function put(k, v) redis.call('SET', k, v) end
if redis.call('GET', KEYS[1]) == ARGV[1] then put(KEYS[2], ARGV[2]) end`,
			[]string{"SET ? ? w unsure(k0,a0)", "GET k1"}, luascan.Unsure},
		{"loop over KEYS", `for i, k in ipairs(KEYS) do redis.call('DEL', k) end`,
			[]string{"DEL k0 w"}, luascan.None},
		{"pcall and HMGET element", `
local vals = redis.call('HMGET', KEYS[1], 'owner', 'fence')
if vals[1] == ARGV[1] then redis.pcall('HSET', KEYS[1], 'data', ARGV[2]) end`,
			[]string{"HMGET k1 'owner' 'fence'", "pcall HSET k1 'data' a2 w owner-compare(k1,a1)"}, luascan.OwnerCompare},

		// Tokenizer corners: calls in strings and comments do not count.
		{"calls in strings and comments", `
-- redis.call('DEL', KEYS[1])
--[[ redis.call('DEL', KEYS[1]) ]]
--[==[ ]] redis.call('DEL', KEYS[1]) ]==]
local s = [[ redis.call('DEL', KEYS[1]) ]]
local t = [=[ ]] redis.call('DEL', KEYS[1]) ]=]
local u = "redis.call('DEL', KEYS[1]) \" still a string"
local w = 'it\'s \65\x41\u{48} \z
     continued'
return redis.call('GET', KEYS[1])`,
			[]string{"GET k1"}, luascan.None},
		{"method calls, tables, varargs, numbers", `
local t = {1, 2.5e3, 0x1F, a = {b = 'c'}, [KEYS[1]] = true; 'x'}
local n = #t + (2 ^ 3) // 1 % 5
local s = ('abc'):upper()
local f = function(...) return select('#', ...) end
redis.call('ZADD', KEYS[1], n, ARGV[1])`,
			[]string{"ZADD k1 ? a1 w"}, luascan.None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := luascan.Parse(tt.src)
			if s.Unknown {
				t.Fatalf("Unknown: %s", s.Problem)
			}
			var got []string
			for _, c := range s.Calls {
				got = append(got, call(c))
			}
			if strings.Join(got, "\n") != strings.Join(tt.calls, "\n") {
				t.Errorf("calls:\n got %q\nwant %q", got, tt.calls)
			}
			if s.Guard != tt.guard {
				t.Errorf("guard = %v, want %v", s.Guard, tt.guard)
			}
		})
	}
}

func TestUnknown(t *testing.T) {
	tests := []struct {
		name, src, problem string
	}{
		{"computed command", `return redis.call(ARGV[1], KEYS[1])`, "redis command computed at run time"},
		{"unpacked command", `return redis.call(unpack(ARGV))`, "redis command computed at run time"},
		{"redis.call escapes", `local function run(f, ...) return f(...) end
return run(redis.call, 'DEL', KEYS[1])`, "redis.call passed to a function at offset 52"},
		{"syntax error", `if redis.call('GET', KEYS[1]) == ARGV[1] redis.call('DEL', KEYS[1]) end`, `expected "then" at offset 41`},
		{"missing end", `if x then redis.call('DEL', KEYS[1])`, `expected "end" at offset 36`},
		{"unfinished string", `redis.call('DEL, KEYS[1])`, "unfinished string at offset 11"},
		{"unterminated long string", `local s = [==[ ]] ]=]`, "unterminated long string at offset 10"},
		{"unterminated long comment", "--[[ never closed\nredis.call('DEL', KEYS[1])", "unterminated long comment at offset 0"},
		{"bad escape", `local s = "\q"`, "invalid escape in string at offset 11"},
		{"stray character", "local s = 1 ! 2", "unexpected character '!' at offset 12"},
		{"too deep", strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500), "nesting too deep at offset 200"},
		{"too deep blocks", strings.Repeat("do ", 500) + strings.Repeat("end ", 500), "nesting too deep at offset 600"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := luascan.Parse(tt.src)
			if !s.Unknown || s.Problem != tt.problem {
				t.Errorf("Unknown=%v Problem=%q, want %q", s.Unknown, s.Problem, tt.problem)
			}
		})
	}
}

// counterCases are scripts luascan calls counters (key is CounterKey) and
// scripts it must not. TestCountersOnRedis runs each on a real server.
var counterCases = []struct {
	name string
	src  string
	key  int
}{
	// balance's ID generator (backend/internal/utils/id_generator.go).
	{"first value when missing, then the stored number plus a step", `
local current = redis.call('GET', KEYS[1])
if current == false then
	redis.call('SET', KEYS[1], ARGV[1])
	return tonumber(ARGV[1])
else
	local newID = tonumber(current) + tonumber(ARGV[2])
	redis.call('SET', KEYS[1], newID)
	return newID
end`, 1},
	{"INCR with a TTL on the first draw", `
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
return n`, 2},
	{"a default for a missing key, then SET with a TTL", `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local nxt = cur + 1
redis.call('SET', KEYS[1], nxt, 'EX', 60)
return nxt`, 1},
	{"a literal step first", `local v = 1 + (redis.call('GET', KEYS[1]) or 0); redis.call('SET', KEYS[1], v)`, 1},

	// Not counters.
	{"a first value set without checking the key is missing", `
local current = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1])
return current`, 0},
	{"the number of another key", `
local cur = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[1], cur + 1)`, 0},
	{"a second key written", `
local n = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2], ARGV[1])
return n`, 0},
	{"a multiplied number", `
local cur = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], cur * 2)`, 0},
	{"stepped by another stored number", `
local cur = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], cur + redis.call('GET', KEYS[2]))`, 0},
	{"a missing test of another key", `
if redis.call('GET', KEYS[2]) == false then redis.call('SET', KEYS[1], ARGV[1]) end
redis.call('INCR', KEYS[1])`, 0},
	{"reads only", `return redis.call('GET', KEYS[1])`, 0},
	{"a fence check", fenceScript, 0},
	{"a lock release", redsyncDelete, 0},
}

func TestCounter(t *testing.T) {
	for _, tt := range counterCases {
		t.Run(tt.name, func(t *testing.T) {
			s := luascan.Parse(tt.src)
			if s.Unknown {
				t.Fatalf("Unknown: %s", s.Problem)
			}
			if s.CounterKey != tt.key {
				t.Errorf("CounterKey = %d, want %d", s.CounterKey, tt.key)
			}
		})
	}
}

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
		{"fence script", fenceScript,
			[]string{"GET k1", "SET k1 a1 w fence-compare(k1,a1)", "SET k2 a2 w fence-compare(k1,a1)"}, luascan.FenceCompare},
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

package luascan_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzers/internal/luascan"
)

// TestGuardsOnRedis checks luascan's verdict against a real Redis server:
// each script runs once with a stale or foreign ARGV and once with a fresh
// or owning one. A script luascan calls guarded (FenceCompare or
// OwnerCompare) must leave the data alone on the first run and change it on
// the second; one it calls unguarded must let the first run write.
func TestGuardsOnRedis(t *testing.T) {
	sock := startRedis(t)
	fenceSetup := [][]string{{"SET", "fence", "5"}, {"SET", "data", "old"}}
	lockSetup := [][]string{{"SET", "lock", "me"}}
	fenceKeys, lockKeys := []string{"fence", "data"}, []string{"lock"}
	getData, existsLock, pttlLock := []string{"GET", "data"}, []string{"EXISTS", "lock"}, []string{"PTTL", "lock"}
	stale, fresh := []string{"4", "stale"}, []string{"6", "fresh"}
	foreign, owner := []string{"other", "60000"}, []string{"me", "60000"}
	cases := []struct {
		name        string
		script      string
		setup       [][]string
		keys        []string
		first, then []string // ARGV of the rejected and the accepted run
		check       []string // shows whether the data changed
		guard       luascan.Guard
	}{
		{"fence script", fenceScript, fenceSetup, fenceKeys, stale, fresh, getData, luascan.FenceCompare},
		{"fence checked only where the key holds one", nestedFence, fenceSetup, fenceKeys, stale, fresh, getData, luascan.FenceCompare},
		{"a nested check that does not leave", `local cur = redis.call('GET', KEYS[1])
if cur then
	if tonumber(ARGV[1]) <= tonumber(cur) then cur = false end
end
redis.call('SET', KEYS[2], ARGV[2])`, fenceSetup, fenceKeys, stale, fresh, getData, luascan.None},
		{"missing or newer", `local cur = redis.call('GET', KEYS[1])
if not cur or tonumber(cur) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[2]) end`,
			fenceSetup, fenceKeys, stale, fresh, getData, luascan.FenceCompare},
		{"exit by error()", `local stored = tonumber(redis.call('GET', KEYS[1]) or 0)
if stored >= tonumber(ARGV[1]) then error('stale token') end
redis.call('SET', KEYS[2], ARGV[2])`,
			fenceSetup, fenceKeys, stale, fresh, getData, luascan.FenceCompare},
		{"JSON state", `local state = cjson.decode(redis.call('GET', KEYS[1]) or '{}')
if state.fence and state.fence >= tonumber(ARGV[1]) then return 0 end
state.fence = tonumber(ARGV[1]); state.body = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(state))`,
			[][]string{{"SET", "state", `{"fence":5,"body":"old"}`}}, []string{"state"}, stale, fresh,
			[]string{"EVAL", "return cjson.decode(redis.call('GET', KEYS[1])).body", "1", "state"}, luascan.FenceCompare},
		{"redsync delete", redsyncDelete, lockSetup, lockKeys, foreign, owner, existsLock, luascan.OwnerCompare},
		{"redsync touch", redsyncTouch, lockSetup, lockKeys, foreign, owner, pttlLock, luascan.OwnerCompare},
		{"redislock refresh", redislockRefresh, lockSetup, lockKeys, foreign, owner, pttlLock, luascan.OwnerCompare},
		{"redislock release", redislockRelease, lockSetup, lockKeys, foreign, owner, existsLock, luascan.OwnerCompare},
		{"early exit on owner mismatch", `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('not owner') end
redis.call('DEL', KEYS[1])`, lockSetup, lockKeys, foreign, owner, existsLock, luascan.OwnerCompare},
		{"wrong direction", `local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])`, fenceSetup, fenceKeys, stale, fresh, getData, luascan.None},
		{"write in the else branch", `if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 else redis.call('SET', KEYS[2], ARGV[2]) end`,
			fenceSetup, fenceKeys, stale, fresh, getData, luascan.None},
		{"unconditional", `redis.call('SET', KEYS[2], ARGV[2])`, fenceSetup, fenceKeys, stale, fresh, getData, luascan.None},
		{"plain delete", `return redis.call('DEL', KEYS[1])`, lockSetup, lockKeys, foreign, owner, existsLock, luascan.None},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := redisRun(t, sock, c.setup, "", nil, nil, c.check)
			afterFirst := redisRun(t, sock, c.setup, c.script, c.keys, c.first, c.check)
			afterThen := redisRun(t, sock, c.setup, c.script, c.keys, c.then, c.check)
			guarded := c.guard >= luascan.OwnerCompare
			switch {
			case guarded && (afterFirst != before || afterThen == before):
				t.Fatalf("case table wrong: %q before, %q after the rejected run, %q after the accepted one", before, afterFirst, afterThen)
			case !guarded && afterFirst == before:
				t.Fatalf("case table wrong: the first run did not write (%q)", afterFirst)
			}
			s := luascan.Parse(c.script)
			if s.Unknown || s.Guard != c.guard {
				t.Fatalf("Parse: Unknown=%v (%s), Guard %v; Redis says %v", s.Unknown, s.Problem, s.Guard, c.guard)
			}
		})
	}
}

// redisRun empties the database, runs setup, then (unless script is "")
// EVALs script with keys and args, and returns the output of check.
func redisRun(t *testing.T, sock string, setup [][]string, script string, keys, args, check []string) string {
	t.Helper()
	redisCLI(t, sock, "FLUSHALL")
	for _, cmd := range setup {
		redisCLI(t, sock, cmd...)
	}
	if script != "" {
		eval := append([]string{"EVAL", script, strconv.Itoa(len(keys))}, keys...)
		redisCLI(t, sock, append(eval, args...)...)
	}
	return redisCLI(t, sock, check...)
}

// redisCLI runs one command with redis-cli and returns its output.
func redisCLI(t *testing.T, sock string, args ...string) string {
	t.Helper()
	cmd := exec.Command("redis-cli", append([]string{"-s", sock}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("redis-cli %q: %v\n%s", args, err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// startRedis starts a Redis server on a unix socket in a temporary
// directory, without persistence, and stops it when the test ends.
func startRedis(t *testing.T) string {
	t.Helper()
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s not found: install the redis-server package", bin)
		}
	}
	dir, err := os.MkdirTemp("", "luascan-redis-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command("redis-server", "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
		"--save", "", "--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, "log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		out, _ := exec.Command("redis-cli", "-s", sock, "PING").Output()
		if strings.TrimSpace(string(out)) == "PONG" {
			return sock
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			t.Fatalf("redis-server did not start:\n%s", log)
		}
	}
}

// TestCountersOnRedis checks each script luascan calls a counter against a
// real Redis server: run twice in a row, from a database where the keys are
// missing and from one where they hold numbers, every run must change the
// counter's key and no other key. That is what makes a late run harmless:
// it steps the number it finds instead of writing back one it computed
// before.
func TestCountersOnRedis(t *testing.T) {
	sock := startRedis(t)
	setups := [][][]string{
		{{"SET", "other", "keep"}},
		{{"SET", "other", "keep"}, {"SET", "c1", "5"}, {"SET", "c2", "3"}},
	}
	keys, args := []string{"c1", "c2"}, []string{"100", "7"}
	counters := 0
	for _, c := range counterCases {
		s := luascan.Parse(c.src)
		if s.CounterKey == 0 {
			continue
		}
		counters++
		t.Run(c.name, func(t *testing.T) {
			counter := keys[s.CounterKey-1]
			for _, setup := range setups {
				before := redisSnapshot(t, sock, setup, c.src, 0, keys, args)
				first := redisSnapshot(t, sock, setup, c.src, 1, keys, args)
				second := redisSnapshot(t, sock, setup, c.src, 2, keys, args)
				for key := range before {
					moved := key == counter
					if (first[key] != before[key]) != moved || (second[key] != first[key]) != moved {
						t.Fatalf("from %q, two runs left %q = %q, then %q, then %q; luascan calls the script a counter on %q",
							setup, key, before[key], first[key], second[key], counter)
					}
				}
			}
		})
	}
	if counters == 0 {
		t.Fatal("no script read as a counter")
	}
}

// redisSnapshot empties the database, runs setup, EVALs script runs times
// with keys and args, and returns the values of c1, c2 and other ("" when
// missing). A script's error fails the test.
func redisSnapshot(t *testing.T, sock string, setup [][]string, script string, runs int, keys, args []string) map[string]string {
	t.Helper()
	redisCLI(t, sock, "FLUSHALL")
	for _, cmd := range setup {
		redisCLI(t, sock, cmd...)
	}
	for range runs {
		eval := append([]string{"EVAL", script, strconv.Itoa(len(keys))}, keys...)
		if out := redisCLI(t, sock, append(eval, args...)...); strings.HasPrefix(out, "ERR") {
			t.Fatalf("EVAL: %s", out)
		}
	}
	snap := make(map[string]string)
	for _, key := range []string{"c1", "c2", "other"} {
		snap[key] = redisCLI(t, sock, "GET", key)
	}
	return snap
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/fencetest"
)

// svc are the services every test shares; TestMain starts them.
var svc *services

func TestMain(m *testing.M) {
	fencetest.ServeWorker() // the harness re-executes this binary as the workers
	s, err := startServices(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "frozendemo: starting etcd, redis-server and PostgreSQL: %v\n", err)
		os.Exit(1)
	}
	svc = s
	code := m.Run()
	s.stop()
	os.Exit(code)
}

const testTTL = time.Second

// pauses are how long worker A is frozen at least, each past the TTL.
var pauses = []time.Duration{1200 * time.Millisecond, 2 * time.Second, 3500 * time.Millisecond}

// TestUnfencedLoseBsWrite proves the bug rather than assuming it: with a
// lock and no fence, or a token drawn after acquiring, the store takes the
// frozen worker's write and B's write is gone.
func TestUnfencedLoseBsWrite(t *testing.T) {
	t.Parallel()
	for _, v := range allVariants() {
		if v.fenced {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			for _, pause := range pauses {
				t.Run(fmt.Sprintf("pause=%v", pause), func(t *testing.T) {
					t.Parallel()
					rs := setUp(t, v, pause)
					res := fencetest.Run(t, v.job, rs.opts)
					final := finalRow(t, rs)
					if !res.StaleWriteAccepted || res.Winner != "A" || final.WrittenBy != "A" || final.Amount != balanceOf("A") {
						t.Errorf("%s: want A's stale write to win; got StaleWriteAccepted=%v, final row %v", v.name, res.StaleWriteAccepted, final)
					}
					if res.Stopped < pause {
						t.Errorf("A was stopped for %v, want at least %v", res.Stopped, pause)
					}
				})
			}
		})
	}
}

// TestFencedKeepBsWrite: with a token handed out with the lease, the store
// refuses the frozen worker, whatever the pause.
func TestFencedKeepBsWrite(t *testing.T) {
	t.Parallel()
	for _, v := range allVariants() {
		if !v.fenced {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			for _, pause := range pauses {
				t.Run(fmt.Sprintf("pause=%v", pause), func(t *testing.T) {
					t.Parallel()
					rs := setUp(t, v, pause)
					res := fencetest.AssertFenced(t, v.job, rs.opts)
					final := finalRow(t, rs)
					if !res.Refused || final.WrittenBy != "B" || final.Amount != balanceOf("B") {
						t.Errorf("%s: want A refused and B's write kept; got Refused=%v, final row %v", v.name, res.Refused, final)
					}
					a, b := tokenOf(res.Timeline, "A"), tokenOf(res.Timeline, "B")
					if a <= 0 || b <= a || final.Fence != b {
						t.Errorf("%s: tokens A %d, B %d, final fence %d: want 0 < A < B = the final fence", v.name, a, b, final.Fence)
					}
				})
			}
		})
	}
}

// TestSoak is CI's share of the soak: a few rounds of every variant with
// random pauses, all at once.
func TestSoak(t *testing.T) {
	t.Parallel()
	const rounds = 8
	for _, v := range allVariants() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			st := soak(context.Background(), svc, v, rounds, rounds, testTTL)
			for _, err := range st.failures {
				t.Errorf("failed round: %v", err)
			}
			want := 0
			if !v.fenced {
				want = rounds
			}
			if st.rounds != rounds || st.accepted != want || st.rejections != rounds-want {
				t.Errorf("%s: %d rounds, %d stale writes accepted, %d rejections; want %d, %d, %d",
					v.name, st.rounds, st.accepted, st.rejections, rounds, want, rounds-want)
			}
		})
	}
}

// TestDemoCommand runs what `go run .` prints, and checks its verdicts.
func TestDemoCommand(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	ok, err := demo(context.Background(), svc, config{variants: allVariants(), ttl: testTTL, pause: 1500 * time.Millisecond}, &out)
	t.Log(out.String())
	if err != nil || !ok {
		t.Fatalf("demo: ok=%v err=%v", ok, err)
	}
	for _, want := range []string{
		"etcd-unfenced     etcd          unfenced    LOST",
		"redsync-unfenced  redis         unfenced    LOST",
		"etcd-fenced       etcd          fenced      kept",
		"redis-late-token  redis         late token  LOST",
		"lease-table       postgres      fenced      kept",
		"final row: balances id=",
		"frozen (SIGSTOP)",
		"resumed (SIGCONT)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // error substring; "" for none
	}{
		{nil, ""},
		{[]string{"-variant", "lease-table", "-ttl", "200ms", "-pause", "500ms"}, ""},
		{[]string{"-variant", "nope"}, `no variant "nope"`},
		{[]string{"-ttl", "500ms"}, "etcd leases last whole seconds"},
		{[]string{"-pause", "1s"}, "must be longer than -ttl"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		_, err := parseFlags(tc.args)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("parseFlags(%q) = %v, want error containing %q", tc.args, err, tc.want)
		}
	}
}

func setUp(t *testing.T, v *variant, pause time.Duration) *roundSetup {
	t.Helper()
	rs, err := svc.setUp(context.Background(), v, round{pause: pause, ttl: testTTL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rs.close)
	return rs
}

func finalRow(t *testing.T, rs *roundSetup) balance {
	t.Helper()
	b, err := rs.final(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tokenOf returns the token worker took the lease with.
func tokenOf(tl fencetest.Timeline, worker string) int64 {
	for _, e := range tl {
		if e.Worker == worker && e.What == "took the lease" {
			return e.Token
		}
	}
	return -1
}

package fencetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fencelint/fencelint/fencetest"
)

// The harness's own tests use a lease kept in a file (a holder, a token and
// an expiry time, changed under flock) and a one-row store in another file:
// the smallest real lock service and store that two processes can share.

const fileLeaseTTL = 100 * time.Millisecond

var (
	unfencedJob = fencetest.Register(fencetest.Job{
		Name: "file-unfenced",
		Work: func(ctx context.Context, w *fencetest.Worker) error { return fileWorker(w, false) },
	})
	fencedJob = fencetest.Register(fencetest.Job{
		Name:    "file-fenced",
		Work:    func(ctx context.Context, w *fencetest.Worker) error { return fileWorker(w, true) },
		IsStale: func(err error) bool { return errors.Is(err, errStale) },
	})
	neverAcquiresJob = fencetest.Register(fencetest.Job{
		Name: "never-acquires",
		Work: func(ctx context.Context, w *fencetest.Worker) error { return errors.New("no lock service") },
	})
	brokenStoreJob = fencetest.Register(fencetest.Job{
		Name: "broken-store",
		Work: func(ctx context.Context, w *fencetest.Worker) error {
			w.Acquired(0)
			return errors.New("connection refused")
		},
	})
)

func TestMain(m *testing.M) { fencetest.Main(m) }

func TestUnfencedLosesBsWrite(t *testing.T) {
	dir := t.TempDir()
	res := fencetest.Run(t, unfencedJob, fileOptions(dir))
	if !res.StaleWriteAccepted || res.Refused || res.Winner != "A" {
		t.Fatalf("unfenced file store: got StaleWriteAccepted=%v Refused=%v Winner=%q, want A's stale write accepted",
			res.StaleWriteAccepted, res.Refused, res.Winner)
	}
	if res.Stopped < fileLeaseTTL*3 {
		t.Errorf("A was stopped for %v, want at least the pause %v", res.Stopped, fileLeaseTTL*3)
	}
	wantInOrder(t, res.Timeline, "A took the lease", "A frozen (SIGSTOP)", "B took the lease", "B wrote",
		"A resumed (SIGCONT)", "A wrote")
}

func TestFencedRefusesA(t *testing.T) {
	dir := t.TempDir()
	res := fencetest.AssertFenced(t, fencedJob, fileOptions(dir))
	if !res.Refused || res.Winner != "B" {
		t.Fatalf("fenced file store: got Refused=%v Winner=%q AErr=%v, want A refused and B's write kept", res.Refused, res.Winner, res.AErr)
	}
	if res.AErr == nil || !strings.Contains(res.AErr.Error(), "stale") {
		t.Errorf("A's error = %v, want the store's stale error carried over", res.AErr)
	}
	var aToken, bToken int64
	for _, e := range res.Timeline {
		if e.What == "took the lease" {
			if e.Worker == "A" {
				aToken = e.Token
			} else {
				bToken = e.Token
			}
		}
	}
	if aToken == 0 || bToken <= aToken {
		t.Errorf("tokens: A %d, B %d; want B's greater than A's", aToken, bToken)
	}
}

func TestScenarioErrors(t *testing.T) {
	for _, tc := range []struct {
		job  *fencetest.Job
		want string
	}{
		{neverAcquiresJob, "ended before it called Worker.Acquired: it returned no lock service"},
		{brokenStoreJob, "worker B failed"},
	} {
		t.Run(tc.job.Name, func(t *testing.T) {
			_, err := tc.job.Play(context.Background(), fileOptions(t.TempDir()))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Play: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestTimelineString(t *testing.T) {
	tl := fencetest.Timeline{
		{At: 1500 * time.Millisecond, Worker: "A", What: "took the lease", Token: 7, Rows: -1},
		{At: 2 * time.Second, Worker: "B", What: "wrote", Token: 8, Rows: 1},
	}
	want := "" +
		"time      worker  event           token  rows\n" +
		"  1.500s  A       took the lease  7      -\n" +
		"  2.000s  B       wrote           8      1\n"
	if got := tl.String(); got != want {
		t.Errorf("Timeline.String() =\n%s\nwant\n%s", got, want)
	}
}

func fileOptions(dir string) fencetest.Options {
	return fencetest.Options{
		Pause:   3 * fileLeaseTTL,
		Env:     []string{"FILELEASE_DIR=" + dir},
		Timeout: 30 * time.Second,
		Winner: func(context.Context) (string, error) {
			var r row
			err := readJSON(filepath.Join(dir, "row"), &r)
			return r.Writer, err
		},
	}
}

func wantInOrder(t *testing.T, tl fencetest.Timeline, events ...string) {
	t.Helper()
	i := 0
	for _, e := range tl {
		if i < len(events) && strings.HasPrefix(e.Worker+" "+e.What, events[i]) {
			i++
		}
	}
	if i < len(events) {
		t.Errorf("timeline lacks %q in order after the earlier events:\n%s", events[i], tl)
	}
}

var errStale = errors.New("stale token: a newer holder has written")

type lease struct {
	Holder  string
	Token   int64
	Expires time.Time
}

type row struct {
	Writer string
	Fence  int64
}

// fileWorker takes the file lease, then writes its name to the row, with
// the lease's token as the fence if fenced.
func fileWorker(w *fencetest.Worker, fenced bool) error {
	dir := os.Getenv("FILELEASE_DIR")
	token, err := acquire(dir, w.Name())
	if err != nil {
		return err
	}
	w.Acquired(token)
	return locked(dir, func() error {
		var r row
		if err := readJSON(filepath.Join(dir, "row"), &r); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if fenced && r.Fence > token {
			w.Wrote(token, 0)
			return fmt.Errorf("token %d, row fence %d: %w", token, r.Fence, errStale)
		}
		w.Wrote(token, 1)
		return writeJSON(filepath.Join(dir, "row"), row{Writer: w.Name(), Fence: token})
	})
}

// acquire waits until the lease is free or expired and takes it.
func acquire(dir, holder string) (int64, error) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var token int64
		err := locked(dir, func() error {
			var l lease
			if err := readJSON(filepath.Join(dir, "lease"), &l); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			if time.Now().Before(l.Expires) {
				return nil
			}
			token = l.Token + 1
			return writeJSON(filepath.Join(dir, "lease"), lease{Holder: holder, Token: token, Expires: time.Now().Add(fileLeaseTTL)})
		})
		if err != nil || token != 0 {
			return token, err
		}
	}
	return 0, errors.New("lease still held after 10s")
}

func locked(dir string, fn func() error) error {
	f, err := os.OpenFile(filepath.Join(dir, "flock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	return fn()
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

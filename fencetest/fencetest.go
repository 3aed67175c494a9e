//go:build unix

package fencetest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"
)

// Func is a worker: it takes the lease, calls w.Acquired, does its work
// against the store and returns. It returns nil only if its write was
// applied, and the store's refusal (see [Job.IsStale]) if the fence refused
// it. It runs in a process of its own, once as worker A and once as B.
type Func func(ctx context.Context, w *Worker) error

// Job is a registered worker.
type Job struct {
	// Name identifies the job across processes; unique per binary.
	Name string
	// Work is the worker.
	Work Func
	// IsStale reports whether an error returned by Work is the store
	// refusing a write from a stale lease holder (for fencegen's code:
	// errors.Is(err, db.ErrStale)). Nil means no error is.
	IsStale func(error) bool
}

var registry struct {
	sync.Mutex
	jobs map[string]*Job
}

// Register makes job runnable as a worker process and returns it. Call it
// from a package-level variable declaration, so that the worker process,
// which is the same binary, knows the job before [Main] or [ServeWorker]
// looks it up. It panics if the name is empty or taken, or Work is nil.
func Register(job Job) *Job {
	if job.Name == "" || job.Work == nil {
		panic("fencetest.Register: a job needs a Name and a Work function")
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.jobs == nil {
		registry.jobs = make(map[string]*Job)
	}
	if _, dup := registry.jobs[job.Name]; dup {
		panic(fmt.Sprintf("fencetest.Register: job %q registered twice", job.Name))
	}
	j := &job
	registry.jobs[job.Name] = j
	return j
}

func lookup(name string) *Job {
	registry.Lock()
	defer registry.Unlock()
	return registry.jobs[name]
}

// Main is TestMain for a package that uses fencetest: in a worker process
// it runs the worker and exits; otherwise it runs the tests.
//
//	func TestMain(m *testing.M) { fencetest.Main(m) }
func Main(m *testing.M) {
	ServeWorker()
	os.Exit(m.Run())
}

// Options say how to run the scenario.
type Options struct {
	// Pause is how long worker A stays stopped at least: make it longer than
	// the lease's TTL. A is also kept stopped until B is done, so B never
	// has to race A. Zero means 3s.
	Pause time.Duration
	// Env is added to both workers' environment (KEY=VALUE): where the lock
	// service and the store are, which lock key and row to use.
	Env []string
	// Timeout bounds the whole scenario; the workers are killed after it.
	// Zero means Pause plus one minute.
	Timeout time.Duration
	// Winner, if set, reads the store after both workers are done and
	// returns the name ("A" or "B") of the worker whose write it holds: the
	// ground truth for Result.StaleWriteAccepted.
	Winner func(ctx context.Context) (string, error)
}

func (o Options) pause() time.Duration {
	if o.Pause <= 0 {
		return 3 * time.Second
	}
	return o.Pause
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return o.pause() + time.Minute
	}
	return o.Timeout
}

// Result is what happened in one run of the scenario.
type Result struct {
	// Timeline is every event of both workers and the harness, in order.
	Timeline Timeline
	// StaleWriteAccepted says the store applied A's write after B had taken
	// the lease and written: B's write is lost.
	StaleWriteAccepted bool
	// Refused says A's write was refused as stale (Job.IsStale matched
	// the error A returned).
	Refused bool
	// AErr and BErr are what the workers returned.
	AErr, BErr error
	// Stopped is how long A was actually stopped.
	Stopped time.Duration
	// Winner is what Options.Winner returned, if set.
	Winner string
}

// Outcome is a one-line summary of r.
func (r *Result) Outcome() string {
	switch {
	case r.StaleWriteAccepted:
		return fmt.Sprintf("stale write accepted: A, stopped for %v after taking the lease, overwrote B's write", r.Stopped.Round(time.Millisecond))
	case r.Refused:
		return fmt.Sprintf("stale write refused: %v", r.AErr)
	default:
		return "no stale write"
	}
}

// Run runs job's scenario with opts, logs the timeline to t and returns the
// result. It fails t if the scenario could not run as intended (a worker
// crashed, B could not take the lease or write, A failed for another
// reason than a refused write), but not if a stale write was accepted: see
// [AssertFenced] for that.
func Run(t testing.TB, job *Job, opts Options) *Result {
	t.Helper()
	res, err := job.Play(context.Background(), opts)
	if res != nil {
		t.Logf("%s: %s\n%s", job.Name, res.Outcome(), res.Timeline)
	}
	if err != nil {
		t.Fatalf("fencetest: %s: %v", job.Name, err)
	}
	return res
}

// AssertFenced runs job's scenario and fails t if the store accepted worker
// A's stale write.
func AssertFenced(t testing.TB, job *Job, opts Options) *Result {
	t.Helper()
	res := Run(t, job, opts)
	if res.StaleWriteAccepted {
		t.Errorf("fencetest: %s: the store accepted a stale write: worker A, stopped for %v after taking the lease, "+
			"wrote after worker B took the lease and wrote, and B's write is lost; fence the write with a token "+
			"handed out with the lease (see the timeline above)", job.Name, res.Stopped.Round(time.Millisecond))
	}
	return res
}

// errFromWorker carries a worker's error across the process boundary: the
// text survives, the type does not.
type errFromWorker string

func (e errFromWorker) Error() string { return string(e) }

func workerErr(s string) error {
	if s == "" {
		return nil
	}
	return errFromWorker(s)
}

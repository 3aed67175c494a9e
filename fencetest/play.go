//go:build unix

package fencetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// Play runs job's scenario once, without a testing.T: for commands and soak
// runs. It is safe to call concurrently (give each call its own lock key and
// row through opts.Env). The result is returned, timeline included, even
// when the scenario could not run as intended; the error then says why.
func (j *Job) Play(ctx context.Context, opts Options) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this binary to run the workers: %w", err)
	}
	p := &play{job: j, opts: opts, exe: exe, start: time.Now(), res: &Result{}}
	err = p.run(ctx)
	p.res.Timeline.sort()
	return p.res, err
}

// play is one run of the scenario.
type play struct {
	job   *Job
	opts  Options
	exe   string
	start time.Time
	res   *Result
}

func (p *play) run(ctx context.Context) error {
	a, err := p.spawn(ctx, "A")
	if err != nil {
		return err
	}
	defer a.kill()
	if err := a.waitAcquired(ctx); err != nil {
		return err
	}
	if err := a.stop(); err != nil {
		return err
	}
	stoppedAt := time.Now()
	p.harnessEvent("A", "frozen (SIGSTOP)", stoppedAt)
	if err := a.release(); err != nil {
		return err
	}

	b, err := p.spawn(ctx, "B")
	if err != nil {
		return err
	}
	defer b.kill()
	bExit, err := b.wait(ctx)
	if err != nil {
		return err
	}
	if p.res.BErr = workerErr(bExit.Err); p.res.BErr != nil {
		return fmt.Errorf("worker B failed, so the scenario did not happen (B must take the lease and write "+
			"while A is stopped): %v", p.res.BErr)
	}

	select {
	case <-time.After(time.Until(stoppedAt.Add(p.opts.pause()))):
	case <-ctx.Done():
		return fmt.Errorf("timed out with A stopped: %w", ctx.Err())
	}
	// Taken before the signal: A can act only after it, so its events
	// always come after "resumed" in the timeline.
	resumedAt := time.Now()
	if err := a.signal(syscall.SIGCONT); err != nil {
		return err
	}
	p.res.Stopped = resumedAt.Sub(stoppedAt)
	p.harnessEvent("A", fmt.Sprintf("resumed (SIGCONT) after %v", p.res.Stopped.Round(time.Millisecond)), resumedAt)
	aExit, err := a.wait(ctx)
	if err != nil {
		return err
	}
	return p.judge(ctx, aExit)
}

// judge decides from A's exit, and from the store if Options.Winner is set,
// whether A's stale write was accepted.
func (p *play) judge(ctx context.Context, aExit message) error {
	res := p.res
	res.AErr = workerErr(aExit.Err)
	res.Refused = aExit.Stale
	res.StaleWriteAccepted = res.AErr == nil
	if res.AErr != nil && !res.Refused {
		return fmt.Errorf("worker A failed after it was resumed, and not with a refused write (Job.IsStale does not "+
			"match the error): %v", res.AErr)
	}
	if p.opts.Winner == nil {
		return nil
	}
	winner, err := p.opts.Winner(ctx)
	if err != nil {
		return fmt.Errorf("reading the store's final state: %w", err)
	}
	res.Winner = winner
	switch {
	case winner == "A" && res.Refused:
		res.StaleWriteAccepted = true
		return fmt.Errorf("worker A's write was refused, yet the store holds A's write: it wrote more than once?")
	case winner == "B" && !res.Refused:
		res.StaleWriteAccepted = false
		return fmt.Errorf("worker A returned nil (its write applied), yet the store holds B's write: A must return " +
			"nil only if its write was applied")
	case winner != "A" && winner != "B":
		return fmt.Errorf("the store holds a write from %q, not from worker A or B", winner)
	}
	return nil
}

func (p *play) harnessEvent(worker, what string, at time.Time) {
	p.res.Timeline = append(p.res.Timeline, Event{At: at.Sub(p.start), Worker: worker, What: what, Rows: -1})
}

// proc is a running worker process.
type proc struct {
	p        *play
	role     string
	cmd      *exec.Cmd
	stderr   bytes.Buffer
	messages chan message
	resume   *os.File // write end of the worker's resume pipe
	exited   bool
}

// spawn starts a worker process in role ("A" or "B").
func (p *play) spawn(ctx context.Context, role string) (*proc, error) {
	eventsR, eventsW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	resumeR, resumeW, err := os.Pipe()
	if err != nil {
		eventsR.Close()
		eventsW.Close()
		return nil, err
	}
	var args []string
	if testing.Testing() {
		// If the binary does not call Main, run no test rather than all.
		args = []string{"-test.run=^$"}
	}
	cmd := exec.CommandContext(ctx, p.exe, args...)
	cmd.Env = append(append(os.Environ(), p.opts.Env...), envJob+"="+p.job.Name, envRole+"="+role)
	cmd.ExtraFiles = []*os.File{eventsW, resumeR} // fds 3 and 4
	cmd.SysProcAttr = workerSysProcAttr()
	w := &proc{p: p, role: role, cmd: cmd, messages: make(chan message, 16), resume: resumeW}
	cmd.Stdout = &w.stderr
	cmd.Stderr = &w.stderr
	err = cmd.Start()
	eventsW.Close()
	resumeR.Close()
	if err != nil {
		eventsR.Close()
		resumeW.Close()
		return nil, fmt.Errorf("starting worker %s: %w", role, err)
	}
	p.harnessEvent(role, fmt.Sprintf("started (pid %d)", cmd.Process.Pid), time.Now())
	go w.read(eventsR)
	return w, nil
}

// read decodes the worker's events until the pipe closes.
func (w *proc) read(r *os.File) {
	defer r.Close()
	defer close(w.messages)
	dec := json.NewDecoder(bufio.NewReader(r))
	for {
		var m message
		if err := dec.Decode(&m); err != nil {
			return
		}
		w.messages <- m
	}
}

// next returns the worker's next message; ok is false once it has closed
// the pipe (exited).
func (w *proc) next(ctx context.Context) (message, bool, error) {
	select {
	case m, ok := <-w.messages:
		if ok {
			w.record(m)
		}
		return m, ok, nil
	case <-ctx.Done():
		return message{}, false, fmt.Errorf("timed out waiting for worker %s: %w%s", w.role, ctx.Err(), w.output())
	}
}

func (w *proc) record(m message) {
	if m.Kind != kindEvent {
		return
	}
	at := time.Unix(0, m.Time).Sub(w.p.start)
	w.p.res.Timeline = append(w.p.res.Timeline, Event{At: at, Worker: w.role, What: m.What, Token: m.Token, Rows: m.Rows})
}

// waitAcquired waits until worker A has taken the lease and waits to be
// stopped.
func (w *proc) waitAcquired(ctx context.Context) error {
	for {
		m, ok, err := w.next(ctx)
		if err != nil {
			return err
		}
		if !ok || m.Kind == kindExit {
			w.reap()
			return fmt.Errorf("worker %s ended before it called Worker.Acquired%s%s", w.role, exitNote(m), w.output())
		}
		if m.Kind == kindAcquired {
			return nil
		}
	}
}

// wait waits for the worker's exit message and its exit.
func (w *proc) wait(ctx context.Context) (message, error) {
	var exit message
	found := false
	for {
		m, ok, err := w.next(ctx)
		if err != nil {
			return message{}, err
		}
		if !ok {
			break
		}
		if m.Kind == kindExit {
			exit, found = m, true
			end := time.Unix(0, m.Time)
			what := "done"
			if m.Err != "" {
				what = "returned: " + m.Err
			}
			w.p.res.Timeline = append(w.p.res.Timeline, Event{At: end.Sub(w.p.start), Worker: w.role, What: what, Rows: -1})
		}
	}
	werr := w.reap()
	if !found {
		return message{}, fmt.Errorf("worker %s exited without reporting (%v): did it crash? A test binary must call "+
			"fencetest.Main from TestMain, a command fencetest.ServeWorker first in main%s", w.role, werr, w.output())
	}
	if werr != nil {
		return message{}, fmt.Errorf("worker %s: %v%s", w.role, werr, w.output())
	}
	return exit, nil
}

func exitNote(m message) string {
	if m.Kind == kindExit && m.Err != "" {
		return ": it returned " + m.Err
	}
	return ""
}

func (w *proc) reap() error {
	if w.exited {
		return nil
	}
	w.exited = true
	w.resume.Close()
	return w.cmd.Wait()
}

// stop sends SIGSTOP and, where the system tells, waits until the worker is
// really stopped: B must not start while A still runs.
func (w *proc) stop() error {
	if err := w.signal(syscall.SIGSTOP); err != nil {
		return err
	}
	return waitStopped(w.cmd.Process.Pid)
}

func (w *proc) signal(sig syscall.Signal) error {
	if err := w.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("sending %v to worker %s: %w", sig, w.role, err)
	}
	return nil
}

// release lets a stopped A go on once it is resumed.
func (w *proc) release() error {
	if _, err := w.resume.Write([]byte{1}); err != nil {
		return fmt.Errorf("worker %s: %w", w.role, err)
	}
	return nil
}

// kill ends a worker that is still running when the scenario ends early.
func (w *proc) kill() {
	if w.exited {
		return
	}
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Process.Signal(syscall.SIGCONT) // a stopped process dies once continued
	_ = w.reap()
}

func (w *proc) output() string {
	out := bytes.TrimSpace(w.stderr.Bytes())
	if len(out) == 0 {
		return ""
	}
	const max = 4 << 10
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return fmt.Sprintf("\n--- worker %s output ---\n%s", w.role, out)
}

var errNotStopped = errors.New("did not stop")

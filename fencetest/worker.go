//go:build unix

package fencetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// The harness tells a worker process who it is through its environment, and
// talks to it over two pipes: the worker writes its events to fd 3 and, as
// worker A, waits on fd 4 to be told to go on after it has been resumed.
const (
	envJob  = "FENCETEST_JOB"
	envRole = "FENCETEST_ROLE"

	eventsFD = 3
	resumeFD = 4
)

// Message kinds on the events pipe.
const (
	kindEvent    = "event"
	kindAcquired = "acquired" // A is ready to be stopped
	kindExit     = "exit"
)

// message is one line on the events pipe.
type message struct {
	Kind  string `json:"kind"`
	Time  int64  `json:"time"` // Unix nanoseconds: both processes read the same clock
	What  string `json:"what,omitempty"`
	Token int64  `json:"token,omitempty"`
	Rows  int64  `json:"rows"`
	Err   string `json:"err,omitempty"`
	Stale bool   `json:"stale,omitempty"`
}

// Worker is a worker process's handle on the harness.
type Worker struct {
	name   string
	mu     sync.Mutex
	enc    *json.Encoder
	resume io.Reader
	frozen bool
}

// Name is "A" (the worker that is frozen) or "B" (the one that takes the
// lease while A is frozen). Store it with the write, so that
// Options.Winner can tell whose write the store holds.
func (w *Worker) Name() string { return w.name }

// Acquired records that the worker took the lease, with its fencing token
// (0 if it has none). Worker A is stopped here, after the lease is taken and
// before the write, and resumed once B has written and Options.Pause has
// passed.
func (w *Worker) Acquired(token int64) {
	w.Note("took the lease", token)
	w.mu.Lock()
	freeze := w.name == "A" && !w.frozen
	w.frozen = true
	w.mu.Unlock()
	if !freeze {
		return
	}
	w.send(message{Kind: kindAcquired})
	// The harness stops this process while it waits here, and lets it go
	// on once it has resumed it; from here on, every clock has moved.
	var b [1]byte
	if _, err := io.ReadFull(w.resume, b[:]); err != nil {
		fmt.Fprintf(os.Stderr, "fencetest: worker A: waiting to be resumed: %v\n", err)
		os.Exit(3)
	}
}

// Wrote records a write made with token (0 if none) and the number of rows
// it affected (0 for a write the store refused).
func (w *Worker) Wrote(token, rows int64) {
	w.send(message{Kind: kindEvent, What: "wrote", Token: token, Rows: rows})
}

// Note records any other event, with a token if it concerns one (else 0).
func (w *Worker) Note(what string, token int64) {
	w.send(message{Kind: kindEvent, What: what, Token: token, Rows: -1})
}

func (w *Worker) send(m message) {
	m.Time = time.Now().UnixNano()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.enc.Encode(m); err != nil {
		fmt.Fprintf(os.Stderr, "fencetest: worker %s: reporting to the harness: %v\n", w.name, err)
		os.Exit(3)
	}
}

// ServeWorker runs the worker and exits if the harness started this process
// as one, and returns at once otherwise. A command that plays scenarios with
// [Job.Play] calls it first thing in main; tests call [Main] instead.
func ServeWorker() {
	name, ok := os.LookupEnv(envJob)
	if !ok {
		return
	}
	w := &Worker{
		name:   os.Getenv(envRole),
		enc:    json.NewEncoder(os.NewFile(eventsFD, "fencetest-events")),
		resume: os.NewFile(resumeFD, "fencetest-resume"),
	}
	job := lookup(name)
	if job == nil {
		w.send(message{Kind: kindExit, Err: fmt.Sprintf("fencetest: no job %q is registered in this binary: "+
			"register it in a package-level variable", name)})
		os.Exit(3)
	}
	err := job.Work(context.Background(), w)
	exit := message{Kind: kindExit, Rows: -1}
	if err != nil {
		exit.Err = err.Error()
		exit.Stale = job.IsStale != nil && job.IsStale(err)
	}
	w.send(exit)
	os.Exit(0)
}

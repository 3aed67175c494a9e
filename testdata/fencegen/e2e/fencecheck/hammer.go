package fencecheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// TokenFunc hands worker a fencing token, as a lock service does with a
// lease. Tokens must grow across calls.
type TokenFunc func(ctx context.Context, worker int) (int64, error)

// Counter returns a TokenFunc that hands out 1, 2, 3... to any worker.
func Counter() TokenFunc {
	var n atomic.Int64
	return func(context.Context, int) (int64, error) { return n.Add(1), nil }
}

// Outcome is what a fenced write reported.
type Outcome struct {
	Applied bool
	Current int64 // for a rejected write: the fence the stale error reported
}

// WriteFunc performs one fenced write of value to row with token. It returns
// an error only for failures other than a stale token.
type WriteFunc func(ctx context.Context, row int, token, value int64) (Outcome, error)

// Load bounds a contention run.
type Load struct {
	Workers         int           // concurrent writers
	Rows            int           // rows they share, numbered 1..Rows
	LeasesPerWorker int           // tokens each worker takes
	WritesPerLease  int           // writes made with each token
	MaxDelay        time.Duration // random pause before each write, so old tokens arrive late
	Timeout         time.Duration // no new token or write is started after this
	Seed            uint64
}

// Hammer runs load and returns the full history. Each worker repeatedly
// takes a token from tokens (a lease grant) and writes with it several
// times to random rows, pausing a random time before each write, so tokens
// reach the store out of order. Values are unique. A write that fails for
// another reason than a stale token ends the run with that error.
func Hammer(ctx context.Context, load Load, tokens TokenFunc, write WriteFunc) ([]Write, error) {
	h := &hammer{load: load, tokens: tokens, write: write}
	// The timeout only stops new work: a write cut off mid-flight might have
	// applied without being recorded, and the history must be whole, so
	// writes themselves run under ctx.
	running, stop := context.WithTimeout(ctx, load.Timeout)
	defer stop()
	h.stop = stop
	var wg sync.WaitGroup
	for worker := range load.Workers {
		wg.Go(func() { h.work(ctx, running, worker) })
	}
	wg.Wait()
	return h.history, h.err
}

// hammer is the state one Hammer call shares between its workers.
type hammer struct {
	load          Load
	tokens        TokenFunc
	write         WriteFunc
	stop          context.CancelFunc
	values, clock atomic.Int64

	mu      sync.Mutex
	history []Write
	err     error
}

// work is one worker: take a token, write with it, repeat.
func (h *hammer) work(ctx, running context.Context, worker int) {
	rng := rand.New(rand.NewPCG(h.load.Seed, uint64(worker)))
	for range h.load.LeasesPerWorker {
		if running.Err() != nil {
			return
		}
		token, err := h.tokens(running, worker)
		if err != nil {
			if running.Err() == nil {
				h.fail(fmt.Errorf("worker %d: taking a token: %w", worker, err))
			}
			return
		}
		for range h.load.WritesPerLease {
			if running.Err() != nil {
				return
			}
			time.Sleep(time.Duration(rng.Int64N(int64(h.load.MaxDelay) + 1)))
			if !h.writeOnce(ctx, 1+rng.IntN(h.load.Rows), token) {
				return
			}
		}
	}
}

// writeOnce performs and records one write; it reports whether the run
// goes on.
func (h *hammer) writeOnce(ctx context.Context, row int, token int64) bool {
	w := Write{Row: row, Token: token, Value: h.values.Add(1)}
	w.Start = h.clock.Add(1)
	out, err := h.write(ctx, w.Row, w.Token, w.Value)
	w.End = h.clock.Add(1)
	if err != nil {
		h.fail(fmt.Errorf("write of %d to row %d with token %d: %w", w.Value, w.Row, w.Token, err))
		return false
	}
	w.Applied, w.Current = out.Applied, out.Current
	h.mu.Lock()
	h.history = append(h.history, w)
	h.mu.Unlock()
	return true
}

// fail records the first error and stops the run.
func (h *hammer) fail(err error) {
	h.mu.Lock()
	if h.err == nil {
		h.err = err
	}
	h.mu.Unlock()
	h.stop()
}

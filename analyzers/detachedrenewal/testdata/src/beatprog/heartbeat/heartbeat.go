// Package heartbeat extends a lock through an interface of the
// application's; the implementation lives in a package this one does not
// import, and main wires them.
package heartbeat

import (
	"context"
	"log"
	"time"

	"beatprog/worker"
)

// An Extender extends a held lock.
type Extender interface {
	Extend(ctx context.Context) error
}

// A Heartbeat keeps a lock extended.
type Heartbeat struct {
	ext    Extender
	period time.Duration
	lost   chan struct{}
}

// New returns a heartbeat for ext.
func New(ext Extender) *Heartbeat {
	return &Heartbeat{ext: ext, period: 2 * time.Second, lost: make(chan struct{})}
}

// Start extends the lock until ctx ends, and only logs a failed Extend.
func (h *Heartbeat) Start(ctx context.Context) {
	worker.Start("heartbeat", func() { // want `the goroutine worker.Start starts here renews the redsync lock with Extender.Extend \(via \*redislock.Lock.Extend\) \(line 36\), but the work never hears when renewal fails`
		for ctx.Err() == nil {
			time.Sleep(h.period)
			if err := h.ext.Extend(ctx); err != nil {
				log.Printf("extend: %v", err)
			}
		}
	})
}

// StartWatched closes Lost when an Extend fails: the work selects on it.
func (h *Heartbeat) StartWatched(ctx context.Context) {
	worker.Start("heartbeat", func() {
		for ctx.Err() == nil {
			time.Sleep(h.period)
			if err := h.ext.Extend(ctx); err != nil {
				close(h.lost)
				return
			}
		}
	})
}

// Lost is closed when the lock is lost.
func (h *Heartbeat) Lost() <-chan struct{} { return h.lost }

package k8sleader

import (
	"context"
	"log"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// runAsLeader is the kind of leader helper applications keep in a util
// package: start runs inside OnStartedLeading, stop inside
// OnStoppedLeading, each wrapped in a closure.
func runAsLeader(ctx context.Context, lock resourcelock.Interface, start func(context.Context), stop func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				log.Printf("became leader")
				start(ctx)
			},
			OnStoppedLeading: func() {
				log.Printf("stopped leading")
				stop()
			},
		},
	})
}

// RunHelper hands its work to runAsLeader as func values: start's write
// runs under the lease, stop's after it is lost.
func (c *Controller) RunHelper(ctx context.Context) {
	start := func(ctx context.Context) {
		if _, err := c.db.ExecContext(ctx, `UPDATE accounts SET plan = 'standard' WHERE plan IS NULL`); err != nil { // want unfencedwrite:"without a fencing token"
			log.Printf("backfill: %v", err)
		}
	}
	stop := func() {
		if _, err := c.db.ExecContext(context.Background(), `UPDATE replicas SET leading = false WHERE id = $1`, c.identity); err != nil {
			log.Printf("step down: %v", err)
		}
	}
	runAsLeader(ctx, c.lock(), start, stop)
}

// RunForever campaigns from a goroutine that campaigns again each time
// the lease is lost (stop asks for another round); start and stop, which
// that goroutine captures, still run under the lease and after it.
func (c *Controller) RunForever(ctx context.Context) {
	start := func(ctx context.Context) {
		if _, err := c.db.ExecContext(ctx, `UPDATE accounts SET plan = 'trial' WHERE plan = ''`); err != nil { // want unfencedwrite:"without a fencing token"
			log.Printf("backfill: %v", err)
		}
	}
	again := make(chan struct{}, 1)
	stop := func() {
		if _, err := c.db.ExecContext(context.Background(), `UPDATE replicas SET leading = false WHERE id = $1`, c.identity); err != nil {
			log.Printf("step down: %v", err)
		}
		again <- struct{}{}
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-again:
				runAsLeader(ctx, c.lock(), start, stop)
			}
		}
	}()
	again <- struct{}{}
}

// Package election runs the function it is handed while this replica
// leads, as keptn's shipyard controller does.
package election

import (
	"context"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Lead runs start while the replica holds the lease.
func Lead(ctx context.Context, lock resourcelock.Interface, start func(ctx context.Context), stop func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		ReleaseOnCancel: true,
		LeaseDuration:   60 * time.Second,
		RenewDeadline:   15 * time.Second,
		RetryPeriod:     5 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { start(ctx) },
			OnStoppedLeading: stop,
		},
	})
}

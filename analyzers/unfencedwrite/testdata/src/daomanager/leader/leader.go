// Package leader is the application's leader helper.
package leader

import (
	"context"
	"log"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// RunAsLeader runs startFunc once this process is elected, and stopFunc
// when it stops leading.
func RunAsLeader(ctx context.Context, lock resourcelock.Interface, startFunc func(ctx context.Context), stopFunc func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   5 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				log.Print("became leader, starting")
				startFunc(ctx)
			},
			OnStoppedLeading: func() {
				log.Print("stopped leading")
				stopFunc()
			},
		},
	})
}

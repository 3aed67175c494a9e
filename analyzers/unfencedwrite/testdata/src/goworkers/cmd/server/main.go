// Command server leads with client-go's election and, once it leads,
// starts the event workers in a goroutine, as KubeVela's API server does.
package main

import (
	"context"
	"database/sql"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"goworkers/events"
	"goworkers/stats"
)

func run(ctx context.Context, db *sql.DB, lock resourcelock.Interface) {
	// Outside the lease: the same collector's report writes, and no finding.
	go stats.Report(ctx, db)
	errc := make(chan error, 1)
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			// Reported where the workers write, not here.
			OnStartedLeading: func(ctx context.Context) { go events.StartWorkers(ctx, db, errc) },
			OnStoppedLeading: func() {},
		},
	})
}

// report starts the report behind a leadership check: heldcheck reports
// that at the check, and the report's own package does not take it for
// work handed over under the lease.
func report(ctx context.Context, db *sql.DB, le *leaderelection.LeaderElector) {
	if le.IsLeader() {
		go stats.Report(ctx, db)
	}
}

func main() {}

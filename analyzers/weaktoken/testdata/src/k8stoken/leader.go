// Package k8stoken fences writes made as a Kubernetes leader.
package k8stoken

import (
	"context"
	"database/sql"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// run fences the leader's writes with LeaderTransitions, which does not
// move when the same identity acquires again.
func run(ctx context.Context, db *sql.DB, lock *resourcelock.LeaseLock) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				rec, _, err := lock.Get(ctx)
				if err != nil {
					return
				}
				const claim = `UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2`
				res, err := db.ExecContext(ctx, claim, rec.HolderIdentity, rec.LeaderTransitions) // want `is fenced with LeaseLock.Get\(\).LeaderTransitions \(line 28\), which is not a fencing token: LeaderTransitions does not move when the same identity re-acquires.*; use a store that issues a token with the lease`
				if err == nil {
					res.RowsAffected()
				}
			},
			OnStoppedLeading: func() {},
		},
	})
}

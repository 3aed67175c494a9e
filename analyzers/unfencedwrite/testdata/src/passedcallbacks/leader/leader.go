// Package leader runs billing's work as the elected leader and under
// app's folder lock, handing its methods over as values.
package leader

import (
	"context"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"passedcallbacks/app"
	"passedcallbacks/billing"
)

func lead(ctx context.Context, lock resourcelock.Interface, inv *billing.Invoicer) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: inv.Run, // want `Invoicer.Run \(DB.Exec \(UPDATE invoices\) at billing.go:\d+, via Invoicer.Close\) writes to SQL database without a fencing token while the Kubernetes leader election lease`
			OnStoppedLeading: func() {},
		},
	})
}

func closeFolder(inv *billing.Invoicer) error {
	return app.LockFolder("invoices", inv.Close) // want `Invoicer.Close \(DB.Exec \(UPDATE invoices\) at billing.go:\d+\) writes to SQL database without a fencing token while the bsm/redislock lock taken by Client.Obtain that LockFolder holds`
}

func countFolder(inv *billing.Invoicer) error {
	return app.LockFolder("invoices", inv.Count)
}

// closeLater hands the method to a helper that holds no lock.
func closeLater(inv *billing.Invoicer) error {
	return app.WithoutLock(inv.Close)
}

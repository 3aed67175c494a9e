// Package leaderexit is a controller manager's command: it leads with
// client-go leader election, and its controllers run on a stop channel
// that is never closed, not on the ctx OnStartedLeading receives. Whether
// that is safe depends on what happens when leadership is lost: if the
// election is the last thing the command does, the process exits and the
// controllers with it; if anything else runs first, they outlive the lease.
package leaderexit

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"
)

// NewCommand returns the manager's commands.
func NewCommand(db *sql.DB, lock resourcelock.Interface) *cobra.Command {
	root := &cobra.Command{
		Use: "manager",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := Run(db, lock); err != nil {
				return err
			}
			return nil
		},
	}
	root.AddCommand(
		&cobra.Command{Use: "exit", Run: func(*cobra.Command, []string) { runThenExit(db, lock) }},
		&cobra.Command{Use: "again", RunE: func(*cobra.Command, []string) error { return campaignAgain(db, lock) }},
		&cobra.Command{Use: "release", RunE: func(*cobra.Command, []string) error { return releasing(db, lock) }},
		&cobra.Command{Use: "drain", RunE: func(*cobra.Command, []string) error { return drainAfter(db, lock) }},
		&cobra.Command{Use: "flush", RunE: func(*cobra.Command, []string) error { return flushOnLoss(db, lock) }},
		&cobra.Command{Use: "elector", RunE: func(*cobra.Command, []string) error { return elector(db, lock) }},
	)
	return root
}

// Run leads until leadership is lost and then returns, and the command
// with it: RunOrDie returns before the lease runs out, so the process
// exits while it still holds it.
func Run(db *sql.DB, lock resourcelock.Interface) error {
	leaderelection.RunOrDie(context.TODO(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_ = controllers(db, wait.NeverStop)
			},
			OnStoppedLeading: func() {
				klog.Info("leaderelection lost")
			},
		},
	})
	return nil
}

// runThenExit exits itself once the election returns.
func runThenExit(db *sql.DB, lock resourcelock.Interface) {
	var cfg leaderelection.LeaderElectionConfig
	cfg.Lock = lock
	cfg.LeaseDuration, cfg.RenewDeadline, cfg.RetryPeriod = 15*time.Second, 10*time.Second, 2*time.Second
	cfg.Callbacks.OnStartedLeading = func(context.Context) { _ = controllers(db, wait.NeverStop) }
	leaderelection.RunOrDie(context.Background(), cfg)
	klog.Fatalf("leaderelection lost")
}

// campaignAgain runs for leadership again after losing it, and the
// controllers of the first term keep running beside the next leader's.
func campaignAgain(db *sql.DB, lock resourcelock.Interface) error {
	for {
		leaderelection.RunOrDie(context.Background(), leaderelection.LeaderElectionConfig{
			Lock:          lock,
			LeaseDuration: 15 * time.Second,
			RenewDeadline: 10 * time.Second,
			RetryPeriod:   2 * time.Second,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(ctx context.Context) { // want `OnStartedLeading never uses its ctx`
					_ = controllers(db, wait.NeverStop)
				},
				OnStoppedLeading: func() { klog.Info("leaderelection lost") },
			},
		})
	}
}

// releasing gives the lease up as RunOrDie returns (ReleaseOnCancel):
// another manager may lead at once, while this one is still running.
func releasing(db *sql.DB, lock resourcelock.Interface) error {
	leaderelection.RunOrDie(context.TODO(), leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   15 * time.Second,
		RenewDeadline:   10 * time.Second,
		RetryPeriod:     2 * time.Second,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { // want `OnStartedLeading never uses its ctx`
				_ = controllers(db, wait.NeverStop)
			},
		},
	})
	return nil
}

// drainAfter shuts its server down gracefully after the election, and the
// controllers keep writing meanwhile.
func drainAfter(db *sql.DB, lock resourcelock.Interface) error {
	srv := &http.Server{}
	var wg sync.WaitGroup
	leaderelection.RunOrDie(context.TODO(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { // want `OnStartedLeading never uses its ctx`
				wg.Add(1)
				defer wg.Done()
				_ = controllers(db, wait.NeverStop)
			},
		},
	})
	return srv.Shutdown(context.Background())
}

// flushOnLoss writes in OnStoppedLeading, which runs before RunOrDie
// returns: the process, and the controllers, outlive the renew deadline.
func flushOnLoss(db *sql.DB, lock resourcelock.Interface) error {
	leaderelection.RunOrDie(context.TODO(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { // want `OnStartedLeading never uses its ctx`
				_ = controllers(db, wait.NeverStop)
			},
			OnStoppedLeading: func() {
				db.Exec(`UPDATE managers SET leading = false`)
			},
		},
	})
	return nil
}

// elector makes the elector itself and runs it last: as Run.
func elector(db *sql.DB, lock resourcelock.Interface) error {
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_ = controllers(db, wait.NeverStop)
			},
		},
	})
	if err != nil {
		return err
	}
	le.Run(context.Background())
	return nil
}

// Lead is the same election as Run, for callers in other packages, which
// this package cannot see: it may return into a loop.
func Lead(db *sql.DB, lock resourcelock.Interface) {
	leaderelection.RunOrDie(context.TODO(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { // want `OnStartedLeading never uses its ctx`
				_ = controllers(db, wait.NeverStop)
			},
		},
	})
}

func controllers(db *sql.DB, stop <-chan struct{}) error {
	wait.Until(func() {
		db.Exec(`UPDATE clusters SET synced_at = now()`)
	}, time.Second, stop)
	return nil
}

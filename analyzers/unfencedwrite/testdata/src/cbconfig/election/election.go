// Package election wraps client-go leader election behind a config of its
// own, as services do: the callbacks are kept in Config and copied into
// LeaderCallbacks when the election runs.
package election

import (
	"context"
	"time"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Config is the service's election configuration.
type Config struct {
	Lock      resourcelock.Interface
	OnStarted func(ctx context.Context)
	OnStopped func()
	// OnReport runs on every replica, leader or not.
	OnReport func(ctx context.Context)
}

// Options nests the callbacks one struct deeper.
type Options struct {
	Name  string
	Hooks Hooks
}

// Hooks are copied into Config.
type Hooks struct {
	Lead func(ctx context.Context)
}

// Run campaigns and runs cfg.OnStarted while this replica leads.
func Run(ctx context.Context, cfg Config) {
	go cfg.OnReport(ctx)
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          cfg.Lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: cfg.OnStarted,
			OnStoppedLeading: cfg.OnStopped,
		},
	})
}

// RunOptions copies the nested hook into a Config.
func RunOptions(ctx context.Context, lock resourcelock.Interface, o *Options) {
	Run(ctx, Config{Lock: lock, OnStarted: o.Hooks.Lead, OnStopped: func() {}})
}

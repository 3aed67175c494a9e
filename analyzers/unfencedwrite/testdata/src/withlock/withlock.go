// Package withlock offers helpers that run a function under a lock; the
// function's writes are made while the lease is held.
package withlock

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"k8s.io/client-go/tools/leaderelection"
)

// Locker runs functions under named redsync mutexes.
type Locker struct{ rs *redsync.Redsync }

// WithLock runs fn while holding the named mutex.
func (l *Locker) WithLock(ctx context.Context, name string, fn func(context.Context) error) error {
	m := l.rs.NewMutex(name)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return fn(ctx)
}

// Config builds a leader election config around the leader's work.
func Config(work func(context.Context)) leaderelection.LeaderElectionConfig {
	return leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: work, OnStoppedLeading: func() {}},
	}
}

// WithNamedLock is the exported face of WithLock, as a data store's public
// helper wraps its private one in a closure of its own: the lease is named
// by the outermost helper.
func (l *Locker) WithNamedLock(ctx context.Context, name string, fn func(context.Context) error) error {
	return l.WithLock(ctx, name, func(ctx context.Context) error { return fn(ctx) })
}

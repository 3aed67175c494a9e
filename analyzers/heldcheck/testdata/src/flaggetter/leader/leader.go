// Package leader runs a Kubernetes Lease election and tells the rest of the
// service whether this replica leads through a flag its callbacks set.
package leader

import (
	"context"
	"sync"
	"sync/atomic"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// ElectorInterface is what the workers ask.
type ElectorInterface interface {
	StartLeaderElection(ctx context.Context) error
	IsLeader() bool
}

// DummyElector leads always: single-replica deployments.
type DummyElector struct{}

func (DummyElector) StartLeaderElection(context.Context) error { return nil }
func (DummyElector) IsLeader() bool                            { return true }

// Elector keeps the election's answer in isLeader, set through setLeader.
type Elector struct {
	lock     resourcelock.Interface
	mu       sync.Mutex
	isLeader bool
}

var _ ElectorInterface = &Elector{}

// IsLeader reads the flag under the mutex: the result leaves through the
// slot the deferred unlock runs before.
func (l *Elector) IsLeader() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.isLeader
}

func (l *Elector) setLeader(status bool) {
	l.isLeader = status
}

func (l *Elector) StartLeaderElection(ctx context.Context) error {
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: l.lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { l.setLeader(true) },
			OnStoppedLeading: func() { l.setLeader(false) },
		},
	})
	if err != nil {
		return err
	}
	go le.Run(ctx)
	return nil
}

// Gate keeps its answer in an atomic.Bool, set through an exported setter
// that a test also calls: the setter's callers outside the callbacks pass
// false only.
type Gate struct {
	lock    resourcelock.Interface
	leading atomic.Bool
	ready   atomic.Bool
}

func (g *Gate) Leading() bool        { return g.leading.Load() }
func (g *Gate) SetLeading(v bool)    { g.leading.Store(v) }
func (g *Gate) Ready() bool          { return g.ready.Load() }
func (g *Gate) setReady(v bool)      { g.ready.Store(v) }
func (g *Gate) Reset()               { g.SetLeading(false) }
func (g *Gate) MarkReady()           { g.setReady(true) }
func (g *Gate) leadingOrReady() bool { return g.leading.Load() || g.ready.Load() }
func (g *Gate) LeadingOrReady() bool { return g.leadingOrReady() }

func (g *Gate) Run(ctx context.Context) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: g.lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				g.SetLeading(true)
				g.setReady(true) // set at start-up too (MarkReady): says nothing of leading
			},
			OnStoppedLeading: func() { g.SetLeading(false) },
		},
	})
}

// Package constargs holds a scheduler that calls its store's helpers
// under a redsync lock with constant flags. A helper's write that the
// flag passed rules out is no write of the call (fix false, dryRun true, a
// positive TTL, no counter); the same helper called with a flag that
// reaches the write, with a flag the code computes, or one whose write
// sits on both branches, is reported.
package constargs

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"constargs/store"
)

type Scheduler struct {
	rs       *redsync.Redsync
	st       *store.Store
	statuses Statuses
	fix      bool
}

// Statuses is the status store, implemented by store.Store and
// store.Other.
type Statuses interface {
	Touch(ctx context.Context, node string, ttl int64) error
}

func (s *Scheduler) lock(ctx context.Context, node string) (func(), error) {
	m := s.rs.NewMutex("node:" + node)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return func() { m.UnlockContext(ctx) }, nil
}

// Inspect reads the node under its lock: no write is reached.
func (s *Scheduler) Inspect(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.st.Usage(ctx, node, false); err != nil {
		return err
	}
	if err := s.st.Prune(ctx, node, true); err != nil {
		return err
	}
	if err := s.st.Touch(ctx, node, 90); err != nil {
		return err
	}
	if err := s.st.Sweep(ctx, []string{node}, true); err != nil {
		return err
	}
	if err := s.st.Mode(ctx, node, "soft"); err != nil {
		return err
	}
	if err := s.st.Add(ctx, node, nil); err != nil {
		return err
	}
	if err := s.usage(ctx, node, false); err != nil {
		return err
	}
	return s.deploy(ctx, node, false)
}

// Repair reaches each write: the flags passed are the ones that write.
func (s *Scheduler) Repair(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	s.st.Usage(ctx, node, true)            // want `Store.Usage \(Set at store.go:26\) writes to Redis without a fencing token while the redsync lock`
	s.st.Prune(ctx, node, false)           // want `Store.Prune \(Del at store.go:43\) writes to Redis without a fencing token`
	s.st.Touch(ctx, node, -1)              // want `Store.Touch \(Del at store.go:53\) writes to Redis without a fencing token`
	s.st.Sweep(ctx, []string{node}, false) // want `Store.Sweep \(Del at store.go:99\) writes to Redis without a fencing token`
	s.st.Mode(ctx, node, "force")          // want `Store.Mode \(Del at store.go:119\) writes to Redis without a fencing token`
	counter := "deploys:" + node
	s.st.Add(ctx, node, &counter)    // want `Store.Add \(Decr at store.go:87, via Store.doOps\) writes to Redis without a fencing token`
	s.usage(ctx, node, true)         // want `Scheduler.usage \(Set at store.go:26, via Store.Usage\) writes to Redis without a fencing token`
	return s.deploy(ctx, node, true) // want `Scheduler.deploy \(Decr at store.go:87, via Store.doOps, via Store.Add\) writes to Redis without a fencing token`
}

// Reconcile passes flags it does not fix, or whose write is on both
// paths, or that rule out only one of two writes: each is reported.
func (s *Scheduler) Reconcile(ctx context.Context, node string, up bool) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	s.st.Usage(ctx, node, s.fix)           // want `Store.Usage \(Set at store.go:26\) writes to Redis without a fencing token`
	s.st.Prune(ctx, node, !up)             // want `Store.Prune \(Del at store.go:43\) writes to Redis without a fencing token`
	s.st.Both(ctx, node, false)            // want `Store.Both \(Set at store.go:63\) writes to Redis without a fencing token`
	s.st.Mixed(ctx, node, false)           // want `Store.Mixed \(Set at store.go:71\) writes to Redis without a fencing token`
	s.st.Update(ctx, node)                 // want `Store.Update \(Set at store.go:91, via Store.doOps\) writes to Redis without a fencing token`
	return s.statuses.Touch(ctx, node, 90) // want `Statuses.Touch \(Set at store.go:134, via \*store.Other.Touch\) writes to Redis without a fencing token`
}

// Rebuild's finding names the first write the store's Rebuild reaches
// and lists every write it can reach: those its constant flags reach, and
// the sweep its computed flag may make.
func (s *Scheduler) Rebuild(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.st.Rebuild(ctx, node) // want `Store.Rebuild \(Set at store.go:26, via Store.Usage; it reaches 3 unfenced writes: Store.Usage at store.go:141, Store.Prune at store.go:144, Store.Sweep at store.go:147\) writes to Redis without a fencing token`
}

// usage hands its flag on to the store.
func (s *Scheduler) usage(ctx context.Context, node string, fix bool) error {
	_, err := s.st.Usage(ctx, node, fix)
	return err
}

// deploy takes the deploy counter only when decr is true.
func (s *Scheduler) deploy(ctx context.Context, node string, decr bool) error {
	counter := "deploys:" + node
	processing := &counter
	if !decr {
		processing = nil
	}
	return s.st.Add(ctx, node, processing)
}

// Cordon and Evacuate drain a node under its lock. The eviction is a
// write of Drain's only for evict: Cordon's finding lists the one write
// its false reaches, Evacuate's both. Retire and Decommission reach Drain
// through drain, which hands its flag on: the constant they pass picks
// the writes their findings list.
func (s *Scheduler) Cordon(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.st.Drain(ctx, node, false) // want `Store.Drain \(Set at store.go:152\) writes to Redis without a fencing token`
}

func (s *Scheduler) Evacuate(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.st.Drain(ctx, node, true) // want `Store.Drain \(Set at store.go:152; it reaches 2 unfenced writes: Set at store.go:152, Del at store.go:156\) writes to Redis without a fencing token`
}

func (s *Scheduler) Retire(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.drain(ctx, node, false) // want `Scheduler.drain \(Set at store.go:152, via Store.Drain\) writes to Redis without a fencing token`
}

func (s *Scheduler) Decommission(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.drain(ctx, node, true) // want `Scheduler.drain \(Set at store.go:152, via Store.Drain; it reaches 2 unfenced writes: Set at store.go:152, Del at store.go:156\) writes to Redis without a fencing token`
}

// Lower reaches both of flip's writes: Both writes on either branch of
// the flag flip hands on, and its false picks the one that writes "down".
func (s *Scheduler) Lower(ctx context.Context, node string) error {
	unlock, err := s.lock(ctx, node)
	if err != nil {
		return err
	}
	defer unlock()
	return s.flip(ctx, node, false) // want `Scheduler.flip \(Set at store.go:\d+, via Store.Both; it reaches 2 unfenced writes: Set at store.go:63, Store.Prune at constargs.go:\d+\) writes to Redis without a fencing token`
}

// flip sets the node's state and prunes it.
func (s *Scheduler) flip(ctx context.Context, node string, up bool) error {
	if err := s.st.Both(ctx, node, up); err != nil {
		return err
	}
	return s.st.Prune(ctx, node, false)
}

// drain hands its flag on to the store.
func (s *Scheduler) drain(ctx context.Context, node string, evict bool) error {
	return s.st.Drain(ctx, node, evict)
}

var (
	_ Statuses = (*store.Store)(nil)
	_ Statuses = (*store.Other)(nil)
)

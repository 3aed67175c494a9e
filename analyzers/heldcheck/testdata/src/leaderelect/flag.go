package leaderelect

import (
	"context"
	"database/sql"
	"sync/atomic"

	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// controller keeps whether it leads in flags its callbacks set.
type controller struct {
	leading atomic.Bool
	active  bool
	ready   bool
	warm    bool
	primary bool
	db      *sql.DB
}

var elected bool

func (c *controller) run(ctx context.Context, lock resourcelock.Interface) {
	c.ready = true
	c.primary = true // set at start-up too: the flag does not say who leads
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				c.leading.Store(true)
				elected = true
				c.warm = true
				c.primary = true
				<-ctx.Done()
			},
			OnStoppedLeading: func() {
				c.leading.Store(false)
				elected = false
			},
		},
	})
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:      lock,
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: c.onStart, OnStoppedLeading: c.onStop},
	})
}

func (c *controller) onStart(ctx context.Context) { c.active = true }
func (c *controller) onStop()                     { c.active = false }

// atomicFlag reads the flag the callback set: a cached IsLeader.
func (c *controller) atomicFlag(ctx context.Context) {
	if c.leading.Load() { // want `the leader flag leading \(set in OnStartedLeading\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE reports\)`
		c.db.ExecContext(ctx, "UPDATE reports SET state = 'swept'")
	}
}

// fieldFlag reads a plain field a bound-method callback set.
func (c *controller) fieldFlag(ctx context.Context) error {
	if !c.active { // want `the leader flag active \(set in OnStartedLeading\) only tells .* DB.ExecContext \(DELETE reports\)`
		return nil
	}
	_, err := c.db.ExecContext(ctx, "DELETE FROM reports WHERE stale")
	return err
}

// globalFlag reads a package variable the callback set.
func (c *controller) globalFlag(ctx context.Context) {
	if elected { // want `the leader flag elected \(set in OnStartedLeading\) only tells .* DB.ExecContext \(INSERT reports\)`
		c.db.ExecContext(ctx, "INSERT INTO reports (state) VALUES ('new')")
	}
}

// readyFlag reads a flag set outside any callback: not about leadership.
func (c *controller) readyFlag(ctx context.Context) {
	if c.ready {
		c.db.ExecContext(ctx, "UPDATE reports SET state = 'ready'")
	}
}

// warmFlag reads a flag the callback sets whose name says nothing of
// leading (a cache warmed by the leader).
func (c *controller) warmFlag(ctx context.Context) {
	if c.warm {
		c.db.ExecContext(ctx, "UPDATE reports SET cached = true")
	}
}

// primaryFlag reads a flag set outside the callback too.
func (c *controller) primaryFlag(ctx context.Context) {
	if c.primary {
		c.db.ExecContext(ctx, "UPDATE reports SET primary_seen = true")
	}
}

// intController keeps its flags as integers, as code written before
// atomic.Bool does: raised with atomic.StoreInt32(&f, 1) or an
// atomic.Int64's Store(1), and read with atomic.LoadInt32(&f) == 1.
type intController struct {
	leading  int32
	elected  atomic.Int64
	masterID uint64 // the ID of whoever leads: not a flag
	db       *sql.DB
}

func (c *intController) run(ctx context.Context, lock resourcelock.Interface, id uint64) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				atomic.StoreInt32(&c.leading, 1)
				c.elected.Store(1)
				atomic.StoreUint64(&c.masterID, id)
				<-ctx.Done()
			},
			OnStoppedLeading: func() {
				atomic.StoreInt32(&c.leading, 0)
				c.elected.Store(0)
			},
		},
	})
}

func (c *intController) IsElected() bool { return c.elected.Load() != 0 }

// sweep reads the integer flag the callback raised: a cached IsLeader.
func (c *intController) sweep(ctx context.Context) {
	if atomic.LoadInt32(&c.leading) == 1 { // want `the leader flag leading \(set in OnStartedLeading\) only tells .* DB.ExecContext \(UPDATE reports\)`
		c.db.ExecContext(ctx, "UPDATE reports SET state = 'swept'")
	}
}

// compact returns early when the flag is down, and writes after.
func (c *intController) compact(ctx context.Context) error {
	if atomic.LoadInt32(&c.leading) == 0 { // want `the leader flag leading \(set in OnStartedLeading\) only tells .* DB.ExecContext \(DELETE reports\)`
		return nil
	}
	_, err := c.db.ExecContext(ctx, "DELETE FROM reports WHERE stale")
	return err
}

// archive asks through a getter of the atomic.Int64 flag.
func (c *intController) archive(ctx context.Context) {
	if c.IsElected() { // want `IsElected \(which returns the leader flag elected, set in OnStartedLeading\) only tells .* DB.ExecContext \(UPDATE reports\)`
		c.db.ExecContext(ctx, "UPDATE reports SET state = 'archived'")
	}
}

// report compares the leader's ID, stored from a variable, with its own:
// no flag raised to a constant.
func (c *intController) report(ctx context.Context, self uint64) {
	if atomic.LoadUint64(&c.masterID) == 1 {
		c.db.ExecContext(ctx, "UPDATE reports SET state = 'reported'")
	}
}

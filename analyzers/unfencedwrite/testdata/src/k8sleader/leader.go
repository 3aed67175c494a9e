// Package k8sleader is a controller that does its work as the elected
// leader of a Kubernetes Lease.
package k8sleader

import (
	"context"
	"database/sql"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

type controller struct {
	db   *sql.DB
	pool *pgxpool.Pool
}

// run elects a leader; the leader's work writes without a token.
func (c *controller) run(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				c.db.ExecContext(ctx, `UPDATE jobs SET owner = 'me' WHERE owner IS NULL`) // want `DB.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\) \(line 28\) is held`
				c.sweep(ctx)                                                              // want `controller.sweep \(Pool.Exec \(DELETE leases\) at leader.go:\d+\) writes to PostgreSQL without a fencing token`
				c.prune(ctx)
			},
			OnStoppedLeading: func() {},
		},
	})
}

// sweep writes through pgx; on its own it holds no lease (Cleanup calls it
// too), so it is quiet here and reported where the leader calls it.
func (c *controller) sweep(ctx context.Context) {
	c.pool.Exec(ctx, `DELETE FROM leases WHERE released`)
}

// Cleanup sweeps on an operator's request, as no leader.
func (c *controller) Cleanup(ctx context.Context) {
	c.sweep(ctx)
}

// prune runs only where the leader calls it: all of it runs under the
// lease, and its write is reported here, where it is fixed.
func (c *controller) prune(ctx context.Context) {
	c.pool.Exec(ctx, `DELETE FROM leases WHERE expired`) // want `Pool.Exec \(DELETE leases\) writes to PostgreSQL without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\) \(line 28, in controller.run, under which every call of controller.prune is made\) is held`
}

// reader only reads as the leader.
func (c *controller) reader(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				var n int
				_ = c.db.QueryRowContext(ctx, `SELECT count(*) FROM jobs`).Scan(&n)
			},
			OnStoppedLeading: func() {},
		},
	})
}

// runAsLeader is an application's own leader helper: it wraps start in
// OnStartedLeading, so start runs while the lease is held, and stop in
// OnStoppedLeading, after the lease is gone.
func runAsLeader(ctx context.Context, lock resourcelock.Interface, start func(context.Context), stop func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { start(ctx) },
			OnStoppedLeading: func() { stop() },
		},
	})
}

// syncVolumeTypes hands its work to the helper as a func value: the work
// writes under the lease, the stop func does not.
func (c *controller) syncVolumeTypes(ctx context.Context, lock resourcelock.Interface) {
	start := func(ctx context.Context) {
		c.db.ExecContext(ctx, `UPDATE volume_types SET provisioner = 'csi' WHERE name = 'local'`) // want `DB.ExecContext \(UPDATE volume_types\) writes to SQL database without a fencing token`
	}
	runAsLeader(ctx, lock, start, func() {
		c.db.ExecContext(context.Background(), `UPDATE workers SET leading = false WHERE id = 1`)
	})
}

// campaignForever hands its work to the helper from a goroutine that
// campaigns again each time the lease is lost: start, captured by that
// goroutine, still runs under the lease the helper's callback holds; stop,
// captured the same way, runs after it is lost.
func (c *controller) campaignForever(ctx context.Context, lock resourcelock.Interface) {
	start := func(ctx context.Context) {
		c.db.ExecContext(ctx, `UPDATE volume_types SET enable = true WHERE name = 'csi'`) // want `DB.ExecContext \(UPDATE volume_types\) writes to SQL database without a fencing token`
	}
	again := make(chan struct{}, 1)
	stop := func() {
		c.db.ExecContext(context.Background(), `UPDATE workers SET leading = false WHERE id = 2`)
		again <- struct{}{}
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-again:
				runAsLeader(ctx, lock, start, stop)
			}
		}
	}()
	again <- struct{}{}
}

// campaignOnce runs a cleanup captured the same way after the helper
// returns, when the election is over: it holds no lease.
func (c *controller) campaignOnce(ctx context.Context, lock resourcelock.Interface) {
	work := func(ctx context.Context) {
		var n int
		_ = c.db.QueryRowContext(ctx, `SELECT count(*) FROM volume_types`).Scan(&n)
	}
	cleanup := func() {
		c.db.ExecContext(context.Background(), `UPDATE workers SET leading = false WHERE id = 3`)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runAsLeader(ctx, lock, work, func() {})
		cleanup()
	}()
	<-done
}

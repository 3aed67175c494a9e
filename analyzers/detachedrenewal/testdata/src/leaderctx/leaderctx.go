// Package leaderctx runs a controller while it leads, with client-go
// leader election.
package leaderctx

import (
	"context"
	"database/sql"
	"log"
	"sync"
	"sync/atomic"

	"k8s.io/client-go/tools/leaderelection"
)

type controller struct {
	db *sql.DB
}

// reconcile writes until ctx is cancelled.
func (c *controller) reconcile(ctx context.Context) {
	for ctx.Err() == nil {
		c.db.ExecContext(ctx, `UPDATE status SET beat = now()`)
	}
}

// background starts the work on a context that is never cancelled.
func (c *controller) background(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(ctx context.Context) { // want `the work in OnStartedLeading runs on context.Background\(\) \(line 30\), not on the callback's ctx, so it never hears that leadership is lost and keeps running after another leader starts; pass the callback's ctx, which is cancelled when the lease is lost`
			c.reconcile(context.Background())
		},
		OnStoppedLeading: func() { log.Print("stopped leading") },
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// todoInClosure hides context.TODO() in a goroutine the callback starts.
func (c *controller) todoInClosure(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = func(leading context.Context) { // want `the work in OnStartedLeading runs on context.TODO\(\)`
		go func() {
			c.reconcile(context.TODO())
		}()
		<-leading.Done()
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// outerCtx ignores the callback's ctx and runs on the caller's.
func (c *controller) outerCtx(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(context.Context) { // want `OnStartedLeading never uses its ctx, which is cancelled when leadership is lost, so the work it starts never hears of it and keeps running after another leader starts; run the work on the callback's ctx`
			c.reconcile(ctx)
		},
		OnStoppedLeading: func() {},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// shadowed: a local named like the parameter hides it where Background is
// called, so no fix is offered.
func (c *controller) shadowed(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = func(ctx context.Context) { // want `runs on context.Background\(\)`
		for _, ctx := range []string{"a"} {
			log.Print(ctx)
			c.reconcile(context.Background())
		}
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// usesCtx is correct: the work stops when leadership is lost.
func (c *controller) usesCtx(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(ctx context.Context) { c.reconcile(ctx) },
		OnStoppedLeading: func() {},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// methodValue installs a method that runs on the ctx it is given.
func (c *controller) methodValue(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: c.reconcile,
		OnStoppedLeading: func() {},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// logsOnly does no work while leading.
func (c *controller) logsOnly(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(context.Context) { log.Print("leading") },
		OnStoppedLeading: func() {},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// bridged runs on context.Background() but cancels it when the callback's
// ctx is done: the work hears of the lost lease.
func (c *controller) bridged(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = func(leading context.Context) {
		work, cancel := context.WithCancel(context.Background())
		go func() {
			<-leading.Done()
			cancel()
		}()
		c.reconcile(work)
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// afterFunc relays the cancellation with context.AfterFunc.
func (c *controller) afterFunc(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = func(leading context.Context) {
		work, cancel := context.WithCancel(context.TODO())
		stop := context.AfterFunc(leading, cancel)
		defer stop()
		c.reconcile(work)
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// cleanup uses context.Background() only on the way out, for a shutdown
// that must not be cut short by the lost lease.
func (c *controller) cleanup(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = func(leading context.Context) {
		defer c.flush(context.Background())
		defer func() {
			c.flush(context.TODO())
		}()
		c.reconcile(leading)
	}
	leaderelection.RunOrDie(ctx, cfg)
}

func (c *controller) flush(ctx context.Context) {
	c.db.ExecContext(ctx, `UPDATE status SET flushed = now()`)
}

// runner is work that stops when its stop channel is closed.
type runner struct {
	db   *sql.DB
	stop chan struct{}
	wg   sync.WaitGroup
}

func (r *runner) loop(stop <-chan struct{}) {
	defer r.wg.Done()
	for {
		select {
		case <-stop:
			return
		default:
			r.db.Exec(`UPDATE status SET beat = now()`)
		}
	}
}

// stoppedAndAwaited ignores the callback's ctx, but OnStoppedLeading closes
// the work's stop channel and waits for it to return: the lost signal
// reaches the work, and nothing is in flight once it returns.
func (r *runner) stoppedAndAwaited(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(context.Context) {
			r.stop = make(chan struct{})
			r.wg.Add(1)
			go r.loop(r.stop)
		},
		OnStoppedLeading: func() {
			close(r.stop)
			r.wg.Wait()
		},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// stoppedByMethods installs methods, field by field; OnStoppedLeading
// cancels the work's context and waits in a helper.
func (r *runner) stoppedByMethods(ctx context.Context, cfg *leaderelection.LeaderElectionConfig) {
	cfg.Callbacks.OnStartedLeading = r.startWork
	cfg.Callbacks.OnStoppedLeading = r.stopWork
	leaderelection.RunOrDie(ctx, *cfg)
}

var cancelWork context.CancelFunc

func (r *runner) startWork(context.Context) {
	var work context.Context
	work, cancelWork = context.WithCancel(context.Background())
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for work.Err() == nil {
			r.db.Exec(`UPDATE status SET beat = now()`)
		}
	}()
}

func (r *runner) stopWork() {
	cancelWork()
	r.drain()
}

func (r *runner) drain() { r.wg.Wait() }

// stoppedNotAwaited cancels the work when leadership is lost but returns at
// once: a write the work has started still lands.
func (r *runner) stoppedNotAwaited(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	var cancel context.CancelFunc
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(context.Context) { // want `OnStoppedLeading stops the work OnStartedLeading starts when leadership is lost, but does not wait for it to return, so a write already in flight lands after another leader starts; wait in OnStoppedLeading until the work has returned \(a sync.WaitGroup the work marks Done\)`
			var work context.Context
			work, cancel = context.WithCancel(context.Background())
			go r.loop(work.Done())
		},
		OnStoppedLeading: func() { cancel() },
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// flagged waits on its ctx and keeps a leader flag that OnStoppedLeading
// clears: the callback hears of the loss itself.
func (r *runner) flagged(ctx context.Context, cfg leaderelection.LeaderElectionConfig, leading *atomic.Bool) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(ctx context.Context) {
			leading.Store(true)
			<-ctx.Done()
		},
		OnStoppedLeading: func() { leading.Store(false) },
	}
	leaderelection.RunOrDie(ctx, cfg)
}

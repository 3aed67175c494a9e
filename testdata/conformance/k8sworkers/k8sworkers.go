// Package k8sworkers is a Kubernetes controller built the usual way: the
// elected leader (client-go leaderelection) starts workers with
// k8s.io/apimachinery's wait package, informer event handlers fill a
// workqueue, and the workers drain it into Postgres. The workers run under
// the leader's lease, so what they write is written under it; a queue
// drained by workers started before the election is not.
package k8sworkers

import (
	"context"
	"database/sql"
	"time"

	"github.com/sourcegraph/conc/pool"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/util/workqueue"
)

// Controller copies the objects an informer sees into the objects table.
type Controller struct {
	db       *sql.DB
	informer cache.SharedIndexInformer
	queue    workqueue.TypedRateLimitingInterface[string]
}

func New(db *sql.DB, informer cache.SharedIndexInformer) *Controller {
	c := &Controller{
		db:       db,
		informer: informer,
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	// Registered before the election: the handlers only enqueue.
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj any) { c.enqueue(obj) },
		DeleteFunc: c.enqueue,
	})
	return c
}

func (c *Controller) enqueue(obj any) {
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// worker drains the queue; sync writes each object keyed only by name.
func (c *Controller) worker(ctx context.Context) {
	for c.processNext(ctx) {
	}
}

func (c *Controller) processNext(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *Controller) sync(ctx context.Context, key string) error {
	_, err := c.db.ExecContext(ctx, `UPDATE objects SET synced_at = now() WHERE key = $1`, key)
	return err
}

// audit records a deleted object; as an informer handler it writes itself.
func (c *Controller) audit(obj any) {
	key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	c.db.Exec(`DELETE FROM objects WHERE key = $1`, key)
}

// tombstones is an informer handler type of the application's: its
// OnDelete writes.
type tombstones struct{ db *sql.DB }

func (t tombstones) OnAdd(obj any, isInInitialList bool) {}
func (t tombstones) OnUpdate(oldObj, newObj any)         {}
func (t tombstones) OnDelete(obj any) {
	key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	t.db.Exec(`UPDATE objects SET state = 'gone' WHERE key = $1`, key)
}

// compact runs as a conc pool task.
func (c *Controller) compact() {
	c.db.Exec(`DELETE FROM objects WHERE tombstone`)
}

// Run is the leader's work: it stops on the leader's ctx, which fences
// nothing (a leader paused past its lease writes before it looks again).
func (c *Controller) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	go c.informer.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), c.informer.HasSynced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, c.worker, time.Second)
	}
	<-ctx.Done()
}

// Lead runs the controller as the elected leader.
func (c *Controller) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_, _ = c.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: c.audit}) // want unfencedwrite:"SharedInformer.AddEventHandler\\(Controller.audit\\) .* without a fencing token while the Kubernetes leader election lease"
				_, _ = c.informer.AddEventHandlerWithResyncPeriod(tombstones{c.db}, time.Minute)        // want unfencedwrite:"SharedInformer.AddEventHandlerWithResyncPeriod\\(tombstones.OnDelete\\) .* without a fencing token"
				p := pool.New()
				p.Go(c.compact) // want unfencedwrite:"Pool.Go\\(Controller.compact\\) .* without a fencing token"
				p.Wait()
				c.Run(ctx, 2) // want unfencedwrite:"Controller.Run .*wait.UntilWithContext\\(Controller.worker\\).* without a fencing token while the Kubernetes leader election lease"
			},
			OnStoppedLeading: func() {},
		},
	})
}

// Replica drains its queue with workers started when it is made, on every
// replica, leader or not: the leader only fills the queue, so its callback
// writes nothing under the lease.
type Replica struct {
	db    *sql.DB
	queue workqueue.TypedInterface[string]
}

func NewReplica(db *sql.DB, stop <-chan struct{}) *Replica {
	r := &Replica{db: db, queue: workqueue.NewTyped[string]()}
	var g wait.Group
	g.StartWithChannel(stop, r.drain)
	return r
}

func (r *Replica) drain(stop <-chan struct{}) {
	for {
		key, shutdown := r.queue.Get()
		if shutdown {
			return
		}
		r.db.Exec(`UPDATE objects SET seen = true WHERE key = $1`, key)
		r.queue.Done(key)
	}
}

func (r *Replica) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				r.queue.Add("leader")
				<-ctx.Done()
			},
			OnStoppedLeading: func() {},
		},
	})
}

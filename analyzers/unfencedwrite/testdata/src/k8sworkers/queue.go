package k8sworkers

import (
	"context"
	"database/sql"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// TenantController is built as minio-operator's: each worker hands its
// sync handler, a method value, to processNextItem, which calls it from a
// func literal it runs itself. The handler runs under the leader's lease
// all the same.
type TenantController struct {
	db       *sql.DB
	queue    chan string
	handlers map[string]func(key string) error
}

func (c *TenantController) runWorker() {
	for processNextItem(c.queue, c.syncHandler) {
	}
}

func processNextItem(queue chan string, syncer func(key string) error) bool {
	key, ok := <-queue
	if !ok {
		return false
	}
	processItem := func(key string) error {
		return syncer(key)
	}
	_ = processItem(key)
	return true
}

// syncHandler rewrites the tenant's status from what the worker read: a
// leader paused past its lease overwrites its successor's status.
func (c *TenantController) syncHandler(key string) error {
	_, err := c.db.Exec(`UPDATE tenants SET status = 'ready' WHERE name = $1`, key)
	return err
}

// register keeps the handler for later; it runs none of it now.
func (c *TenantController) register(name string, h func(key string) error) {
	c.handlers[name] = h
}

// deferred builds a func that would call the handler, and returns it
// uncalled.
func deferred(h func(key string) error) func() error {
	return func() error { return h("later") }
}

func (c *TenantController) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				c.register("status", c.syncHandler)
				_ = deferred(c.syncHandler)
				go wait.Until(c.runWorker, time.Second, ctx.Done()) // want `wait.Until\(TenantController.runWorker\) \(DB.Exec \(UPDATE tenants\) at queue.go:\d+, via k8sworkers.processNextItem\(TenantController.syncHandler\)\) writes to SQL database without a fencing token`
				<-ctx.Done()
			},
			OnStoppedLeading: func() {},
		},
	})
}

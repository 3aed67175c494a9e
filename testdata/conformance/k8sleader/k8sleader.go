// Package k8sleader holds a controller that runs only on the Kubernetes
// leader (client-go tools/leaderelection) and writes its results to
// Postgres.
package k8sleader

import (
	"context"
	"database/sql"
	"log"
	"net/http"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Controller reconciles billing accounts on the leader replica only.
type Controller struct {
	leases   coordinationv1client.LeasesGetter
	db       *sql.DB
	identity string
}

func (c *Controller) lock() *resourcelock.LeaseLock {
	return &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: "billing-controller", Namespace: "billing"},
		Client:     c.leases,
		LockConfig: resourcelock.ResourceLockConfig{Identity: c.identity},
	}
}

func (c *Controller) config(onStart func(context.Context)) leaderelection.LeaderElectionConfig {
	return leaderelection.LeaderElectionConfig{
		Lock:            c.lock(),
		LeaseDuration:   15 * time.Second,
		RenewDeadline:   10 * time.Second,
		RetryPeriod:     2 * time.Second,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: onStart,
			OnStoppedLeading: func() { log.Printf("%s: stopped leading", c.identity) },
		},
	}
}

// RunDetached starts the loop with a fresh context, so losing leadership
// never stops it, and its writes carry no token.
func (c *Controller) RunDetached(ctx context.Context) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          c.lock(),
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { // want detachedrenewal:"never hears"
				for {
					if err := c.reconcileOnce(context.Background()); err != nil { // want unfencedwrite:"without a fencing token"
						log.Printf("reconcile: %v", err)
					}
					time.Sleep(5 * time.Second)
				}
			},
			OnStoppedLeading: func() { log.Printf("%s: stopped leading", c.identity) },
		},
	})
}

// RunAttached stops with the leading context, but the writes still carry
// no token: a leader paused past its lease writes after the next one.
func (c *Controller) RunAttached(ctx context.Context) {
	le, err := leaderelection.NewLeaderElector(c.config(func(ctx context.Context) {
		for ctx.Err() == nil {
			if _, err := c.db.ExecContext(ctx, `UPDATE accounts SET reconciled_at = now() WHERE reconciled_at < now() - interval '1 hour'`); err != nil { // want unfencedwrite:"without a fencing token"
				log.Printf("reconcile: %v", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	if err != nil {
		log.Fatal(err)
	}
	le.Run(ctx)
}

// RunWithTransitionsFence fences with LeaderTransitions, which does not
// move when the same identity re-acquires and restarts when the Lease is
// recreated.
func (c *Controller) RunWithTransitionsFence(ctx context.Context) {
	lock := c.lock()
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				rec, _, err := lock.Get(ctx)
				if err != nil {
					return
				}
				res, err := c.db.ExecContext(ctx, `UPDATE controller_state SET epoch = $1 WHERE name = 'billing' AND epoch < $1`, rec.LeaderTransitions) // want weaktoken:"is not a fencing token"
				if err != nil {
					return
				}
				if n, _ := res.RowsAffected(); n != 1 {
					log.Printf("stale leader")
				}
			},
			OnStoppedLeading: func() {},
		},
	})
}

// Handler serves an admin endpoint that writes only on the leader; the
// cached IsLeader can be stale by a whole lease.
type Handler struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.le.IsLeader() { // want heldcheck:"only tells that the lease was held"
		http.Error(w, "not the leader", http.StatusServiceUnavailable)
		return
	}
	if _, err := h.db.ExecContext(r.Context(), `DELETE FROM pending_invoices WHERE state = 'draft'`); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Healthz reports leadership for probes and metrics only.
func (h *Handler) Healthz(w http.ResponseWriter, r *http.Request) {
	if h.le.IsLeader() {
		w.Header().Set("X-Leader", "true")
		log.Printf("healthz: leader %s", h.le.GetLeader())
	}
	if err := h.le.Check(2 * time.Second); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (c *Controller) reconcileOnce(ctx context.Context) error {
	rows, err := c.db.QueryContext(ctx, `SELECT id FROM accounts WHERE reconciled_at IS NULL LIMIT 100`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if _, err := c.db.ExecContext(ctx, `UPDATE accounts SET reconciled_at = now() WHERE id = $1`, id); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Worker runs a loop that stops on its own stop channel, as controllers
// written before contexts do.
type Worker struct {
	c    *Controller
	stop chan struct{}
	done sync.WaitGroup
}

func (w *Worker) loop(stop <-chan struct{}) {
	defer w.done.Done()
	for {
		select {
		case <-stop:
			return
		case <-time.After(5 * time.Second):
			if err := w.c.reconcileOnce(context.Background()); err != nil {
				log.Printf("reconcile: %v", err)
			}
		}
	}
}

// RunStopChannel ignores OnStartedLeading's ctx, but OnStoppedLeading
// closes the loop's stop channel and waits for it: the loop hears of the
// loss and has returned when OnStoppedLeading does.
func (w *Worker) RunStopChannel(ctx context.Context) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          w.c.lock(),
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				w.stop = make(chan struct{})
				w.done.Add(1)
				go w.loop(w.stop) // want unfencedwrite:"without a fencing token"
			},
			OnStoppedLeading: func() {
				close(w.stop)
				w.done.Wait()
			},
		},
	})
}

// RunStopNoWait closes the stop channel but returns at once: a reconcile
// already running still writes after another replica leads.
func (w *Worker) RunStopNoWait(ctx context.Context) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          w.c.lock(),
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { // want detachedrenewal:"does not wait for it to return"
				w.stop = make(chan struct{})
				w.done.Add(1)
				go w.loop(w.stop) // want unfencedwrite:"without a fencing token"
			},
			OnStoppedLeading: func() { close(w.stop) },
		},
	})
}

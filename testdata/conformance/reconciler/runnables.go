package reconciler

import (
	"context"
	"database/sql"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Operators run periodic jobs next to their reconcilers by handing the
// manager a Runnable: it starts them once it leads, unless the runnable's
// NeedLeaderElection says false.

// AddJobs registers the operator's background jobs with the manager.
func AddJobs(mgr ctrl.Manager, db *sql.DB) error {
	// A func adapted to Runnable: started only on the leader.
	if err := mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE quotas SET cpu = default_cpu WHERE cpu IS NULL`) // want unfencedwrite:"controller-runtime manager that starts this runnable, registered by Manager.Add"
		return err
	})); err != nil {
		return err
	}
	if err := mgr.Add(&quotaSweeper{db: db}); err != nil {
		return err
	}
	if err := mgr.Add(&leaderReporter{db: db}); err != nil {
		return err
	}
	return mgr.Add(&usageExporter{db: db})
}

// quotaSweeper resets quotas of namespaces that are gone, every minute. It
// says nothing about leader election, so the manager starts it only on the
// leader: a leader paused past the lease resets a quota the next leader has
// just set for a namespace made again under the same name.
type quotaSweeper struct{ db *sql.DB }

func (s *quotaSweeper) Start(ctx context.Context) error {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if _, err := s.db.ExecContext(ctx, `UPDATE quotas SET cpu = NULL WHERE namespace NOT IN (SELECT name FROM namespaces)`); err != nil { // want unfencedwrite:"starts this runnable"
				return err
			}
		}
	}
}

// leaderReporter asks for leader election in so many words: it records the
// leader's address, which a stale leader overwrites.
type leaderReporter struct{ db *sql.DB }

func (r *leaderReporter) NeedLeaderElection() bool { return true }

func (r *leaderReporter) Start(ctx context.Context) error {
	_, err := r.db.ExecContext(ctx, `UPDATE operator SET leader_addr = $1`, "10.0.0.7:8443") // want unfencedwrite:"starts this runnable"
	return err
}

// usageExporter runs on every replica (NeedLeaderElection is false): it
// holds no lease, and its write is not a stale leader's: quiet.
type usageExporter struct{ db *sql.DB }

func (e *usageExporter) NeedLeaderElection() bool { return false }

func (e *usageExporter) Start(ctx context.Context) error {
	_, err := e.db.ExecContext(ctx, `UPDATE replicas SET seen_at = now() WHERE host = $1`, "replica-0")
	return err
}

// ArchiveReconciler is registered with controller.New, as operators written
// before the builder do.
type ArchiveReconciler struct {
	client.Client
	DB *sql.DB
}

// AddArchiveController registers the archive controller: the manager runs
// it only on the leader.
func AddArchiveController(mgr manager.Manager, db *sql.DB) error {
	_, err := controller.New("archive", mgr, controller.Options{
		Reconciler: &ArchiveReconciler{Client: mgr.GetClient(), DB: db},
	})
	return err
}

// Reconcile marks the namespace's rows archived with a plain UPDATE; a
// stale leader archives a namespace made again since.
func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, err := r.DB.ExecContext(ctx, `UPDATE quotas SET archived = $1 WHERE namespace = $2`, ns.DeletionTimestamp != nil, ns.Name) // want unfencedwrite:"controller-runtime manager that runs this reconciler, registered in controller.TypedOptions.Reconciler"
	return ctrl.Result{}, err
}

// CacheReconciler warms a per-replica cache table on every replica
// (NeedLeaderElection is false): no lease, quiet.
type CacheReconciler struct {
	client.Client
	DB *sql.DB
}

func AddCacheController(mgr manager.Manager, db *sql.DB) error {
	everywhere := false
	_, err := controller.New("cache", mgr, controller.Options{
		Reconciler:         &CacheReconciler{Client: mgr.GetClient(), DB: db},
		NeedLeaderElection: &everywhere,
	})
	return err
}

func (r *CacheReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_, err := r.DB.ExecContext(ctx, `UPDATE replica_cache SET stale = true WHERE namespace = $1`, req.Name)
	return ctrl.Result{}, err
}

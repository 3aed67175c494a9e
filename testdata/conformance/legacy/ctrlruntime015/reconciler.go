// Package ctrlruntime015 is the reconciler case against controller-runtime
// before 0.19, whose builder is the struct Builder (later an alias of
// TypedBuilder): the manager still calls Reconcile only while it leads.
package ctrlruntime015

import (
	"context"
	"database/sql"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// QuotaReconciler keeps each namespace's quota row in PostgreSQL in step
// with the namespace's labels.
type QuotaReconciler struct {
	client.Client
	DB *sql.DB
}

// SetupWithManager registers the reconciler with the manager.
func (r *QuotaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Namespace{}).
		Complete(r)
}

// Reconcile writes the quota with a plain UPDATE: a leader paused past the
// lease overwrites the quota the next leader wrote.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, err := r.DB.ExecContext(ctx, `UPDATE quotas SET cpu = $1 WHERE namespace = $2`, ns.Labels["quota/cpu"], ns.Name) // want unfencedwrite:"controller-runtime manager that runs this reconciler, registered by Builder.Complete"
	return ctrl.Result{}, err
}

// Reset is reconcile logic that no manager runs: quiet.
func (r *QuotaReconciler) Reset(ctx context.Context) error {
	_, err := r.DB.ExecContext(ctx, `UPDATE quotas SET cpu = NULL`)
	return err
}

// ArchiveReconciler is registered with controller.New, whose Options is a
// struct of its own before 0.19.
type ArchiveReconciler struct {
	client.Client
	DB *sql.DB
}

// AddArchiveController registers the archive controller with the manager,
// which runs it only on the leader.
func AddArchiveController(mgr manager.Manager, db *sql.DB) error {
	_, err := controller.New("archive", mgr, controller.Options{
		Reconciler: &ArchiveReconciler{Client: mgr.GetClient(), DB: db},
	})
	return err
}

// Reconcile marks the namespace archived with a plain UPDATE.
func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_, err := r.DB.ExecContext(ctx, `UPDATE quotas SET archived = true WHERE namespace = $1`, req.Name) // want unfencedwrite:"registered in controller.Options.Reconciler"
	return ctrl.Result{}, err
}

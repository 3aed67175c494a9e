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

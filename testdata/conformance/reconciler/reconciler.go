// Package reconciler is a controller-runtime operator whose manager runs
// with leader election on (main passes ctrl.Options{LeaderElection: true}):
// the manager calls each reconciler's Reconcile only while it leads, so a
// Reconcile runs under the Kubernetes lease, and a leader paused past the
// lease still finishes what it had started.
package reconciler

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

// Reconcile writes the quota the labels ask for with a plain UPDATE: a
// leader paused past the lease overwrites the quota the next leader wrote
// from newer labels. Its update of the namespace it read carries the
// object's resourceVersion: a compare-and-set, quiet.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.DB.ExecContext(ctx, `UPDATE quotas SET cpu = $1 WHERE namespace = $2`, ns.Labels["quota/cpu"], ns.Name); err != nil { // want unfencedwrite:"controller-runtime manager that runs this reconciler"
		return ctrl.Result{}, err
	}
	if ns.Annotations == nil {
		ns.Annotations = map[string]string{}
	}
	ns.Annotations["quota/synced"] = "true"
	return ctrl.Result{}, r.Update(ctx, &ns)
}

// LabelReconciler is registered with a builder kept in a variable, as
// operators that add watches conditionally do.
type LabelReconciler struct {
	client.Client
	DB *sql.DB
}

func (r *LabelReconciler) SetupWithManager(mgr ctrl.Manager, secrets bool) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{})
	if secrets {
		b = b.Owns(&corev1.Secret{})
	}
	return b.Complete(r)
}

// Reconcile updates only the object it read: a compare-and-set on its
// resourceVersion, quiet.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["reconciled"] = "true"
	return ctrl.Result{}, r.Update(ctx, &cm)
}

// Reset is reconcile logic that no manager runs (an admin command calls
// it): quiet.
func (r *LabelReconciler) Reset(ctx context.Context) error {
	_, err := r.DB.ExecContext(ctx, `UPDATE quotas SET cpu = NULL`)
	return err
}

// Package kooper runs a kooper controller (v2.4.0, built with client-go
// 0.27) under client-go leader election, as spotahome's redis-operator
// does: its handler runs only while the controller leads.
package kooper

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/spotahome/kooper/v2/controller"
	"github.com/spotahome/kooper/v2/controller/leaderelection"
	"github.com/spotahome/kooper/v2/log"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// ReplicaHandler records which pod is each cluster's master.
type ReplicaHandler struct {
	db *sql.DB
}

// Handle writes the master the leader saw: a replica paused past the lease
// overwrites the next leader's choice.
func (h *ReplicaHandler) Handle(ctx context.Context, obj runtime.Object) error {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("not a pod: %T", obj)
	}
	_, err := h.db.ExecContext(ctx, `UPDATE clusters SET master = $1 WHERE name = $2`, pod.Status.PodIP, pod.Labels["cluster"]) // want unfencedwrite:"without a fencing token while the Kubernetes leader election lease that controller.Config.LeaderElector takes"
	return err
}

// New builds the controller; it leads through a Lease in namespace ns.
func New(db *sql.DB, cli kubernetes.Interface, lw cache.ListerWatcher, ns string) (controller.Controller, error) {
	le, err := leaderelection.NewDefault("replicas", ns, cli, log.Dummy)
	if err != nil {
		return nil, err
	}
	return controller.New(&controller.Config{
		Handler:       &ReplicaHandler{db: db},
		Retriever:     controller.MustRetrieverFromListerWatcher(lw),
		LeaderElector: le,
		Logger:        log.Dummy,
		Name:          "replicas",
	})
}

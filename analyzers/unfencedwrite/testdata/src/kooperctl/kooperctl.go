// Package kooperctl runs kooper controllers: one under client-go leader
// election (its config names a LeaderElector), one on every replica.
package kooperctl

import (
	"context"
	"database/sql"

	"github.com/spotahome/kooper/v2/controller"
	"github.com/spotahome/kooper/v2/controller/leaderelection"
	"github.com/spotahome/kooper/v2/log"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
)

// FailoverHandler records each failover's chosen master.
type FailoverHandler struct {
	db *sql.DB
}

func NewFailoverHandler(db *sql.DB) *FailoverHandler {
	return &FailoverHandler{db: db}
}

// Handle runs only while the controller leads: a replica paused past the
// lease overwrites the master the next leader chose.
func (h *FailoverHandler) Handle(ctx context.Context, obj runtime.Object) error {
	_, err := h.db.ExecContext(ctx, `UPDATE failovers SET master = $1 WHERE name = $2`, "10.0.0.7", "main") // want `ExecContext \(UPDATE failovers\) writes to SQL database without a fencing token while the Kubernetes leader election lease that controller.Config.LeaderElector takes \(line 39\) is held`
	return err
}

// NewFailoverController runs the handler under leader election.
func NewFailoverController(db *sql.DB, cli kubernetes.Interface, logger log.Logger) (controller.Controller, error) {
	le, err := leaderelection.NewDefault("redisfailover", "default", cli, logger)
	if err != nil {
		return nil, err
	}
	return controller.New(&controller.Config{
		Handler:       NewFailoverHandler(db),
		LeaderElector: le,
		Logger:        logger,
		Name:          "redisfailover",
	})
}

// NewAuditController runs a handler func under leader election too.
func NewAuditController(db *sql.DB, le leaderelection.Runner) (controller.Controller, error) {
	return controller.New(&controller.Config{
		Handler: controller.HandlerFunc(func(ctx context.Context, obj runtime.Object) error {
			_, err := db.ExecContext(ctx, `UPDATE audits SET seen = seen + 1 WHERE kind = $1`, "pod") // want `ExecContext \(UPDATE audits\) writes to SQL database without a fencing token`
			return err
		}),
		LeaderElector: le,
		Name:          "audit",
	})
}

// CacheHandler refreshes a replica's own cache row: every replica runs it.
type CacheHandler struct {
	db *sql.DB
}

func (h *CacheHandler) Handle(ctx context.Context, obj runtime.Object) error {
	_, err := h.db.ExecContext(ctx, `UPDATE replica_cache SET warm = true WHERE replica = $1`, "r1")
	return err
}

// NewCacheController names no LeaderElector: kooper runs the handler on
// every replica, under no lease.
func NewCacheController(db *sql.DB) (controller.Controller, error) {
	return controller.New(&controller.Config{
		Handler:       &CacheHandler{db: db},
		LeaderElector: nil,
		Name:          "cache",
	})
}

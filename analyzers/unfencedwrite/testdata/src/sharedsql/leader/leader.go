// Package leader checks the cluster's peers under a redsync lock and
// records the offline ones through an interface main wires to a database
// that may be PostgreSQL: a stale holder overwrites what the next wrote.
package leader

import (
	"context"

	"github.com/go-redsync/redsync/v4"
)

type Marker interface {
	MarkOffline(ctx context.Context, id string) error
}

type Checker struct {
	rs    *redsync.Redsync
	nodes Marker
}

func New(rs *redsync.Redsync, nodes Marker) *Checker { return &Checker{rs: rs, nodes: nodes} }

func (c *Checker) Sweep(ctx context.Context, down []string) error {
	m := c.rs.NewMutex("peer-sweep")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	for _, id := range down {
		if err := c.nodes.MarkOffline(ctx, id); err != nil { // want `Marker.MarkOffline \(DB.ExecContext \(UPDATE nodes\) at nodes.go:\d+, via \*nodes.Store.MarkOffline\) writes to SQL database without a fencing token`
			return err
		}
	}
	return nil
}

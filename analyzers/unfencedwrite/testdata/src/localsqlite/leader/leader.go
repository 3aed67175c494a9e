// Package leader checks the cluster's peers under a redsync lock and
// records the offline ones through an interface main wires to SQLite: a
// stale holder writes its own node's file, which no other holder writes.
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
		if err := c.nodes.MarkOffline(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

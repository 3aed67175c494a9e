// Package checkvalue hands its leadership check to the backups package as a
// func value.
package checkvalue

import (
	"context"
	"database/sql"

	"checkvalue/backups"

	"github.com/hashicorp/raft"
	"k8s.io/client-go/tools/leaderelection"
)

type node struct {
	r  *raft.Raft
	le *leaderelection.LeaderElector
	db *sql.DB
}

// IsPrimary wraps raft's state: a check.
func (n *node) IsPrimary() bool { return n.r.State() == raft.Leader }

func (n *node) run(ctx context.Context) error {
	return backups.Run(ctx, n.db, n.IsPrimary) // want `node.IsPrimary, which backups.Run calls as isPrimary\(\) at backups.go:14, only tells that the lease was held when it ran, yet it guards the unfenced write backups.Run \(DB.ExecContext \(INSERT backups\) at backups.go:15\)`
}

func (n *node) runElected(ctx context.Context) error {
	return backups.Run(ctx, n.db, n.le.IsLeader) // want `LeaderElector.IsLeader, which backups.Run calls as isPrimary\(\) at backups.go:14`
}

// fenced passes the check to a callee whose write is fenced.
func (n *node) fenced(ctx context.Context, fence int64) error {
	return backups.Fenced(ctx, n.db, n.IsPrimary, fence)
}

// report's write does not depend on the answer.
func (n *node) report(ctx context.Context) error {
	return backups.Report(ctx, n.db, n.IsPrimary)
}

// always passes something that is no check.
func (n *node) always(ctx context.Context) error {
	return backups.Run(ctx, n.db, func() bool { return true })
}

// enabled is a feature switch, not a lease check.
func (n *node) enabled() bool { return n.db != nil }

func (n *node) switched(ctx context.Context) error {
	return backups.Run(ctx, n.db, n.enabled)
}

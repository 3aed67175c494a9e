// Package backups records backups on the primary only, asking through the
// cluster interface.
package backups

import (
	"context"
	"database/sql"

	"ifacecheck/cluster"
)

type Runner struct {
	db      *sql.DB
	members cluster.Membership
}

func (r *Runner) Record(ctx context.Context, name string) error {
	if !r.members.IsPrimary() { // want `Membership.IsPrimary \(via \*raftnode.Node.IsPrimary\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(INSERT backups\)`
		return nil
	}
	_, err := r.db.ExecContext(ctx, `INSERT INTO backups (name) VALUES ($1)`, name)
	return err
}

// Peers is no check: a call of it guards nothing.
func (r *Runner) Announce(ctx context.Context) error {
	if len(r.members.Peers()) == 0 {
		return nil
	}
	_, err := r.db.ExecContext(ctx, `INSERT INTO announcements (at) VALUES (now())`)
	return err
}

// Package failover promotes a MySQL replica under the leader lock, as a
// failover controller does: the commands change the servers themselves.
package failover

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/go-redsync/redsync/v4"
)

// Client runs statements on one server.
type Client struct{ db *sql.DB }

func (c *Client) Exec(ctx context.Context, query string, args ...any) error {
	_, err := c.db.ExecContext(ctx, query, args...)
	return err
}

func (c *Client) StopAllSlaves(ctx context.Context) error {
	return c.Exec(ctx, "STOP ALL SLAVES;")
}

func (c *Client) SetSystemVariable(ctx context.Context, name, value string) error {
	return c.Exec(ctx, fmt.Sprintf("SET @@global.%s=%s;", name, value))
}

func (c *Client) EnableWrites(ctx context.Context) error {
	return c.SetSystemVariable(ctx, "read_only", "0")
}

func (c *Client) ReadOnly(ctx context.Context) (bool, error) {
	var on bool
	err := c.db.QueryRowContext(ctx, "SELECT @@global.read_only").Scan(&on)
	return on, err
}

type Controller struct {
	rs               *redsync.Redsync
	primary, replica *Client
}

// Promote makes the replica the primary. A controller paused past the
// lock's expiry sends these after the next one chose another primary.
func (c *Controller) Promote(ctx context.Context) error {
	m := c.rs.NewMutex("failover")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := c.replica.StopAllSlaves(ctx); err != nil { // want `Client.StopAllSlaves \(Client.Exec \(STOP ALL SLAVES\) at failover.go:\d+\) writes to SQL database without a fencing token while the redsync lock .* the server applies CHANGE MASTER, STOP SLAVE, RESET MASTER and SET GLOBAL read_only whoever sends them, so no token can fence them`
		return err
	}
	return c.replica.EnableWrites(ctx) // want `Client.EnableWrites \(Client.Exec \(SET GLOBAL\) at failover.go:\d+, via Client.SetSystemVariable\) writes to SQL database`
}

// Repoint makes the old primary follow the new one.
func (c *Controller) Repoint(ctx context.Context, host string) error {
	m := c.rs.NewMutex("failover")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return c.primary.Exec(ctx, "CHANGE MASTER TO MASTER_HOST = ?, MASTER_USE_GTID = slave_pos", host) // want `Client.Exec \(CHANGE MASTER\) writes to SQL database without a fencing token`
}

// Tune sets a global that is no part of the topology, and checks the
// role: neither is a write a stale controller undoes.
func (c *Controller) Tune(ctx context.Context) error {
	m := c.rs.NewMutex("failover")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := c.primary.ReadOnly(ctx); err != nil {
		return err
	}
	if err := c.primary.Exec(ctx, "START TRANSACTION"); err != nil {
		return err
	}
	return c.primary.Exec(ctx, "SET GLOBAL max_connections = 500")
}

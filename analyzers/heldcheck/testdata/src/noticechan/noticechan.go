// Package noticechan starts the leader's work when its election package
// says, on a channel of the package's own, that this node leads.
package noticechan

import (
	"context"
	"database/sql"

	"noticechan/election"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type cluster struct {
	db       *sql.DB
	elector  election.Elector
	signal   chan bool
	reloaded chan bool
	up       chan bool
	reloader *election.Reloader
	pinger   *election.Pinger
}

func newCluster(cli *clientv3.Client, db *sql.DB) *cluster {
	c := &cluster{db: db, signal: make(chan bool, 1), reloaded: make(chan bool), up: make(chan bool)}
	c.elector = election.New(cli, "/leader", "node-1", c.signal)
	c.reloader = election.NewReloader(c.reloaded)
	c.pinger = election.NewPinger(cli, c.up)
	return c
}

// listen starts the sync when the elector says this node leads.
func (c *cluster) listen(ctx context.Context) {
	c.elector.Elect(ctx)
	for {
		select {
		case leading := <-c.signal: // want `the leadership notice received from signal \(election.New sends on it whether the etcd lock taken by Election.Campaign is held\) only tells that the lease was held when it ran, yet it guards the unfenced write cluster.sync \(DB.ExecContext \(UPDATE offsets\) at noticechan.go:\d+\)`
			if leading {
				c.sync(ctx)
			} else {
				c.stop(ctx)
			}
		case changed := <-c.reloaded:
			if changed {
				c.sync(ctx)
			}
		case up := <-c.up:
			if up {
				c.sync(ctx)
			}
		case <-ctx.Done():
			return
		}
	}
}

func (c *cluster) sync(ctx context.Context) {
	c.db.ExecContext(ctx, "UPDATE offsets SET pos = pos + 100 WHERE name = 'binlog'")
}

// stop runs when the node stops leading: not the leader's work.
func (c *cluster) stop(ctx context.Context) {
	c.db.ExecContext(ctx, "UPDATE nodes SET role = 'follower' WHERE name = 'node-1'")
}

// A campaigner of the package's own: it campaigns, says so on leading and
// holds the lease until its session ends.
type campaigner struct {
	cli     *clientv3.Client
	db      *sql.DB
	leading chan bool
}

func (c *campaigner) campaign(ctx context.Context) error {
	session, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer session.Close()
	elc := concurrency.NewElection(session, "/compactor")
	if err := elc.Campaign(ctx, "node-1"); err != nil {
		return err
	}
	c.leading <- true
	<-session.Done()
	c.leading <- false
	return nil
}

// compactLoop compacts while the campaigner says this node leads.
func (c *campaigner) compactLoop(ctx context.Context) {
	for lead := range c.leading { // want `the leadership notice received from leading \(sent on at noticechan.go:\d+ while the etcd lock taken by Election.Campaign is held\) only tells .* DB.ExecContext \(DELETE events\)`
		if lead {
			c.db.ExecContext(ctx, "DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT 1000)")
		}
	}
}

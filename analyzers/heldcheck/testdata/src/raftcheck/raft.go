// Package raftcheck writes to an external store when raft says this node
// leads.
package raftcheck

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/hashicorp/raft"
)

type node struct {
	r  *raft.Raft
	db *sql.DB
}

// state reads the node's cached state: a deposed leader still reads Leader.
func (n *node) state(ctx context.Context) {
	if n.r.State() == raft.Leader { // want `Raft.State only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE cluster\) at line 22`
		n.db.ExecContext(ctx, "UPDATE cluster SET leader_seen = now()")
	}
}

// stateNotLeader returns early unless leader.
func (n *node) stateNotLeader(ctx context.Context) error {
	if n.r.State() != raft.Leader { // want `Raft.State only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(INSERT jobs\)`
		return nil
	}
	_, err := n.db.ExecContext(ctx, "INSERT INTO jobs (name) VALUES ('compact')")
	return err
}

// switchState writes in the Leader case of a switch.
func (n *node) switchState(ctx context.Context) {
	switch n.r.State() { // want `Raft.State only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE jobs\)`
	case raft.Leader:
		n.db.ExecContext(ctx, "DELETE FROM jobs WHERE done")
	case raft.Follower:
		log.Print("follower")
	}
}

// verify asks a quorum, then writes elsewhere: still check-then-act.
func (n *node) verify(ctx context.Context) error {
	if err := n.r.VerifyLeader().Error(); err != nil { // want `Raft.VerifyLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE cluster\)`
		return err
	}
	_, err := n.db.ExecContext(ctx, "UPDATE cluster SET epoch = epoch + 1")
	return err
}

// apply writes through the raft log: fenced by the term.
func (n *node) apply(cmd []byte) error {
	if n.r.State() != raft.Leader {
		return nil
	}
	return n.r.Apply(cmd, time.Second).Error()
}

// follower writes only when not leader.
func (n *node) follower(ctx context.Context) {
	if n.r.State() == raft.Follower {
		n.db.ExecContext(ctx, "UPDATE nodes SET role = 'follower' WHERE id = 1")
	}
}

// byID compares the leader's ID with this node's.
func (n *node) byID(ctx context.Context, self raft.ServerID) {
	if _, id := n.r.LeaderWithID(); id == self { // want `Raft.LeaderWithID only tells .* DB.ExecContext \(UPDATE cluster\)`
		n.db.ExecContext(ctx, "UPDATE cluster SET owner = $1", string(self))
	}
}

// forward sends the request to the leader unless there is none.
func (n *node) forward(ctx context.Context, send func(raft.ServerAddress)) {
	if addr := n.r.Leader(); addr != "" {
		send(addr)
	}
}

// agent keeps raft's leadership notices and runs the leader's work when
// one says it leads, as Consul, Nomad and dkron do.
type agent struct {
	r        *raft.Raft
	db       *sql.DB
	leaderCh <-chan bool
	notifyCh chan bool
}

func newAgent(conf *raft.Config, r *raft.Raft, db *sql.DB) *agent {
	a := &agent{r: r, db: db, leaderCh: r.LeaderCh(), notifyCh: make(chan bool, 1)}
	conf.NotifyCh = a.notifyCh
	return a
}

// monitor starts the leader loop on a true notice: the loop's write runs
// on the notice's word, stale once a paused leader is deposed.
func (a *agent) monitor(ctx context.Context) {
	for {
		select {
		case isLeader := <-a.leaderCh: // want `the leadership notice received from Raft.LeaderCh only tells that the lease was held when it ran, yet it guards the unfenced write agent.leaderLoop \(DB.ExecContext \(UPDATE schedules\)`
			if isLeader {
				a.leaderLoop(ctx)
			}
		case <-ctx.Done():
			return
		}
	}
}

func (a *agent) leaderLoop(ctx context.Context) {
	a.db.ExecContext(ctx, "UPDATE schedules SET owner = 'me'")
}

// notified ranges over its own channel, handed to raft as NotifyCh.
func (a *agent) notified(ctx context.Context) {
	for leading := range a.notifyCh { // want `the leadership notice received from raft's Config.NotifyCh only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE jobs\)`
		if !leading {
			continue
		}
		a.db.ExecContext(ctx, "DELETE FROM jobs WHERE done")
	}
}

// logged only logs the notices (hard negative), and a notice that leads to
// raft.Apply is fenced by the term.
func (a *agent) logged(ctx context.Context) {
	for {
		select {
		case isLeader := <-a.leaderCh:
			log.Printf("leader: %v", isLeader)
			if isLeader {
				a.r.Apply([]byte("tick"), time.Second)
			}
		case <-ctx.Done():
			return
		}
	}
}

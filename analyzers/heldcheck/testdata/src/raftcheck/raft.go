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

// Package raftleader holds a service built on hashicorp/raft whose leader
// also writes outside the replicated state machine.
package raftleader

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/hashicorp/raft"
)

// Node is one replica.
type Node struct {
	r  *raft.Raft
	s3 *s3.Client
	db *sql.DB
}

type command struct {
	Op    string `json:"op"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Snapshot uploads the state if this node believes it leads: a deposed
// leader still reads raft.Leader until it hears of the new term.
func (n *Node) Snapshot(ctx context.Context, state []byte) error {
	if n.r.State() == raft.Leader { // want heldcheck:"only tells that the lease was held"
		_, err := n.s3.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String("raft-snapshots"),
			Key:    aws.String("latest"),
			Body:   bytes.NewReader(state),
		})
		return err
	}
	return nil
}

// Expire verifies leadership with a quorum first, then writes to Postgres:
// still check-then-act.
func (n *Node) Expire(ctx context.Context) error {
	if err := n.r.VerifyLeader().Error(); err != nil { // want heldcheck:"only tells that the lease was held"
		return err
	}
	_, err := n.db.ExecContext(ctx, `DELETE FROM sessions WHERE revoked`)
	return err
}

// Set replicates the write through the log: only the current leader's
// entries commit.
func (n *Node) Set(key, value string) error {
	if n.r.State() != raft.Leader {
		return raft.ErrNotLeader
	}
	b, err := json.Marshal(command{Op: "set", Key: key, Value: value})
	if err != nil {
		return err
	}
	f := n.r.Apply(b, 5*time.Second)
	if err := f.Error(); err != nil {
		return err
	}
	if err, ok := f.Response().(error); ok {
		return err
	}
	return nil
}

// Publish fences the external write with the term captured as leader.
func (n *Node) Publish(ctx context.Context, key, value string) error {
	if n.r.State() != raft.Leader {
		return raft.ErrNotLeader
	}
	term := n.r.CurrentTerm()
	res, err := n.db.ExecContext(ctx,
		`UPDATE published SET value = $1, term = $3 WHERE key = $2 AND term <= $3`, value, key, term)
	if err != nil {
		return err
	}
	if rows, err := res.RowsAffected(); err != nil || rows != 1 {
		return errors.New("publish: a newer leader published first")
	}
	return nil
}

// Monitor logs leadership changes; it writes nothing.
func (n *Node) Monitor(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case leader := <-n.r.LeaderCh():
			addr, id := n.r.LeaderWithID()
			log.Printf("raft: leader=%v now %s (%s), applied %d", leader, addr, id, n.r.AppliedIndex())
		}
	}
}

// Agent runs the leader's work when raft's leadership notices say it leads,
// through its own channel handed to raft as Config.NotifyCh.
type Agent struct {
	db       *sql.DB
	notifyCh chan bool
}

// Configure hands the agent's channel to raft.
func (a *Agent) Configure(conf *raft.Config) {
	a.notifyCh = make(chan bool, 1)
	conf.NotifyCh = a.notifyCh
}

// Lead reconciles schedules on every true notice: a deposed leader still
// does so until it hears the false one.
func (a *Agent) Lead(ctx context.Context) {
	for leading := range a.notifyCh { // want heldcheck:"the leadership notice received from raft's Config.NotifyCh only tells that the lease was held"
		if leading {
			a.db.ExecContext(ctx, "UPDATE schedules SET owner = $1", "me")
		}
	}
}

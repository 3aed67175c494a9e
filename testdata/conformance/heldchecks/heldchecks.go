// Package heldchecks asks lock libraries whether the lease is still held
// and then writes: leaderelection's cached IsLeader and GetLeader, raft's
// State and VerifyLeader, Consul's session and lock key, ZooKeeper's lock
// node, gocron's Elector and a lease row's deadline. Each check is stale by
// the time of the write unless the store fences it.
package heldchecks

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/go-zookeeper/zk"
	"github.com/hashicorp/consul/api"
	"github.com/hashicorp/raft"
)

var errLost = errors.New("lease lost: a newer holder wrote first")

// Node writes to PostgreSQL when its raft node leads.
type Node struct {
	r  *raft.Raft
	db *sql.DB
}

// Compact reads the node's state: a deposed leader still reads Leader.
func (n *Node) Compact(ctx context.Context) {
	if n.r.State() == raft.Leader { // want heldcheck:"only tells that the lease was held"
		n.db.ExecContext(ctx, `DELETE FROM jobs WHERE done`)
	}
}

// Verified asks a quorum first; the write goes elsewhere, so it is still
// check-then-act.
func (n *Node) Verified(ctx context.Context) error {
	if err := n.r.VerifyLeader().Error(); err != nil { // want heldcheck:"only tells that the lease was held"
		return err
	}
	_, err := n.db.ExecContext(ctx, `UPDATE cluster SET epoch = epoch + 1`)
	return err
}

// Apply writes through the log: raft fences it by term.
func (n *Node) Apply(cmd []byte) error {
	if n.r.State() != raft.Leader {
		return nil
	}
	return n.r.Apply(cmd, 5*time.Second).Error()
}

// Shipper writes under a Consul session that holds a lock key.
type Shipper struct {
	c       *api.Client
	session string
	lockKey string
}

// Ship reads the lock key back and compares its session with ours.
func (s *Shipper) Ship(order string) error {
	pair, _, err := s.c.KV().Get(s.lockKey, nil) // want heldcheck:"only tells that the lease was held"
	if err != nil || pair == nil || pair.Session != s.session {
		return errLost
	}
	_, err = s.c.KV().Put(&api.KVPair{Key: "orders/" + order, Value: []byte("shipped")}, nil)
	return err
}

// ShipChecked writes in a Txn that checks the lock key's session: fenced.
func (s *Shipper) ShipChecked(order string) error {
	entry, _, err := s.c.Session().Info(s.session, nil)
	if err != nil || entry == nil {
		return errLost
	}
	ok, _, _, err := s.c.Txn().Txn(api.TxnOps{
		{KV: &api.KVTxnOp{Verb: api.KVCheckSession, Key: s.lockKey, Session: s.session}},
		{KV: &api.KVTxnOp{Verb: api.KVSet, Key: "orders/" + order, Value: []byte("shipped")}},
	}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	return nil
}

// Shard owns a ZooKeeper lock node.
type Shard struct {
	conn     *zk.Conn
	lockNode string
}

// Assign checks that its ephemeral lock node still exists, then writes
// with version -1: the session can expire right after the check.
func (s *Shard) Assign(data []byte) error {
	ok, _, err := s.conn.Exists(s.lockNode) // want heldcheck:"only tells that the lease was held"
	if err != nil || !ok {
		return errLost
	}
	_, err = s.conn.Set("/shards/3", data, -1)
	return err
}

// AssignVersioned writes with the version it read: fenced.
func (s *Shard) AssignVersioned(data []byte, version int32) error {
	ok, _, err := s.conn.Exists(s.lockNode)
	if err != nil || !ok {
		return errLost
	}
	_, err = s.conn.Set("/shards/3", data, version)
	return err
}

// Sweep asks gocron's elector, as the executor does before each run.
func Sweep(ctx context.Context, el gocron.Elector, db *sql.DB) error {
	if err := el.IsLeader(ctx); err != nil { // want heldcheck:"only tells that the lease was held"
		return nil
	}
	_, err := db.ExecContext(ctx, `DELETE FROM sessions WHERE revoked`)
	return err
}

// LeaseRow is a lease kept in a table.
type LeaseRow struct {
	Holder    string
	ExpiresAt time.Time
}

// Payout compares the clock with the lease's deadline.
func Payout(ctx context.Context, db *sql.DB, l *LeaseRow) {
	if time.Now().Before(l.ExpiresAt) { // want heldcheck:"only tells that the lease was held"
		db.ExecContext(ctx, `UPDATE payouts SET paid = true WHERE run = 4`)
	}
}

// Retry loops until a deadline that is not a lease's.
func Retry(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(5 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if _, err = db.ExecContext(ctx, `UPDATE payouts SET tries = tries + 1 WHERE run = 4`); err == nil {
			return nil
		}
	}
	return err
}

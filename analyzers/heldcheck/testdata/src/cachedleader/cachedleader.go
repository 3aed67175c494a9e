// Package cachedleader keeps the current leader's ID in a field that an
// etcd election's Observe loop updates, and compares it with its own ID
// before writing, as cluster controllers do.
package cachedleader

import (
	"context"
	"database/sql"
	"sync"

	"go.etcd.io/etcd/client/v3/concurrency"
)

type node struct {
	myID     string
	mu       sync.RWMutex
	leaderID string
	region   string // from the configuration, not an election
	db       *sql.DB
}

// observe follows the election and caches who leads.
func (n *node) observe(ctx context.Context, e *concurrency.Election) {
	ch := e.Observe(ctx)
	for {
		select {
		case resp := <-ch:
			if len(resp.Kvs) > 0 {
				n.mu.Lock()
				n.leaderID = string(resp.Kvs[0].Value)
				n.mu.Unlock()
			}
		case <-ctx.Done():
			return
		}
	}
}

// Leader returns the cached leader ID.
func (n *node) Leader() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.leaderID
}

// IsLeader compares the cached leader with this node.
func (n *node) IsLeader() bool { return n.Leader() == n.myID }

func (n *node) rebalance(ctx context.Context) error {
	if !n.IsLeader() { // want `node.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE shards\)`
		return nil
	}
	_, err := n.db.ExecContext(ctx, `UPDATE shards SET owner = $1`, n.myID)
	return err
}

func (n *node) direct(ctx context.Context) error {
	if n.leaderID != n.myID { // want `the cached leader ID leaderID \(set from the etcd election\) only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(DELETE shards\)`
		return nil
	}
	_, err := n.db.ExecContext(ctx, `DELETE FROM shards WHERE owner IS NULL`)
	return err
}

// regional compares a configured value: no election, no check.
func (n *node) regional(ctx context.Context) error {
	if n.region != n.myID {
		return nil
	}
	_, err := n.db.ExecContext(ctx, `UPDATE shards SET region = $1`, n.region)
	return err
}

// fenced checks, but its write is fenced by the revision it is given.
func (n *node) fenced(ctx context.Context, rev int64) error {
	if !n.IsLeader() {
		return nil
	}
	res, err := n.db.ExecContext(ctx, `UPDATE shards SET owner = $1, fence = $2 WHERE fence < $2`, n.myID, rev)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

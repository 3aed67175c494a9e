package heldchecks

import (
	"context"
	"database/sql"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Member caches the leader's ID from etcd's Election.Observe in a select
// loop, as cluster controllers do, and compares it with its own ID.
type Member struct {
	id       string
	mu       sync.RWMutex
	leaderID string
	db       *sql.DB
	quit     chan struct{}
}

// Follow keeps leaderID current (etcd 3.7's Observe yields pointers;
// legacy/etcd34 holds the value-typed twin of 3.4-3.6).
func (m *Member) Follow(ctx context.Context, e *concurrency.Election) {
	ch := e.Observe(ctx)
	for {
		select {
		case resp := <-ch:
			if len(resp.Kvs) > 0 {
				m.mu.Lock()
				m.leaderID = string(resp.Kvs[0].Value)
				m.mu.Unlock()
			} else {
				ch = e.Observe(ctx)
			}
		case <-m.quit:
			return
		}
	}
}

// Leader returns the cached leader's ID.
func (m *Member) Leader() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.leaderID
}

// Rebalance writes when the cached ID is its own: stale by the write.
func (m *Member) Rebalance(ctx context.Context) error {
	if m.Leader() != m.id { // want heldcheck:"only tells that the lease was held"
		return nil
	}
	_, err := m.db.ExecContext(ctx, `UPDATE shards SET owner = $1`, m.id)
	return err
}

// Announce compares a key it read itself, not the election's answer.
func (m *Member) Announce(ctx context.Context, kv clientv3.KV) error {
	resp, err := kv.Get(ctx, "/config/primary")
	if err != nil || len(resp.Kvs) == 0 || string(resp.Kvs[0].Value) != m.id {
		return err
	}
	_, err = m.db.ExecContext(ctx, `INSERT INTO announcements (node) VALUES ($1)`, m.id)
	return err
}

// Package leaseflags keeps whether it leads in flags it sets once a lock
// or an election is won, and reads them later to decide whether to write.
package leaseflags

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/consul/api"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// firehose leads through a Consul lock and caches that it does.
type firehose struct {
	client   *api.Client
	isLeader atomic.Bool
	ready    bool
	primary  bool
	stopCh   chan struct{}
}

// lead sets the flag once Lock returned and clears it when the lock is lost.
func (f *firehose) lead() error {
	lock, err := f.client.LockKey("firehose/leader")
	if err != nil {
		return err
	}
	lost, err := lock.Lock(f.stopCh)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	f.isLeader.Store(true)
	f.ready = true // a flag whose name says nothing of leading
	f.primary = true
	if f.isLeader.Load() { // the holder's own read: the lock guards the Put (unfencedwrite reports it)
		f.client.KV().Put(&api.KVPair{Key: "firehose/started", Value: []byte("1")}, nil)
	}
	<-lost
	f.isLeader.Store(false)
	return nil
}

// newFirehose starts as primary in a single-node setup: the flag is set
// where no lease is held too, so it does not say who leads.
func newFirehose(c *api.Client, single bool) *firehose {
	f := &firehose{client: c, stopCh: make(chan struct{})}
	if single {
		f.primary = true
	}
	return f
}

// checkpoint writes only while the cached flag says it leads: the flag is
// stale by the time the Put lands.
func (f *firehose) checkpoint(v []byte) {
	if f.isLeader.Load() { // want `the leader flag isLeader \(set while the Consul lock taken by Lock.Lock is held\) only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put`
		f.client.KV().Put(&api.KVPair{Key: "firehose/checkpoint", Value: v}, nil)
	}
}

// checkpointCAS writes with check-and-set on the index it read: the store
// fences it, whatever the flag says.
func (f *firehose) checkpointCAS(v []byte) error {
	if !f.isLeader.Load() {
		return nil
	}
	pair, _, err := f.client.KV().Get("firehose/checkpoint", nil)
	if err != nil || pair == nil {
		return err
	}
	_, _, err = f.client.KV().CAS(&api.KVPair{Key: pair.Key, Value: v, ModifyIndex: pair.ModifyIndex}, nil)
	return err
}

// readyWrite reads a flag the leader sets whose name is not about leading.
func (f *firehose) readyWrite(v []byte) {
	if f.ready {
		f.client.KV().Put(&api.KVPair{Key: "firehose/ready", Value: v}, nil)
	}
}

// primaryWrite reads a flag also set where no lease is held.
func (f *firehose) primaryWrite(v []byte) {
	if f.primary {
		f.client.KV().Put(&api.KVPair{Key: "firehose/primary", Value: v}, nil)
	}
}

// scheduler wins an etcd election and keeps a plain field and a package
// variable saying so.
type scheduler struct {
	election *concurrency.Election
	db       *sql.DB
	elected  bool
	mu       sync.Mutex
	leading  bool
}

var isMaster bool

// campaign blocks until the node is elected.
func (s *scheduler) campaign(ctx context.Context, id string) error {
	if err := s.election.Campaign(ctx, id); err != nil {
		return err
	}
	s.elected = true
	isMaster = true
	return nil
}

// sweep deletes expired jobs while the node thinks it leads.
func (s *scheduler) sweep(ctx context.Context) error {
	if !s.elected { // want `the leader flag elected \(set while the etcd lock taken by Election.Campaign is held\) only tells .* DB.ExecContext \(DELETE jobs\)`
		return nil
	}
	_, err := s.db.ExecContext(ctx, "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE done ORDER BY id LIMIT 100)")
	return err
}

// assign reads the package variable.
func (s *scheduler) assign(ctx context.Context, job, node string) {
	if isMaster { // want `the leader flag isMaster \(set while .* is held\) only tells .* DB.ExecContext \(UPDATE jobs\)`
		s.db.ExecContext(ctx, "UPDATE jobs SET node = $1 WHERE id = $2", node, job)
	}
}

// setLeading sets a flag under a process-local mutex, which is no lease.
func (s *scheduler) setLeading() {
	s.mu.Lock()
	s.leading = true
	s.mu.Unlock()
}

// leadingWrite reads that flag: nothing says a lease was ever held.
func (s *scheduler) leadingWrite(ctx context.Context, job string) {
	if s.leading {
		s.db.ExecContext(ctx, "UPDATE jobs SET state = 'queued' WHERE id = $1", job)
	}
}

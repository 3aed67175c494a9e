// Package etcdcheck asks etcd whether its lease or leadership still stands
// before writing.
package etcdcheck

import (
	"bytes"
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errLost = errors.New("lost the lease")

type service struct {
	cli *clientv3.Client
	id  clientv3.LeaseID
	e   *concurrency.Election
	me  string
}

// timeToLive asks for the lease's remaining TTL, then writes with a plain
// Put.
func (s *service) timeToLive(ctx context.Context) error {
	resp, err := s.cli.TimeToLive(ctx, s.id) // want `Lease.TimeToLive only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put at line 33: .*fence it: put a key WithLease\(leaseID\) when you take the lease and commit the write in Txn\(ctx\).If\(clientv3.Compare\(clientv3.LeaseValue\(key\), "=", leaseID\)\)`
	if err != nil {
		return err
	}
	if resp.TTL <= 0 {
		return errLost
	}
	_, err = s.cli.Put(ctx, "/jobs/compact", "running")
	return err
}

// leader compares the current leader's value with our own.
func (s *service) leader(ctx context.Context) error {
	resp, err := s.e.Leader(ctx) // want `Election.Leader only tells that the lease was held when it ran, yet it guards the unfenced write KV.Delete.*clientv3.CreateRevision\(election.Key\(\)\), "=", election.Rev\(\)`
	if err != nil {
		return err
	}
	if len(resp.Kvs) == 0 || string(resp.Kvs[0].Value) != s.me {
		return errLost
	}
	_, err = s.cli.Delete(ctx, "/jobs/compact")
	return err
}

// leaderBytes compares with bytes.Equal.
func (s *service) leaderBytes(ctx context.Context) {
	resp, err := s.e.Leader(ctx) // want `Election.Leader only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put`
	if err == nil && len(resp.Kvs) > 0 && bytes.Equal(resp.Kvs[0].Value, []byte(s.me)) {
		s.cli.Put(ctx, "/jobs/owner", s.me)
	}
}

// anyLeader only asks whether some leader exists (its error): that says
// nothing about this process holding the lease.
func (s *service) anyLeader(ctx context.Context) error {
	if _, err := s.e.Leader(ctx); err != nil {
		return err
	}
	_, err := s.cli.Put(ctx, "/status/seen-leader", "yes")
	return err
}

// fenced checks, then writes in a Txn guarded by ownership of the mutex key.
func (s *service) fenced(ctx context.Context, m *concurrency.Mutex) error {
	resp, err := s.cli.TimeToLive(ctx, s.id)
	if err != nil || resp.TTL <= 0 {
		return errLost
	}
	tr, err := s.cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("/jobs/compact", "running")).Commit()
	if err != nil {
		return err
	}
	if !tr.Succeeded {
		return errLost
	}
	return nil
}

// proclaim updates the leader value through the election: fenced by etcd.
func (s *service) proclaim(ctx context.Context) error {
	resp, err := s.e.Leader(ctx)
	if err != nil || string(resp.Kvs[0].Value) != s.me {
		return errLost
	}
	return s.e.Proclaim(ctx, s.me+"-v2")
}

// ttlChanged reads the lease a status key is bound to and compares its
// granted TTL (fixed when the lease was made) with the one wanted. etcd
// answers a lease that is gone with a TTL of -1, not an error: the error
// only says the question failed, so nothing here tells whether a lease is
// held, and the writes after it are not guarded by a check.
func (s *service) ttlChanged(ctx context.Context, key string, ttl int64) (bool, error) {
	resp, err := s.cli.Get(ctx, key)
	if err != nil || len(resp.Kvs) == 0 {
		return ttl != 0, err
	}
	got, err := s.cli.TimeToLive(ctx, clientv3.LeaseID(resp.Kvs[0].Lease))
	if err != nil {
		return false, err
	}
	return got.GrantedTTL != ttl, nil
}

func (s *service) bindStatus(ctx context.Context, key, value string, ttl int64) error {
	changed, err := s.ttlChanged(ctx, key, ttl)
	if err != nil {
		return err
	}
	if changed {
		_, err = s.cli.Put(ctx, key, value)
	}
	return err
}

// alive is a wrapper of the remaining TTL, which does answer: its callers
// check the lease.
func (s *service) alive(ctx context.Context) (bool, error) {
	resp, err := s.cli.TimeToLive(ctx, s.id)
	if err != nil {
		return false, err
	}
	return resp.TTL > 0, nil
}

func (s *service) stampIfAlive(ctx context.Context) error {
	ok, err := s.alive(ctx) // want `service.alive only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put`
	if err != nil || !ok {
		return errLost
	}
	_, err = s.cli.Put(ctx, "/jobs/stamp", "now")
	return err
}

// Package etcdstore implements persist.Persistence over etcd: an election
// loop caches the leader's ID that Leader returns.
package etcdstore

import (
	"context"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Etcd struct {
	myID     string
	kv       clientv3.KV
	leaderMu sync.RWMutex
	leaderID string
	changed  chan bool
}

func (e *Etcd) ID() string { return e.myID }

func (e *Etcd) Leader() string {
	e.leaderMu.RLock()
	defer e.leaderMu.RUnlock()
	return e.leaderID
}

func (e *Etcd) Set(ctx context.Context, key string, value []byte) error {
	_, err := e.kv.Put(ctx, key, string(value))
	return err
}

func (e *Etcd) observe(ctx context.Context, election *concurrency.Election) {
	ch := election.Observe(ctx)
	for {
		select {
		case resp := <-ch:
			if len(resp.Kvs) > 0 {
				id := string(resp.Kvs[0].Value)
				e.leaderMu.Lock()
				e.leaderID = id
				e.leaderMu.Unlock()
				e.changed <- true
			} else {
				ch = election.Observe(ctx)
			}
		case <-ctx.Done():
			return
		}
	}
}

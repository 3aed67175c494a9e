// Package etcd34 takes etcd locks through etcd 3.4's import paths
// (go.etcd.io/etcd), which share the client/v3 API.
package etcd34

import (
	"context"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

// Compactor compacts one day's summary under an etcd lock.
type Compactor struct {
	cli *clientv3.Client
}

// Run writes the day's marker under the lock with no fence.
func (c *Compactor) Run(ctx context.Context, day string) error {
	s, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	select {
	case <-s.Done():
		return context.Canceled
	default:
	}
	_, err = c.cli.Put(ctx, "/compactor/last-day", day) // want unfencedwrite:"without a fencing token"
	return err
}

// RunFenced commits the marker only while the lock is still ours: a hard
// negative.
func (c *Compactor) RunFenced(ctx context.Context, day string) error {
	s, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	resp, err := c.cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("/compactor/last-day", day)).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return context.Canceled
	}
	return nil
}

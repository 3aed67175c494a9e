// Package etcdmutex implements lock.DistributedLock with an etcd mutex,
// spelling its context with the alias: it implements the interface all
// the same, without importing it.
package etcdmutex

import (
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"aliaslocks/xcontext"
)

type Mutex struct {
	m *concurrency.Mutex
}

func New(cli *clientv3.Client, key string) (*Mutex, error) {
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(30))
	if err != nil {
		return nil, err
	}
	return &Mutex{m: concurrency.NewMutex(s, key)}, nil
}

func (m *Mutex) Lock(ctx xcontext.Context) (xcontext.Context, error) {
	if err := m.m.Lock(ctx); err != nil {
		return nil, err
	}
	return ctx, nil
}

func (m *Mutex) Unlock(ctx xcontext.Context) error {
	return m.m.Unlock(ctx)
}

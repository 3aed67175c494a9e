// Package fencetestcase uses the shared stubs the way analyzer fixtures do.
package fencetestcase

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func etcdMutex(ctx context.Context, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/jobs/compact")
	if err := m.Lock(ctx); err != nil { // want `acquires via \(\*go.etcd.io/etcd/client/v3/concurrency.Mutex\).Lock`
		return err
	}
	return m.Unlock(ctx)
}

func redsyncMutex(ctx context.Context, c *redis.Client) error {
	rs := redsync.New(goredis.NewPool(c))
	m := rs.NewMutex("jobs/compact")
	if err := m.LockContext(ctx); err != nil { // want `acquires via \(\*github.com/go-redsync/redsync/v4.Mutex\).LockContext`
		return err
	}
	_, err := m.UnlockContext(ctx)
	return err
}

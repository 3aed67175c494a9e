package etcdlock

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Config flips feature flags stored in etcd under a mutex.
type Config struct {
	cli *clientv3.Client
}

// SetIfActive guards its Txn with a compare on an unrelated key: the Txn
// succeeds for a stale holder as long as the mode key says "active".
func (c *Config) SetIfActive(ctx context.Context, m *concurrency.Mutex, flag, value string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := c.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Value("/config/mode"), "=", "active")).
		Then(clientv3.OpPut("/config/flags/"+flag, value)).
		Commit() // want unfencedwrite:"without a fencing token"
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errors.New("config: mode is not active")
	}
	return nil
}

// Batch writes several keys in a Txn with no condition at all.
func (c *Config) Batch(ctx context.Context, m *concurrency.Mutex, flags map[string]string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	ops := make([]clientv3.Op, 0, len(flags))
	for k, v := range flags {
		ops = append(ops, clientv3.OpPut("/config/flags/"+k, v))
	}
	_, err := c.cli.Txn(ctx).Then(ops...).Commit() // want unfencedwrite:"without a fencing token"
	return err
}

// Drop deletes a flag through KV.Do.
func (c *Config) Drop(ctx context.Context, m *concurrency.Mutex, flag string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := c.cli.Do(ctx, clientv3.OpDelete("/config/flags/"+flag)) // want unfencedwrite:"without a fencing token"
	return err
}

// Flag reads a flag through KV.Do under the lock: a Get, no write.
func (c *Config) Flag(ctx context.Context, m *concurrency.Mutex, flag string) (string, error) {
	if err := m.Lock(ctx); err != nil {
		return "", err
	}
	defer m.Unlock(ctx)
	resp, err := c.cli.Do(ctx, clientv3.OpGet("/config/flags/"+flag))
	if err != nil || len(resp.Get().Kvs) == 0 {
		return "", err
	}
	return string(resp.Get().Kvs[0].Value), nil
}

// CreateOnce writes the flag only if the key does not exist yet: a compare
// on the written key, which a stale holder cannot win twice.
func (c *Config) CreateOnce(ctx context.Context, m *concurrency.Mutex, flag, value string) (bool, error) {
	if err := m.Lock(ctx); err != nil {
		return false, err
	}
	defer m.Unlock(ctx)
	key := "/config/flags/" + flag
	resp, err := c.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, value)).
		Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

// Package txnlocks is a storage daemon's transaction framework, in
// glusterd2's shape: a transaction takes one etcd mutex per lock ID on a
// session of its own, and Done lets go of them, then wipes the
// transaction's scratch keys.
package txnlocks

import (
	"context"
	"encoding/json"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Txn holds the mutexes of one cluster-wide operation.
type Txn struct {
	cli    *clientv3.Client
	prefix string
	locks  map[string]*concurrency.Mutex
}

// NewTxnWithLocks returns a transaction holding a mutex on each of ids.
func NewTxnWithLocks(ctx context.Context, cli *clientv3.Client, id string, ids ...string) (*Txn, error) {
	t := &Txn{cli: cli, prefix: "txn/" + id + "/", locks: make(map[string]*concurrency.Mutex)}
	for _, name := range ids {
		s, err := concurrency.NewSession(cli, concurrency.WithTTL(10))
		if err != nil {
			return nil, err
		}
		m := concurrency.NewMutex(s, "locks/"+name)
		if err := m.Lock(ctx); err != nil {
			return nil, err
		}
		t.locks[name] = m
	}
	return t, nil
}

// Done lets go of the transaction's mutexes, then wipes its scratch keys:
// the delete is made once nothing is held, so it is no write under the
// lease, and Done is where the caller's region ends.
func (t *Txn) Done() {
	for _, m := range t.locks {
		m.Unlock(context.Background())
	}
	t.cli.Delete(context.Background(), t.prefix, clientv3.WithPrefix())
}

// Finish records the outcome before it lets go: that put is made under
// the lease, so Finish is a write, not a release, and its caller's call
// of it is reported.
func (t *Txn) Finish(ctx context.Context, outcome string) {
	t.cli.Put(ctx, "outcomes/"+t.prefix, outcome)
	for _, m := range t.locks {
		m.Unlock(ctx)
	}
}

type Volume struct {
	Name    string
	Options map[string]string
}

// SetOption reads the volume under its lock, sets the option and writes
// the whole record back with a plain Put: a handler paused past the
// session's TTL overwrites the next holder's change. Done's wipe is not
// reported.
func SetOption(ctx context.Context, cli *clientv3.Client, id, volume, key, value string) error {
	txn, err := NewTxnWithLocks(ctx, cli, id, volume)
	if err != nil {
		return err
	}
	defer txn.Done()
	resp, err := cli.Get(ctx, "volumes/"+volume)
	if err != nil || len(resp.Kvs) == 0 {
		return err
	}
	var v Volume
	if err := json.Unmarshal(resp.Kvs[0].Value, &v); err != nil {
		return err
	}
	v.Options[key] = value
	b, _ := json.Marshal(v)
	_, err = cli.Put(ctx, "volumes/"+volume, string(b)) // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by txnlocks.NewTxnWithLocks \(line 69\) is held`
	return err
}

// Reset records its outcome with Finish, deferred: that write is made
// while the lock is held.
func Reset(ctx context.Context, cli *clientv3.Client, id, volume string) error {
	txn, err := NewTxnWithLocks(ctx, cli, id, volume)
	if err != nil {
		return err
	}
	defer txn.Finish(ctx, "reset") // want `Txn.Finish \(KV.Put at txn.go:53\) writes to etcd without a fencing token`
	return nil
}

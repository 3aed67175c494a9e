// Package blindswaps is a repair queue driven by an etcd leader and a
// config writer under a ZooKeeper lock. Their entry updates are
// compare-and-swaps; those that read the version afresh and retry with
// the caller's copy overwrite whatever is there.
package blindswaps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errNotFound = errors.New("entry not found")

type entry struct {
	Index  int64
	Step   int
	Status string
}

type queue struct{ cli *clientv3.Client }

func entryKey(index int64) string { return fmt.Sprintf("/repairs/%d", index) }

// lead runs the queue while this node leads.
func lead(ctx context.Context, q *queue, s *concurrency.Session, pending []*entry, keys []string) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	for _, en := range pending {
		en.Step++
		if err := q.update(ctx, en); err != nil {
			return err
		}
		if err := q.advance(ctx, en.Index); err != nil {
			return err
		}
		if err := q.setStatus(ctx, en.Index, "Watching"); err != nil {
			return err
		}
	}
	if err := q.sweep(ctx, keys); err != nil {
		return err
	}
	return nil
}

// update always overwrites the entry with the caller's copy: when the
// compare fails it reads the revision again and writes the same data.
func (q *queue) update(ctx context.Context, en *entry) error {
	key := entryKey(en.Index)
	data, err := json.Marshal(en)
	if err != nil {
		return err
	}
RETRY:
	resp, err := q.cli.Get(ctx, key)
	if err != nil {
		return err
	}
	if resp.Count == 0 {
		return errNotFound
	}
	rev := resp.Kvs[0].ModRevision
	txn, err := q.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
		Then(clientv3.OpPut(key, string(data))).
		Commit() // want `Txn.Commit \(its revision read afresh on every retry\) writes to etcd without a fencing token while the etcd lock taken by Election.Campaign \(line 33, in blindswaps.lead, under which every call of queue.update is made\) is held`
	if err != nil {
		return err
	}
	if !txn.Succeeded {
		goto RETRY
	}
	return nil
}

// advance is a read-modify-write: each turn decodes what it read and
// writes what it computed from it, so a lost race starts over.
func (q *queue) advance(ctx context.Context, index int64) error {
	key := entryKey(index)
	for {
		resp, err := q.cli.Get(ctx, key)
		if err != nil {
			return err
		}
		if len(resp.Kvs) == 0 {
			return errNotFound
		}
		var en entry
		if err := json.Unmarshal(resp.Kvs[0].Value, &en); err != nil {
			return err
		}
		en.Step++
		data, err := json.Marshal(&en)
		if err != nil {
			return err
		}
		txn, err := q.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", resp.Kvs[0].ModRevision)).
			Then(clientv3.OpPut(key, string(data))).
			Commit()
		if err != nil {
			return err
		}
		if txn.Succeeded {
			return nil
		}
	}
}

// setStatus writes a fixed status, but looks at the stored one on every
// turn first: it decides again after each lost race.
func (q *queue) setStatus(ctx context.Context, index int64, status string) error {
	key := entryKey(index) + "/status"
	for {
		resp, err := q.cli.Get(ctx, key)
		if err != nil {
			return err
		}
		if len(resp.Kvs) == 0 || string(resp.Kvs[0].Value) == "Deleted" {
			return errNotFound
		}
		txn, err := q.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", resp.Kvs[0].ModRevision)).
			Then(clientv3.OpPut(key, status)).
			Commit()
		if err != nil {
			return err
		}
		if txn.Succeeded {
			return nil
		}
	}
}

// sweep deletes each key at the revision it read, once: a key written
// since is left alone, not retried.
func (q *queue) sweep(ctx context.Context, keys []string) error {
	for _, key := range keys {
		resp, err := q.cli.Get(ctx, key)
		if err != nil {
			return err
		}
		if resp.Count == 0 {
			continue
		}
		_, err = q.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", resp.Kvs[0].ModRevision)).
			Then(clientv3.OpDelete(key)).
			Commit()
		if err != nil {
			return err
		}
	}
	return nil
}

// publish writes the rendered config under a ZooKeeper lock. Its version
// loop retries on ErrBadVersion with the data it was given.
func publish(conn *zk.Conn, path string, data []byte) error {
	l := zk.NewLock(conn, "/locks/config", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	for {
		_, stat, err := conn.Get(path)
		if err != nil {
			return err
		}
		_, err = conn.Set(path, data, stat.Version) // want `Conn.Set \(its version read afresh on every retry\) writes to ZooKeeper without a fencing token while the ZooKeeper lock taken by Lock.Lock \(line 169\) is held`
		if errors.Is(err, zk.ErrBadVersion) {
			continue
		}
		return err
	}
}

// bump increments a counter node under the lock: each turn computes what
// it writes from the data it read.
func bump(conn *zk.Conn, path string) error {
	l := zk.NewLock(conn, "/locks/config", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	for {
		old, stat, err := conn.Get(path)
		if err != nil {
			return err
		}
		next := append([]byte("+"), old...)
		_, err = conn.Set(path, next, stat.Version)
		if errors.Is(err, zk.ErrBadVersion) {
			continue
		}
		return err
	}
}

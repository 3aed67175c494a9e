// Package etcdbarrier registers workers under a prefix with keys of their
// own, bound to their leases: a membership list, not a lock. Nothing reads
// which key came first, so a write after the registration holds no lease
// (hard negatives). Its read-write lock puts its queue entries with the
// same helper, as etcd's recipes do: a put only some callers wait behind
// is no claim, so that lock is not read here either (a lock kept in its
// own helpers is: etcdqueuelock).
package etcdbarrier

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
)

type worker struct {
	cli *clientv3.Client
	id  string
}

// putUnique puts a key of the lease's own under prefix.
func (w *worker) putUnique(ctx context.Context, prefix string, leaseID clientv3.LeaseID) (int64, error) {
	key := fmt.Sprintf("%s/%v", prefix, leaseID)
	resp, err := w.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(key), "=", 0)).
		Then(clientv3.OpPut(key, w.id, clientv3.WithLease(leaseID))).
		Commit()
	if err != nil {
		return 0, err
	}
	if !resp.Succeeded {
		return 0, errors.New("already joined")
	}
	return resp.Header.Revision, nil
}

// start joins the members and then records the worker's start.
func (w *worker) start(ctx context.Context) error {
	lease, err := w.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if _, err := w.putUnique(ctx, "/members", lease.ID); err != nil {
		return err
	}
	members, err := w.cli.Get(ctx, "/members/", clientv3.WithPrefix())
	if err != nil {
		return err
	}
	_, err = w.cli.Put(ctx, "/workers/"+w.id+"/started", fmt.Sprint(len(members.Kvs)))
	return err
}

// lockRW waits until no writer key under prefix is older than its own.
func (w *worker) lockRW(ctx context.Context, prefix string, leaseID clientv3.LeaseID) error {
	rev, err := w.putUnique(ctx, prefix+"/write", leaseID)
	if err != nil {
		return err
	}
	for {
		ahead, err := w.cli.Get(ctx, prefix+"/", clientv3.WithPrefix(), clientv3.WithMaxModRev(rev-1))
		if err != nil {
			return err
		}
		if len(ahead.Kvs) == 0 {
			return nil
		}
	}
}

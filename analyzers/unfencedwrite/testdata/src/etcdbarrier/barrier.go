// Package etcdbarrier registers workers under a prefix with keys of their
// own, bound to their leases: a membership list, not a lock. Nothing reads
// which key came first, so a write after the registration holds no lease
// (hard negatives).
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

// join puts the worker's own key under the members prefix.
func (w *worker) join(ctx context.Context, leaseID clientv3.LeaseID) error {
	key := fmt.Sprintf("/members/%v", leaseID)
	resp, err := w.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(key), "=", 0)).
		Then(clientv3.OpPut(key, w.id, clientv3.WithLease(leaseID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errors.New("already joined")
	}
	return nil
}

// start joins and then records the worker's start.
func (w *worker) start(ctx context.Context) error {
	lease, err := w.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if err := w.join(ctx, lease.ID); err != nil {
		return err
	}
	members, err := w.cli.Get(ctx, "/members/", clientv3.WithPrefix())
	if err != nil {
		return err
	}
	_, err = w.cli.Put(ctx, "/workers/"+w.id+"/started", fmt.Sprint(len(members.Kvs)))
	return err
}

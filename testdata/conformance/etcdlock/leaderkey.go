package etcdlock

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/clientv3util"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Records writes only while the key it is given exists: the leader passes
// its own election key, which is deleted with its session.
type Records struct {
	cli *clientv3.Client
}

// Put commits only if leaderKey still exists.
func (r *Records) Put(ctx context.Context, leaderKey, key, value string) error {
	resp, err := r.cli.Txn(ctx).
		If(clientv3util.KeyExists(leaderKey)).
		Then(clientv3.OpPut(key, value)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errNotOwner
	}
	return nil
}

// Lead records under its own election key, and once under a flag's key,
// which exists for the next leader too.
func (r *Records) Lead(ctx context.Context, sess *concurrency.Session) error {
	e := concurrency.NewElection(sess, "/election/records")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	if err := r.Put(ctx, e.Key(), "/records/1", "done"); err != nil {
		return err
	}
	return r.Put(ctx, "/flags/enabled", "/records/2", "done") // want unfencedwrite:"without a fencing token"
}

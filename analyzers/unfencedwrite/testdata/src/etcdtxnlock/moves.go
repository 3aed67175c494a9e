package etcdtxnlock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/clientv3util"
)

var errLocked = errors.New("key range is being moved elsewhere")

// mover moves key ranges between shards, one range at a time under an
// operation lock: a key put with a lease only if it is missing and the
// range exists, read in the same transaction as the claim.
type mover struct{ cli *clientv3.Client }

func (m *mover) lockRange(ctx context.Context, id string) ([]byte, error) {
	lease, err := m.cli.Grant(ctx, 5)
	if err != nil {
		return nil, err
	}
	lockKey, rangeKey := "/ops/"+id, "/ranges/"+id
	resp, err := m.cli.Txn(ctx).
		If(clientv3util.KeyMissing(lockKey), clientv3util.KeyExists(rangeKey)).
		Then(clientv3.OpPut(lockKey, "lock", clientv3.WithLease(lease.ID)), clientv3.OpGet(rangeKey)).
		Commit()
	if err != nil {
		return nil, err
	}
	if !resp.Succeeded {
		return nil, errLocked
	}
	return []byte(id), nil
}

func (m *mover) move(ctx context.Context, id string) error {
	if _, err := m.lockRange(ctx, id); err != nil {
		return err
	}
	defer m.cli.Delete(ctx, "/ops/"+id)
	_, err := m.cli.Put(ctx, "/moves/"+id, "planned") // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by mover.lockRange`
	return err
}

func (m *mover) cache(ctx context.Context, key string, lease clientv3.LeaseID) error {
	resp, err := m.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(lease)), clientv3.OpGet(key)).
		Commit()
	if err != nil || !resp.Succeeded {
		return err
	}
	_, err = m.cli.Put(ctx, "/cached/"+key, "1")
	return err
}

const (
	opLocksNamespace = "/op_locks"
	shardsNamespace  = "/shards"
)

func opLockPath(id string) string { return path.Join(opLocksNamespace, id) }

func shardPath(id string) string { return path.Join(shardsNamespace, id) }

// lockShardOps takes a shard's operation lock, spelling its key with the
// same builder in the compare and in the put: one key.
func (m *mover) lockShardOps(ctx context.Context, id string) error {
	lease, err := m.cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	resp, err := m.cli.Txn(ctx).
		If(clientv3util.KeyMissing(opLockPath(id)), clientv3util.KeyExists(shardPath(id))).
		Then(clientv3.OpPut(opLockPath(id), "lock", clientv3.WithLease(lease.ID)), clientv3.OpGet(shardPath(id))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLocked
	}
	return nil
}

// unlockShardOps gives the lock up in a transaction of its own.
func (m *mover) unlockShardOps(ctx context.Context, id string) error {
	_, err := m.cli.Txn(ctx).Then(clientv3.OpDelete(opLockPath(id))).Commit()
	return err
}

func (m *mover) drain(ctx context.Context, id string) error {
	if err := m.lockShardOps(ctx, id); err != nil {
		return err
	}
	defer m.unlockShardOps(ctx, id)
	_, err := m.cli.Put(ctx, shardPath(id), "draining") // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by mover.lockShardOps`
	return err
}

// addShard creates a shard only if it is missing, spelling its key with
// the builder twice: a create, fenced by the compare (a hard negative).
func (m *mover) addShard(ctx context.Context, id, spec string) error {
	if err := m.lockShardOps(ctx, id); err != nil {
		return err
	}
	defer m.unlockShardOps(ctx, id)
	_, err := m.cli.Txn(ctx).
		If(clientv3util.KeyMissing(shardPath(id))).
		Then(clientv3.OpPut(shardPath(id), spec)).
		Commit()
	return err
}

func markPath(key string) string { return path.Join("/marks", key) }

// markShard puts a marker only where none is, naming it with nested
// builders in the compare and in the put: a create (a hard negative).
func (m *mover) markShard(ctx context.Context, id string) error {
	if err := m.lockShardOps(ctx, id); err != nil {
		return err
	}
	defer m.unlockShardOps(ctx, id)
	_, err := m.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(markPath(shardPath(id))), "=", 0)).
		Then(clientv3.OpPut(markPath(shardPath(id)), "marked")).
		Commit()
	return err
}

func splitLockPath(id string) string { return path.Join("/split_locks", id) }

// lockSplit claims a shard's split lock. When the claim fails it revokes
// the lease, then tells from the Else's read why; a path the checker
// cannot rule out falls through to the success return, but the revoke
// let go of nothing held.
func (m *mover) lockSplit(ctx context.Context, id string) (int64, error) {
	lease, err := m.cli.Grant(ctx, 5)
	if err != nil {
		return 0, err
	}
	resp, err := m.cli.Txn(ctx).
		If(clientv3util.KeyMissing(splitLockPath(id))).
		Then(clientv3.OpPut(splitLockPath(id), "lock", clientv3.WithLease(lease.ID)), clientv3.OpGet(shardPath(id))).
		Else(clientv3.OpGet(splitLockPath(id))).
		Commit()
	if err != nil {
		return 0, err
	}
	if !resp.Succeeded {
		if _, err := m.cli.Revoke(ctx, lease.ID); err != nil {
			return 0, err
		}
		if len(resp.Responses) == 1 { // the Else's read of the lock key
			return 0, errLocked
		}
	}
	if len(resp.Responses) != 2 {
		return 0, errors.New("split lock: unexpected responses")
	}
	return resp.Header.Revision, nil
}

func (m *mover) split(ctx context.Context, id, at string) error {
	if _, err := m.lockSplit(ctx, id); err != nil {
		return err
	}
	defer m.cli.Delete(ctx, splitLockPath(id))
	_, err := m.cli.Put(ctx, shardPath(id)+"/split", at) // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by mover.lockSplit`
	return err
}

// queueMutex is etcd's Mutex recipe, copied into an application: the put
// only queues the caller under the prefix, and the range read beside it
// tells who owns the lock; the put's success is no claim (a hard
// negative: fencelint reads no lock here, the library's Mutex is
// catalogued).
func (m *mover) queueMutex(ctx context.Context, pfx, myKey string, lease clientv3.LeaseID) error {
	resp, err := m.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(myKey), "=", 0)).
		Then(clientv3.OpPut(myKey, "", clientv3.WithLease(lease)), clientv3.OpGet(pfx, clientv3.WithPrefix())).
		Commit()
	if err != nil || !resp.Succeeded {
		return err
	}
	_, err = m.cli.Put(ctx, "/queued/"+myKey, "1")
	return err
}

// enqueue puts a key of its own under the queue's prefix only if it is
// new, as etcd's recipes do (putNewKV): each caller's key is unique, so
// the put excludes no one, and the writes after it are under no lock (a
// hard negative).
func (m *mover) enqueue(ctx context.Context, prefix string, lease clientv3.LeaseID) error {
	key := fmt.Sprintf("%s/%v", prefix, time.Now().UnixNano())
	resp, err := m.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(lease))).
		Commit()
	if err != nil || !resp.Succeeded {
		return err
	}
	_, err = m.cli.Put(ctx, prefix+"/ready", "1")
	return err
}

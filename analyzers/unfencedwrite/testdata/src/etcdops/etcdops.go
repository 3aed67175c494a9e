// Package etcdops runs etcd Ops with KV.Do under an etcd mutex: the Op,
// not the call, says whether it writes.
package etcdops

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

const prefix = "/app/"

type store struct {
	cli *clientv3.Client
	kv  clientv3.KV
}

// lock takes the mutex and returns it held.
func (s *store) lock(ctx context.Context, sess *concurrency.Session) (*concurrency.Mutex, error) {
	m := concurrency.NewMutex(sess, "/locks/app")
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// prefixOp is etcd's namespace KV helper: it moves a plain Op's keys under
// the prefix (an Op's methods never change its kind) and rebuilds a Txn
// from its own parts.
func prefixOp(op clientv3.Op) clientv3.Op {
	if !op.IsTxn() {
		op.WithKeyBytes(append([]byte(prefix), op.KeyBytes()...))
		return op
	}
	cmps, thenOps, elseOps := op.Txn()
	return clientv3.OpTxn(cmps, prefixOps(thenOps), prefixOps(elseOps))
}

func prefixOps(ops []clientv3.Op) []clientv3.Op {
	out := make([]clientv3.Op, len(ops))
	for i := range ops {
		out[i] = prefixOp(ops[i])
	}
	return out
}

// getOp builds the read of one key.
func getOp(key string) clientv3.Op { return clientv3.OpGet(prefix + key) }

// inTxn wraps any Op in a transaction: a Txn is a write, whatever it holds.
func inTxn(op clientv3.Op) clientv3.Op {
	return clientv3.OpTxn(nil, []clientv3.Op{op}, nil)
}

// reads runs only Gets under the lock: nothing is written, nothing to
// fence (hard negatives).
func (s *store) reads(ctx context.Context, sess *concurrency.Session, key string, byPrefix bool) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.cli.Do(ctx, clientv3.OpGet(key)); err != nil {
		return err
	}
	if _, err := s.kv.Do(ctx, getOp(key)); err != nil {
		return err
	}
	if _, err := s.kv.Do(ctx, prefixOp(clientv3.OpGet(key))); err != nil {
		return err
	}
	op := clientv3.OpGet(key)
	if byPrefix {
		op = clientv3.OpGet(key, clientv3.WithPrefix())
	}
	op.WithKeyBytes([]byte(prefix + key))
	_, err = s.kv.Do(ctx, op)
	return err
}

// writes runs Puts, Deletes and Txns under the lock with no fence.
func (s *store) writes(ctx context.Context, sess *concurrency.Session, key, val string, del bool) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.cli.Do(ctx, clientv3.OpPut(key, val)); err != nil { // want `KV.Do writes to etcd without a fencing token while the etcd lock taken by store.lock \(line \d+\) is held`
		return err
	}
	if _, err := s.kv.Do(ctx, prefixOp(clientv3.OpDelete(key))); err != nil { // want `KV.Do writes to etcd without a fencing token`
		return err
	}
	if _, err := s.kv.Do(ctx, inTxn(getOp(key))); err != nil { // want `KV.Do writes to etcd without a fencing token`
		return err
	}
	op := clientv3.OpGet(key)
	if del {
		op = clientv3.OpDelete(key) // one path writes
	}
	_, err = s.kv.Do(ctx, op) // want `KV.Do writes to etcd without a fencing token`
	return err
}

// run runs an Op its caller built: fencelint cannot tell what it does, so
// it stays a write.
func (s *store) run(ctx context.Context, sess *concurrency.Session, op clientv3.Op) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = s.kv.Do(ctx, op) // want `KV.Do writes to etcd without a fencing token`
	return err
}

// snapshot reads two keys at one revision with a Txn of Gets, as
// Kubernetes' storage and many controllers do: a Commit that writes
// nothing (hard negatives, also with compares and an Else).
func (s *store) snapshot(ctx context.Context, sess *concurrency.Session, key string) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.cli.Txn(ctx).Then(clientv3.OpGet(key), getOp(key+"/spec")).Commit(); err != nil {
		return err
	}
	txn := s.kv.Txn(ctx).If(clientv3.Compare(clientv3.Version(key), ">", 0))
	_, err = txn.Then(clientv3.OpGet(key)).Else(clientv3.OpGet(key + "/default")).Commit()
	return err
}

// batchRead reads many keys at one revision, ten Gets a Txn, as agola's
// GetExecutorTasksForRun does: the ops are appended in a loop, and all of
// them read (a hard negative).
func (s *store) batchRead(ctx context.Context, sess *concurrency.Session, keys []string, rev int64) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for i := 0; i < len(keys); {
		ops := []clientv3.Op{}
		for c := 0; c < 10 && i < len(keys); c++ {
			ops = append(ops, clientv3.OpGet(keys[i], clientv3.WithRev(rev)))
			i++
		}
		if _, err := s.cli.Txn(ctx).Then(ops...).Commit(); err != nil {
			return err
		}
	}
	return nil
}

// batchMark appends a put to the Gets it batches: that Txn writes.
func (s *store) batchMark(ctx context.Context, sess *concurrency.Session, keys []string, val string) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	var ops []clientv3.Op
	for _, k := range keys {
		ops = append(ops, clientv3.OpGet(k))
	}
	ops = append(ops, clientv3.OpPut(prefix+"marked", val))
	_, err = s.cli.Txn(ctx).Then(ops...).Commit() // want `Txn.Commit writes to etcd without a fencing token`
	return err
}

// txnWrites commits Txns that write, or whose ops fencelint cannot see,
// under the lock with no fence.
func (s *store) txnWrites(ctx context.Context, sess *concurrency.Session, key, val string, ops []clientv3.Op, txn clientv3.Txn) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.cli.Txn(ctx).Then(clientv3.OpGet(key), clientv3.OpPut(key+"/seen", val)).Commit(); err != nil { // want `Txn.Commit writes to etcd without a fencing token`
		return err
	}
	if _, err := s.kv.Txn(ctx).Then(clientv3.OpGet(key)).Else(clientv3.OpDelete(key)).Commit(); err != nil { // want `Txn.Commit writes to etcd without a fencing token`
		return err
	}
	if _, err := s.kv.Txn(ctx).Then(ops...).Commit(); err != nil { // want `Txn.Commit writes to etcd without a fencing token`
		return err
	}
	_, err = txn.Then(clientv3.OpGet(key)).Commit() // want `Txn.Commit writes to etcd without a fencing token`
	return err
}

// underRedsync writes etcd under a redsync lock: the advice cannot be the
// etcd Mutex's IsOwner, which this lease has not; the store compares a
// token itself.
func (s *store) underRedsync(ctx context.Context, rs *redsync.Redsync, key, val string) error {
	m := rs.NewMutex("lock:" + key)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := s.kv.Put(ctx, key, val) // want `KV.Put writes to etcd without a fencing token while the redsync lock taken by Mutex.LockContext \(line \d+\) is held: .*; fence it: keep the lease's fencing token in a key and commit in Txn\(ctx\)\.If\(clientv3\.Compare\(clientv3\.Value\(fenceKey\), "<", token\)\)`
	return err
}

// existence commits Txns whose If checks the key they write. Create-if-
// absent cannot overwrite the next holder's key; update-if-exists can,
// since the next holder's write leaves the key existing.
func (s *store) existence(ctx context.Context, sess *concurrency.Session, key, val string) error {
	m, err := s.lock(ctx, sess)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.kv.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).Then(clientv3.OpPut(key, val)).Commit(); err != nil {
		return err
	}
	if _, err := s.kv.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), ">", 0)).Then(clientv3.OpPut(key, val)).Commit(); err != nil { // want `Txn.Commit writes to etcd without a fencing token`
		return err
	}
	if _, err := s.kv.Txn(ctx).If(clientv3.Compare(clientv3.Version(key), "!=", 0)).Then(clientv3.OpDelete(key)).Commit(); err != nil { // want `Txn.Commit writes to etcd without a fencing token`
		return err
	}
	// The lock key's own revision is ownership, whatever the operator.
	_, err = s.kv.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(m.Key()), ">", 0)).Then(clientv3.OpPut(key, val)).Commit()
	return err
}

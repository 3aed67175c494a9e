package etcdqueuelock

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var ErrLocked = errors.New("mutex: locked by another session")

// Mutex is a copy of etcd's concurrency.Mutex with a TryLock, as
// applications vendored it before etcd had one: the oldest key under the
// prefix holds the lock.
type Mutex struct {
	s     *concurrency.Session
	pfx   string
	myKey string
	myRev int64
}

func NewMutex(s *concurrency.Session, pfx string) *Mutex {
	return &Mutex{s, pfx + "/", "", -1}
}

func (m *Mutex) tryAcquire(ctx context.Context) (*clientv3.TxnResponse, error) {
	client := m.s.Client()
	m.myKey = fmt.Sprintf("%s%x", m.pfx, m.s.Lease())
	cmp := clientv3.Compare(clientv3.CreateRevision(m.myKey), "=", 0)
	put := clientv3.OpPut(m.myKey, "", clientv3.WithLease(m.s.Lease()))
	get := clientv3.OpGet(m.myKey)
	getOwner := clientv3.OpGet(m.pfx, clientv3.WithFirstCreate()...)
	resp, err := client.Txn(ctx).If(cmp).Then(put, getOwner).Else(get, getOwner).Commit()
	if err != nil {
		return nil, err
	}
	m.myRev = resp.Header.Revision
	if !resp.Succeeded {
		m.myRev = resp.Responses[0].GetResponseRange().Kvs[0].CreateRevision
	}
	return resp, nil
}

// TryLock locks the mutex if no other session holds it.
func (m *Mutex) TryLock(ctx context.Context) error {
	resp, err := m.tryAcquire(ctx)
	if err != nil {
		return err
	}
	ownerKey := resp.Responses[1].GetResponseRange().Kvs
	if len(ownerKey) == 0 || ownerKey[0].CreateRevision == m.myRev {
		return nil
	}
	if _, err := m.s.Client().Delete(ctx, m.myKey); err != nil {
		return err
	}
	m.myKey = "\x00"
	m.myRev = -1
	return ErrLocked
}

// Unlock deletes the mutex's key.
func (m *Mutex) Unlock(ctx context.Context) error {
	if _, err := m.s.Client().Delete(ctx, m.myKey); err != nil {
		return err
	}
	m.myKey = "\x00"
	m.myRev = -1
	return nil
}

// IsOwner compares the mutex's key with the revision that created it.
func (m *Mutex) IsOwner() clientv3.Cmp {
	return clientv3.Compare(clientv3.CreateRevision(m.myKey), "=", m.myRev)
}

type checkpointer struct {
	session *concurrency.Session
}

// checkpoint publishes the checkpointed sequence under the checkpoint
// mutex with a plain Put.
func (c *checkpointer) checkpoint(ctx context.Context, seq string) error {
	m := NewMutex(c.session, "/locks/checkpoint")
	if err := m.TryLock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := c.session.Client().Put(ctx, "/checkpoint/seq", seq) // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by Mutex.TryLock \(line \d+\) is held`
	return err
}

// checkpointFenced commits the sequence only while the mutex's key is
// still the one it created (a hard negative).
func (c *checkpointer) checkpointFenced(ctx context.Context, seq string) error {
	m := NewMutex(c.session, "/locks/checkpoint")
	if err := m.TryLock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := c.session.Client().Txn(ctx).
		If(m.IsOwner()).
		Then(clientv3.OpPut("/checkpoint/seq", seq)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return ErrLocked
	}
	return nil
}

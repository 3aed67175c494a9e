// Package caridlock is a registry's account store on etcd through
// go-chassis's dlock and the etcdadpt adapter, compiled against the real
// modules.
package caridlock

import (
	"context"
	"errors"

	"github.com/go-chassis/cari/dlock"
	"github.com/little-cui/etcdadpt"
)

var errExists = errors.New("already exists")

// CreateAccount checks the name and puts the account with no compare.
func CreateAccount(ctx context.Context, name string, value []byte) error {
	lockKey := "/account-creating/" + name
	if err := dlock.TryLock(lockKey, -1); err != nil {
		return err
	}
	defer dlock.Unlock(lockKey)
	exist, err := etcdadpt.Exist(ctx, "/accounts/"+name)
	if err != nil {
		return err
	}
	if exist {
		return errExists
	}
	return etcdadpt.Txn(ctx, []etcdadpt.OpOptions{etcdadpt.OpPut(etcdadpt.WithStrKey("/accounts/"+name), etcdadpt.WithValue(value))}) // want unfencedwrite:"etcdadpt.Txn writes to etcd without a fencing token while the go-chassis dlock lock taken by dlock.TryLock"
}

// CreateRole puts only if the key is absent.
func CreateRole(ctx context.Context, name string, perms []byte) error {
	lockKey := "/role-creating/" + name
	if err := dlock.Instance().TryLock(lockKey, -1); err != nil {
		return err
	}
	defer dlock.Instance().Unlock(lockKey)
	resp, err := etcdadpt.Instance().TxnWithCmp(ctx,
		etcdadpt.Ops(etcdadpt.OpPut(etcdadpt.WithStrKey("/roles/"+name), etcdadpt.WithValue(perms))),
		etcdadpt.If(etcdadpt.NotExistKey("/roles/"+name)), nil)
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errExists
	}
	if _, err := etcdadpt.InsertBytes(ctx, "/roles-index/"+name, nil); err != nil {
		return err
	}
	return nil
}

// UpgradeVersion writes the version under the lock, asking the local map
// whether the lock is still held first.
func UpgradeVersion(ctx context.Context, version []byte) error {
	if err := dlock.Lock("/version-upgrade", -1); err != nil {
		return err
	}
	defer dlock.Unlock("/version-upgrade")
	if !dlock.IsHoldLock("/version-upgrade") { // want heldcheck:"dlock.IsHoldLock only tells that the lease was held when it ran"
		return nil
	}
	return etcdadpt.PutBytes(ctx, "/server", version) // want unfencedwrite:"etcdadpt.PutBytes writes to etcd without a fencing token"
}

// Adapter takes etcdadpt's own lock, renews it once and lets it go.
func Adapter(ctx context.Context) error {
	lock, err := etcdadpt.TryLock("/compact", 30)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if err := lock.Refresh(); err != nil {
		return err
	}
	_, err = etcdadpt.Delete(ctx, "/stale") // want unfencedwrite:"etcdadpt.Delete writes to etcd without a fencing token while the etcd lock taken by etcdadpt.TryLock"
	return err
}

// Rest names the other catalogued symbols: the writes under no lock, the
// acquires after them.
func Rest(ctx context.Context, lock *etcdadpt.DLock) {
	_ = lock.ID()
	_ = etcdadpt.Put(ctx, "k", "v")
	_, _ = etcdadpt.Insert(ctx, "k", "v")
	_, _ = etcdadpt.PutBytesAndGet(ctx, "k", nil)
	_, _ = etcdadpt.DeleteMany(ctx)
	_, _ = etcdadpt.ListAndDelete(ctx, "k")
	_, _ = etcdadpt.ListAndDeleteMany(ctx)
	_, _ = etcdadpt.TxnWithCmp(ctx, nil, nil, nil)
	_, _ = etcdadpt.Instance().Txn(ctx, nil)
	_ = dlock.Renew("/other")
	_ = dlock.Instance().Renew("/other")
	_ = dlock.Instance().IsHoldLock("/other")
	_, _ = etcdadpt.Lock("/other", 30)
	_ = dlock.Instance().Lock("/other", 30)
}

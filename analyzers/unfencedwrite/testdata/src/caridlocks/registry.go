// Package caridlocks is a service registry's account and role store on
// etcd through go-chassis's dlock and the etcdadpt adapter: each creation
// takes a dlock per name (an etcd key put with a lease of its TTL, never
// renewed here) so that checking for the name and creating it happen once
// across instances.
package caridlocks

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/go-chassis/cari/dlock"
	"github.com/little-cui/etcdadpt"
)

var errExists = errors.New("already exists")

type account struct {
	Name     string   `json:"name"`
	Password string   `json:"password"`
	Roles    []string `json:"roles"`
}

func accountKey(name string) string { return "/cse-sr/accounts/" + name }
func roleKey(name string) string    { return "/cse-sr/roles/" + name }

// createAccount checks that the name is free and puts the account in one
// transaction with no compare: a creator whose lock lapsed after its check
// replaces the account the next holder created.
func createAccount(ctx context.Context, a *account) error {
	lockKey := "/account-creating/" + a.Name
	if err := dlock.TryLock(lockKey, -1); err != nil {
		return err
	}
	defer dlock.Unlock(lockKey)
	exist, err := etcdadpt.Exist(ctx, accountKey(a.Name))
	if err != nil {
		return err
	}
	if exist {
		return errExists
	}
	value, err := json.Marshal(a)
	if err != nil {
		return err
	}
	ops := []etcdadpt.OpOptions{etcdadpt.OpPut(etcdadpt.WithStrKey(accountKey(a.Name)), etcdadpt.WithValue(value))}
	for _, r := range a.Roles {
		ops = append(ops, etcdadpt.OpPut(etcdadpt.WithStrKey("/cse-sr/idx-role-account/"+r+"/"+a.Name)))
	}
	return etcdadpt.Txn(ctx, ops) // want `etcdadpt.Txn writes to etcd without a fencing token while the go-chassis dlock lock taken by dlock.TryLock \(line 33\) is held`
}

// createRole lets etcd refuse a role that exists: the put runs only if
// the key is absent, whoever holds the lock.
func createRole(ctx context.Context, name string, perms []byte) error {
	lockKey := "/role-creating/" + name
	if err := dlock.TryLock(lockKey, -1); err != nil {
		return err
	}
	defer dlock.Unlock(lockKey)
	resp, err := etcdadpt.TxnWithCmp(ctx,
		etcdadpt.Ops(etcdadpt.OpPut(etcdadpt.WithStrKey(roleKey(name)), etcdadpt.WithValue(perms))),
		etcdadpt.If(etcdadpt.NotExistKey(roleKey(name))), nil)
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errExists
	}
	return nil
}

// createDefaultRole inserts if absent, the adapter's own create-only put.
func createDefaultRole(ctx context.Context, perms []byte) error {
	if err := dlock.Lock("/role-creating/admin", -1); err != nil {
		return err
	}
	defer dlock.Unlock("/role-creating/admin")
	ok, err := etcdadpt.InsertBytes(ctx, roleKey("admin"), perms)
	if err != nil {
		return err
	}
	if !ok {
		return errExists
	}
	return nil
}

// upgradeVersion records the cluster's server version under the upgrade
// lock, with no compare: an older instance that passed its version check
// and then stalled past the lease writes its older version back.
func upgradeVersion(ctx context.Context, version []byte) error {
	if err := dlock.Lock("/version-upgrade", -1); err != nil {
		return err
	}
	defer dlock.Unlock("/version-upgrade")
	return etcdadpt.PutBytes(ctx, "/cse-sr/server", version) // want `etcdadpt.PutBytes writes to etcd without a fencing token while the go-chassis dlock lock taken by dlock.Lock \(line 95\) is held: .*; fence it: commit with etcdadpt.TxnWithCmp and a compare etcd checks`
}

// retireRole deletes under the DLock that Instance returns, after the lock
// is let go: no lease is held at the delete.
func retireRole(ctx context.Context, name string) error {
	locker := dlock.Instance()
	if err := locker.TryLock("/role-retiring/"+name, 30); err != nil {
		return err
	}
	cleaned, err := etcdadpt.Instance().Txn(ctx, []etcdadpt.OpOptions{etcdadpt.OpDel(etcdadpt.WithStrKey("/cse-sr/idx-role/" + name))}) // want `Client.Txn writes to etcd without a fencing token while the go-chassis dlock lock taken by DLock.TryLock \(line 106\) is held`
	if err := locker.Unlock("/role-retiring/" + name); err != nil {
		return err
	}
	if err != nil || !cleaned.Succeeded {
		return err
	}
	_, err = etcdadpt.Delete(ctx, roleKey(name))
	return err
}

// compareVersion updates the role only over the version it read.
func compareVersion(ctx context.Context, name string, perms []byte, version int64) error {
	if err := dlock.TryLock("/role-updating/"+name, -1); err != nil {
		return err
	}
	defer dlock.Unlock("/role-updating/" + name)
	resp, err := etcdadpt.Instance().TxnWithCmp(ctx,
		etcdadpt.Ops(etcdadpt.OpPut(etcdadpt.WithStrKey(roleKey(name)), etcdadpt.WithValue(perms))),
		etcdadpt.If(etcdadpt.EqualVer(roleKey(name), version)), nil)
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errors.New("the role moved meanwhile")
	}
	return nil
}

// Package consullock runs a leader task under a Consul lock.
package consullock

import (
	"errors"

	"github.com/hashicorp/consul/api"
)

var errLost = errors.New("lost the lock")

// publish holds a Consul lock and writes with a plain KV Put.
func publish(client *api.Client, body []byte) error {
	lock, err := client.LockKey("service/report/leader")
	if err != nil {
		return err
	}
	lost, err := lock.Lock(nil)
	if err != nil || lost == nil {
		return err
	}
	defer lock.Unlock()
	_, err = client.KV().Put(&api.KVPair{Key: "report/latest", Value: body}, nil) // want `KV.Put writes to Consul without a fencing token while the Consul lock taken by Lock.Lock \(line 18\) is held: .*KV.CAS`
	return err
}

// publishChecked writes in a Txn whose first op checks the lock's session.
func publishChecked(client *api.Client, session string, body []byte) error {
	lock, err := client.LockKey("service/report/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	ok, _, _, err := client.Txn().Txn(api.TxnOps{
		{KV: &api.KVTxnOp{Verb: api.KVCheckSession, Key: "service/report/leader", Session: session}},
		{KV: &api.KVTxnOp{Verb: api.KVSet, Key: "report/latest", Value: body}},
	}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	return nil
}

// publishCAS writes with check-and-set on the index it read.
func publishCAS(client *api.Client, body []byte) error {
	lock, err := client.LockKey("service/report/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	pair, _, err := client.KV().Get("report/latest", nil)
	if err != nil {
		return err
	}
	ok, _, err := client.KV().CAS(&api.KVPair{Key: "report/latest", Value: body, ModifyIndex: pair.ModifyIndex}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	return nil
}

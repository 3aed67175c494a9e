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

// hostOps builds the ops that register a host: the first checks that the
// host is not there yet, so the Txn is create-if-absent.
func hostOps(host string, body []byte) api.KVTxnOps {
	return api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVCheckNotExists, Key: "hosts/" + host + "/status"},
		&api.KVTxnOp{Verb: api.KVSet, Key: "hosts/" + host + "/status", Value: []byte("free")},
		&api.KVTxnOp{Verb: api.KVSet, Key: "hosts/" + host + "/spec", Value: body},
	}
}

// removeHostOps builds the ops that delete a host's keys.
func removeHostOps(host string) (api.KVTxnOps, error) {
	return api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVDeleteTree, Key: "hosts/" + host + "/"},
	}, nil
}

// statusOps builds plain sets: nothing in them is checked.
func statusOps(host, status string) (api.KVTxnOps, error) {
	ops := api.KVTxnOps{&api.KVTxnOp{Verb: api.KVSet, Key: "hosts/" + host + "/status", Value: []byte(status)}}
	return ops, nil
}

// addHost registers a host with ops a helper built: a stale holder's Txn
// fails on the check-not-exists op once the host exists.
func addHost(client *api.Client, host string, body []byte) error {
	ops := hostOps(host, body)
	lock, err := client.LockKey("hosts/.lock")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	ok, _, _, err := client.KV().Txn(ops, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errLost
	}
	return nil
}

// addHostInline builds the create-if-absent ops itself.
func addHostInline(client *api.Client, host string, body []byte) error {
	lock, err := client.LockKey("hosts/.lock")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	ok, _, _, err := client.KV().Txn(api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVCheckNotExists, Key: "hosts/" + host + "/spec"},
		&api.KVTxnOp{Verb: api.KVSet, Key: "hosts/" + host + "/spec", Value: body},
	}, nil)
	if err != nil || !ok {
		return errLost
	}
	return nil
}

// setStatusCAS writes the status with a cas op on the index it read.
func setStatusCAS(client *api.Client, host string, index uint64) error {
	lock, err := client.LockKey("hosts/.lock")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	ok, _, _, err := client.KV().Txn(api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVCAS, Key: "hosts/" + host + "/status", Value: []byte("allocated"), Index: index},
	}, nil)
	if err != nil || !ok {
		return errLost
	}
	return nil
}

// replaceHosts deletes each host and registers it again in one Txn: the
// delete empties the key, so the check-not-exists that follows it always
// passes and a stale holder's Txn rewrites the hosts.
func replaceHosts(client *api.Client, hosts []string, body []byte) error {
	lock, err := client.LockKey("hosts/.lock")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	var ops api.KVTxnOps
	for _, h := range hosts {
		rm, err := removeHostOps(h)
		if err != nil {
			return err
		}
		ops = append(ops, rm...)
		ops = append(ops, hostOps(h, body)...)
	}
	_, _, _, err = client.KV().Txn(ops, nil) // want `KV.Txn writes to Consul without a fencing token while the Consul lock taken by Lock.Lock \(line \d+\) is held`
	return err
}

// setStatus writes plain sets a helper built.
func setStatus(client *api.Client, host string) error {
	lock, err := client.LockKey("hosts/.lock")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil {
		return err
	}
	defer lock.Unlock()
	ops, err := statusOps(host, "allocated")
	if err != nil {
		return err
	}
	_, _, _, err = client.KV().Txn(ops, nil) // want `KV.Txn writes to Consul without a fencing token while the Consul lock taken by Lock.Lock \(line \d+\) is held`
	return err
}

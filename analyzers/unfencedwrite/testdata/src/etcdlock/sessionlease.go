package etcdlock

import (
	"context"
	"encoding/json"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// serverStatus is what the leader publishes on every turn, as cke's
// controller does.
type serverStatus struct {
	Phase     string
	Timestamp time.Time
}

// statusStore keeps the leader's status; the key lives as long as the
// lease it is put with.
type statusStore struct{ cli *clientv3.Client }

func (s statusStore) setStatus(ctx context.Context, lease clientv3.LeaseID, st serverStatus) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = s.cli.Put(ctx, "/status", string(data), clientv3.WithLease(lease))
	return err
}

// runLeader publishes its status bound to its session's lease, which its
// election key is bound to as well: etcd refuses the put once the lease is
// gone. The status put with a lease granted for it alone, and the phase
// put with none, land after the election is lost.
func (r *reconciler) runLeader(ctx context.Context, s *concurrency.Session) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	store := statusStore{cli: r.cli}
	if err := store.setStatus(ctx, s.Lease(), serverStatus{Phase: "running", Timestamp: time.Now()}); err != nil {
		return err
	}
	lease := s.Lease()
	if _, err := r.cli.Put(ctx, "/status/at", time.Now().String(), clientv3.WithLease(lease)); err != nil {
		return err
	}
	grant, err := r.cli.Grant(ctx, 60)
	if err != nil {
		return err
	}
	if err := store.setStatus(ctx, grant.ID, serverStatus{Phase: "reconciling"}); err != nil { // want `statusStore.setStatus \(KV.Put at sessionlease.go:\d+\) writes to etcd without a fencing token while the etcd lock taken by Election.Campaign`
		return err
	}
	_, err = r.cli.Put(ctx, "/status/phase", "reconciling") // want `KV.Put writes to etcd without a fencing token while the etcd lock taken by Election.Campaign`
	return err
}

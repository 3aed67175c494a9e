package etcdlock

import (
	"context"
	"encoding/json"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Status is what a leader publishes about itself.
type Status struct {
	Phase string `json:"phase"`
}

// StatusStore keeps statuses under keys that live as long as the lease
// they are put with.
type StatusStore struct {
	cli *clientv3.Client
}

// Set puts the status bound to lease.
func (s StatusStore) Set(ctx context.Context, key string, lease clientv3.LeaseID, st Status) error {
	body, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = s.cli.Put(ctx, key, string(body), clientv3.WithLease(lease))
	return err
}

// Publish runs under an election on session and publishes its status with
// the session's lease, which its election key is bound to too: once the
// lease is gone, etcd refuses the put. The status put with a lease of its
// own is not fenced by the election.
func (s StatusStore) Publish(ctx context.Context, session *concurrency.Session) error {
	e := concurrency.NewElection(session, "/publisher/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(context.Background())
	if err := s.Set(ctx, "/publisher/status", session.Lease(), Status{Phase: "leading"}); err != nil {
		return err
	}
	if _, err := s.cli.Put(ctx, "/publisher/heartbeat", "1", clientv3.WithLease(session.Lease())); err != nil {
		return err
	}
	grant, err := s.cli.Grant(ctx, 30)
	if err != nil {
		return err
	}
	return s.Set(ctx, "/publisher/phase", grant.ID, Status{Phase: "reconciling"}) // want unfencedwrite:"without a fencing token"
}

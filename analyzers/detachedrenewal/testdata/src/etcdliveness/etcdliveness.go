// Package etcdliveness keeps etcd leases alive by hand: some are locks (a
// key put with the lease only if it is absent, a session), some only keep
// a node's registration and its running-job records alive.
package etcdliveness

import (
	"context"
	"database/sql"
	"log"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type client struct {
	cli *clientv3.Client
}

// keepAliveOnce renews the lease it is handed: its callers say which.
func (c *client) keepAliveOnce(id clientv3.LeaseID) error {
	_, err := c.cli.KeepAliveOnce(context.Background(), id)
	return err
}

// put writes a key with the options it is handed.
func (c *client) put(key, val string, opts ...clientv3.OpOption) error {
	_, err := c.cli.Put(context.Background(), key, val, opts...)
	return err
}

// registry keeps this node's registration and its running jobs under a
// lease: when the node dies, they vanish. No lock is made from the lease.
type registry struct {
	c    *client
	node string
	id   clientv3.LeaseID
}

func (r *registry) register(ctx context.Context) error {
	resp, err := r.c.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	r.id = resp.ID
	if _, err := r.c.cli.Put(ctx, "/nodes/"+r.node, r.node, clientv3.WithLease(resp.ID)); err != nil {
		return err
	}
	go r.heartbeat() // a liveness lease: its failure loses no write
	return nil
}

// heartbeat renews the registration and only logs when that fails: the
// node's keys lapse, and no holder was kept out by them.
func (r *registry) heartbeat() {
	for range time.Tick(3 * time.Second) {
		if err := r.c.keepAliveOnce(r.lease()); err != nil {
			log.Printf("registration lapsed: %v", err)
		}
	}
}

func (r *registry) lease() clientv3.LeaseID { return r.id }

// running records a job this node runs, gone with the node.
func (r *registry) running(job string) error {
	return r.c.put("/running/"+r.node+"/"+job, time.Now().String(), clientv3.WithLease(r.lease()))
}

// jobLock is a lock by hand: the lock key is put with the lease only if
// it does not exist yet.
type jobLock struct {
	c  *client
	db *sql.DB
	id clientv3.LeaseID
}

func (l *jobLock) tryLock(ctx context.Context, key string, id clientv3.LeaseID) (bool, error) {
	resp, err := l.c.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(id))).
		Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

func (l *jobLock) run(ctx context.Context, job string) error {
	resp, err := l.c.cli.Grant(ctx, 30)
	if err != nil {
		return err
	}
	ok, err := l.tryLock(ctx, "/locks/"+job, resp.ID)
	if err != nil || !ok {
		return err
	}
	l.id = resp.ID
	go l.keepAlive() // want `this goroutine renews the etcd lock with client.keepAliveOnce \(line \d+\), but the work never hears when renewal fails`
	_, err = l.db.ExecContext(ctx, `UPDATE jobs SET last_run = now() WHERE name = $1`, job)
	return err
}

// keepAlive gives up on the first failure, and the job never hears.
func (l *jobLock) keepAlive() {
	for range time.Tick(10 * time.Second) {
		if err := l.c.keepAliveOnce(l.id); err != nil {
			log.Printf("lock lease lost: %v", err)
			return
		}
	}
}

// member registers itself on its lease and also campaigns with a session
// made on the same lease: that lease is a lock.
type member struct {
	c  *client
	db *sql.DB
	id clientv3.LeaseID
}

func (m *member) lead(ctx context.Context, name string) error {
	resp, err := m.c.cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	m.id = resp.ID
	if err := m.c.put("/members/"+name, name, clientv3.WithLease(m.id)); err != nil {
		return err
	}
	s, err := concurrency.NewSession(m.c.cli, concurrency.WithLease(m.id)) // want `nothing waits on this etcd session's Done\(\)`
	if err != nil {
		return err
	}
	mu := concurrency.NewMutex(s, "/leader")
	if err := mu.Lock(ctx); err != nil {
		return err
	}
	go m.keepAlive() // want `this goroutine renews the etcd lock with Lease.KeepAliveOnce`
	_, err = m.db.ExecContext(ctx, `UPDATE leader SET name = $1`, name)
	return err
}

func (m *member) keepAlive() {
	for {
		if _, err := m.c.cli.KeepAliveOnce(context.Background(), m.id); err != nil {
			log.Print(err)
			return
		}
		time.Sleep(3 * time.Second)
	}
}

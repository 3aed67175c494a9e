// Package renewals keeps leases alive by hand and through the libraries'
// own renewal, and connects (or fails to connect) a lost lease to the work:
// detachedrenewal's cases against the real modules.
package renewals

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/hashicorp/consul/api"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"k8s.io/client-go/tools/leaderelection"
)

var errLost = errors.New("lost the lease")

// Worker writes rows under a lease.
type Worker struct {
	db     *sql.DB
	rs     *redsync.Redsync
	locker *redislock.Client
	etcd   *clientv3.Client
	consul *api.Client
}

// ExtendLogged extends a redsync mutex and only logs when that fails.
func (w *Worker) ExtendLogged(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("rows", redsync.WithExpiry(8*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	go func() { // want detachedrenewal:"never hears"
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for range t.C {
			if ok, err := m.ExtendContext(ctx); !ok || err != nil {
				log.Printf("extend: ok=%v err=%v", ok, err)
				return
			}
		}
	}()
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// ExtendCancels cancels the inserts when an extension fails.
func (w *Worker) ExtendCancels(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("rows", redsync.WithExpiry(8*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ok, err := m.ExtendContext(ctx); !ok || err != nil {
					cancel(errLost)
					return
				}
			}
		}
	}()
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// RefreshClosesLost closes a channel the insert loop checks.
func (w *Worker) RefreshClosesLost(ctx context.Context, rows []string) error {
	lock, err := w.locker.Obtain(ctx, "rows", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	lost := make(chan struct{})
	go func() {
		defer close(lost)
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				return
			}
		}
	}()
	for _, r := range rows {
		select {
		case <-lost:
			return errLost
		default:
		}
		if _, err := w.db.ExecContext(ctx, `INSERT INTO rows (name) VALUES ($1)`, r); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	return nil
}

// KeepAliveOnceIgnored renews an etcd lease by hand and ignores failures.
func (w *Worker) KeepAliveOnceIgnored(ctx context.Context, id clientv3.LeaseID) {
	go func() { // want detachedrenewal:"never hears"
		for {
			time.Sleep(3 * time.Second)
			if _, err := w.etcd.KeepAliveOnce(ctx, id); err != nil {
				log.Printf("keepalive: %v", err)
			}
		}
	}()
}

// Registered keeps this worker's registration key alive by hand and only
// logs when that fails: the lease rides on a plain Put and no lock is made
// from it, so its lapse keeps no one out and loses no write.
func (w *Worker) Registered(ctx context.Context, name string) error {
	lease, err := w.etcd.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if _, err := w.etcd.Put(ctx, "/workers/"+name, name, clientv3.WithLease(lease.ID)); err != nil {
		return err
	}
	go func() {
		for range time.Tick(3 * time.Second) {
			if _, err := w.etcd.KeepAliveOnce(ctx, lease.ID); err != nil {
				log.Printf("registration: %v", err)
			}
		}
	}()
	return nil
}

// LockedByHand makes a lock of its lease (the key is put with it only if
// absent) and keeps the lease alive in a goroutine that only logs.
func (w *Worker) LockedByHand(ctx context.Context) error {
	lease, err := w.etcd.Grant(ctx, 10)
	if err != nil {
		return err
	}
	resp, err := w.etcd.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/locks/rows"), "=", 0)).
		Then(clientv3.OpPut("/locks/rows", "", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil || !resp.Succeeded {
		return errLost
	}
	go func() { // want detachedrenewal:"never hears"
		for range time.Tick(3 * time.Second) {
			if _, err := w.etcd.KeepAliveOnce(ctx, lease.ID); err != nil {
				log.Printf("keepalive: %v", err)
			}
		}
	}()
	return nil
}

// SessionSelected stops the loop when the etcd session ends.
func (w *Worker) SessionSelected(ctx context.Context, jobs <-chan string) error {
	s, err := concurrency.NewSession(w.etcd, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/rows")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for {
		select {
		case <-s.Done():
			return errLost
		case j := <-jobs:
			if _, err := w.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil { // want unfencedwrite:"without a fencing token"
				return err
			}
		}
	}
}

// RenewPeriodicDropped renews a Consul session in a goroutine whose error
// goes nowhere.
func (w *Worker) RenewPeriodicDropped(ctx context.Context, rows []string) error {
	id, _, err := w.consul.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go w.consul.Session().RenewPeriodic("10s", id, nil, done) // want detachedrenewal:"never hears"
	return w.insert(ctx, rows)
}

// RenewPeriodicCancels ties renewal and work together both ways.
func (w *Worker) RenewPeriodicCancels(ctx context.Context, rows []string) error {
	id, _, err := w.consul.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		cancel(w.consul.Session().RenewPeriodic("10s", id, nil, ctx.Done()))
	}()
	return w.insert(ctx, rows)
}

// SemaphoreSelected stops when the semaphore slot is lost.
func (w *Worker) SemaphoreSelected(ctx context.Context, rows <-chan string) error {
	sem, err := w.consul.SemaphorePrefix("service/rows/", 2)
	if err != nil {
		return err
	}
	lost, err := sem.Acquire(nil)
	if err != nil || lost == nil {
		return errLost
	}
	defer sem.Release()
	for {
		select {
		case <-lost:
			return errLost
		case r := <-rows:
			if _, err := w.db.ExecContext(ctx, `INSERT INTO rows (name) VALUES ($1)`, r); err != nil { // want unfencedwrite:"without a fencing token"
				return err
			}
		}
	}
}

// Lead runs the reconciler on the ctx leader election hands it.
func (w *Worker) Lead(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: w.reconcile,
		OnStoppedLeading: func() { log.Print("stopped leading") },
	}
	leaderelection.RunOrDie(ctx, cfg)
}

// LeadDetached runs the reconciler on the caller's ctx.
func (w *Worker) LeadDetached(ctx context.Context, cfg leaderelection.LeaderElectionConfig) {
	cfg.Callbacks = leaderelection.LeaderCallbacks{
		OnStartedLeading: func(context.Context) { w.reconcile(ctx) }, // want detachedrenewal:"never hears"
		OnStoppedLeading: func() {},
	}
	leaderelection.RunOrDie(ctx, cfg)
}

func (w *Worker) reconcile(ctx context.Context) {
	for ctx.Err() == nil {
		w.db.ExecContext(ctx, `UPDATE status SET beat = now()`) // want unfencedwrite:"without a fencing token"
		time.Sleep(time.Second)
	}
}

func (w *Worker) insert(ctx context.Context, rows []string) error {
	for _, r := range rows {
		if _, err := w.db.ExecContext(ctx, `INSERT INTO rows (name) VALUES ($1)`, r); err != nil {
			return err
		}
	}
	return nil
}

// Package consulrenew holds Consul locks and sessions while it writes.
package consulrenew

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/hashicorp/consul/api"
)

var errLost = errors.New("lost the Consul lock")

type syncer struct {
	consul *api.Client
	db     *sql.DB
}

// renewPeriodicDropped: the canonical decoupled renewal. RenewPeriodic
// returns once the session is gone, and its error goes nowhere.
func (s *syncer) renewPeriodicDropped(ctx context.Context, rows []string) error {
	id, _, err := s.consul.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go s.consul.Session().RenewPeriodic("10s", id, nil, done) // want `the error of Session.RenewPeriodic \(line 30\) is dropped, so the work never hears when the Consul session expires and keeps writing as if it held the lock; run it in a goroutine that cancels the work's context when it returns, or fence the writes`
	ok, _, err := s.consul.KV().Acquire(&api.KVPair{Key: "locks/sync", Session: id}, nil)
	if err != nil || !ok {
		return errLost
	}
	return s.write(ctx, rows)
}

// renewPeriodicCancels: doneCh is the work's, and RenewPeriodic's return
// cancels the work.
func (s *syncer) renewPeriodicCancels(ctx context.Context, rows []string) error {
	id, _, err := s.consul.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		err := s.consul.Session().RenewPeriodic("10s", id, nil, ctx.Done())
		cancel(err)
	}()
	ok, _, err := s.consul.KV().Acquire(&api.KVPair{Key: "locks/sync", Session: id}, nil)
	if err != nil || !ok {
		return errLost
	}
	return s.write(ctx, rows)
}

// renewLoopContinues renews by hand and shrugs off failures; a nil entry
// (the session is gone) is not even looked at.
func (s *syncer) renewLoopContinues(id string, stop <-chan struct{}) {
	go func() { // want `this goroutine renews the Consul lock with Session.Renew`
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			if _, _, err := s.consul.Session().Renew(id, nil); err != nil {
				log.Printf("renew: %v", err)
				continue
			}
		}
	}()
}

// renewLoopFlags: a nil entry or an error sets a flag the worker checks.
func (s *syncer) renewLoopFlags(id string, lost *bool) {
	go func() {
		for range time.Tick(5 * time.Second) {
			entry, _, err := s.consul.Session().Renew(id, nil)
			if err != nil || entry == nil {
				*lost = true
				return
			}
		}
	}()
}

// lockDiscarded throws away the channel that says the lock was lost.
func (s *syncer) lockDiscarded(ctx context.Context, rows []string) error {
	l, err := s.consul.LockKey("locks/sync")
	if err != nil {
		return err
	}
	if _, err := l.Lock(nil); err != nil { // want `this discards the channel Lock.Lock returns, which closes when the lock is lost, so the work never hears of it and goes on without the lock; select on it in the work and stop when it closes \(it is nil if Lock.Lock returned without the lock\)`
		return err
	}
	defer l.Unlock()
	return s.write(ctx, rows)
}

// semaphoreDiscarded: a slot of a Consul semaphore, its lost channel dropped.
func (s *syncer) semaphoreDiscarded(ctx context.Context, rows []string) error {
	sem, err := s.consul.SemaphorePrefix("service/sync/", 2)
	if err != nil {
		return err
	}
	if _, err := sem.Acquire(nil); err != nil { // want `this discards the channel Semaphore.Acquire returns`
		return err
	}
	defer sem.Release()
	return s.write(ctx, rows)
}

// lockNilChecked keeps the channel only to test it for nil.
func (s *syncer) lockNilChecked(ctx context.Context, rows []string, stop chan struct{}) error {
	l, err := s.consul.LockKey("locks/sync")
	if err != nil {
		return err
	}
	lost, err := l.Lock(stop) // want `nothing reads the channel Lock.Lock returns`
	if err != nil {
		return err
	}
	if lost == nil {
		return errLost
	}
	defer l.Unlock()
	return s.write(ctx, rows)
}

// lockSelected: the worker stops as soon as the lock is lost.
func (s *syncer) lockSelected(ctx context.Context, rows <-chan string) error {
	l, err := s.consul.LockKey("locks/sync")
	if err != nil {
		return err
	}
	lost, err := l.Lock(nil)
	if err != nil || lost == nil {
		return errLost
	}
	defer l.Unlock()
	for {
		select {
		case <-lost:
			return errLost
		case r := <-rows:
			if _, err := s.db.ExecContext(ctx, `INSERT INTO synced (name) VALUES ($1)`, r); err != nil {
				return err
			}
		}
	}
}

// lockWatched: a goroutine cancels the work when the channel closes.
func (s *syncer) lockWatched(ctx context.Context, rows []string) error {
	l, err := s.consul.LockKey("locks/sync")
	if err != nil {
		return err
	}
	lost, err := l.Lock(nil)
	if err != nil {
		return err
	}
	defer l.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-lost
		cancel()
	}()
	return s.write(ctx, rows)
}

// lockCAS: the only write is a check-and-set on the index read under the
// lock, so a stale holder's write fails.
func (s *syncer) lockCAS(name string) error {
	l, err := s.consul.LockKey("locks/sync")
	if err != nil {
		return err
	}
	if _, err := l.Lock(nil); err != nil {
		return err
	}
	defer l.Unlock()
	kv := s.consul.KV()
	pair, _, err := kv.Get("state/"+name, nil)
	if err != nil || pair == nil {
		return err
	}
	pair.Value = []byte("synced")
	ok, _, err := kv.CAS(pair, nil)
	if err != nil || !ok {
		return errLost
	}
	return nil
}

// acquire is an acquire helper: it takes the lock, drops the channel that
// says the lock was lost, and hands the lock to its caller, who does the
// work under it.
func (s *syncer) acquire(key string) (*api.Lock, error) {
	l, err := s.consul.LockOpts(&api.LockOptions{Key: key, SessionTTL: "10s"})
	if err != nil {
		return nil, err
	}
	if _, err := l.Lock(nil); err != nil { // want `this discards the channel Lock.Lock returns, which closes when the lock is lost`
		return nil, err
	}
	return l, nil
}

// helperHeld writes under the lock its helper took: the helper's dropped
// channel was the work's only way to hear of the loss.
func (s *syncer) helperHeld(ctx context.Context, rows []string) error {
	l, err := s.acquire("locks/sync")
	if err != nil {
		return err
	}
	defer l.Unlock()
	return s.write(ctx, rows)
}

// enqueueOnce: the lock only stops two callers from queueing the same job
// at once, and the queue drops a job ID it has seen; nothing under the
// lock writes a store, so a holder that lost it loses nothing.
func (s *syncer) enqueueOnce(ctx context.Context, job string, queue chan<- string) error {
	l, err := s.consul.LockKey("locks/enqueue/" + job)
	if err != nil {
		return err
	}
	if _, err := l.Lock(nil); err != nil {
		return err
	}
	defer l.Unlock()
	pair, _, err := s.consul.KV().Get("jobs/"+job, nil)
	if err != nil || pair != nil {
		return err
	}
	select {
	case queue <- job:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// readUnder reads under a lock an acquire helper took: nothing to protect.
func (s *syncer) readUnder(ctx context.Context, name string) (string, error) {
	l, err := s.acquire2("locks/read/" + name)
	if err != nil {
		return "", err
	}
	defer l.Unlock()
	var v string
	err = s.db.QueryRowContext(ctx, `SELECT v FROM synced WHERE name = $1`, name).Scan(&v)
	return v, err
}

// acquire2 is acquire for readUnder alone, so that its verdict is its
// caller's.
func (s *syncer) acquire2(key string) (*api.Lock, error) {
	l, err := s.consul.LockKey(key)
	if err != nil {
		return nil, err
	}
	if _, err := l.Lock(nil); err != nil {
		return nil, err
	}
	return l, nil
}

func (s *syncer) write(ctx context.Context, rows []string) error {
	for _, r := range rows {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO synced (name) VALUES ($1)`, r); err != nil {
			return err
		}
	}
	return nil
}

// Package consullock holds a singleton service that leads through a Consul
// lock and session, writing its state to Consul KV and Postgres.
package consullock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/hashicorp/consul/api"
)

const lockKey = "service/billing/leader"

// Leader runs the billing cycle while holding the Consul lock.
type Leader struct {
	client *api.Client
	db     *sql.DB
}

// RunIgnoringLost drops the lost channel Lock returns and writes a plain
// KV Put, which ignores sessions and indexes.
func (l *Leader) RunIgnoringLost(cycle string) error {
	lock, err := l.client.LockKey(lockKey)
	if err != nil {
		return err
	}
	if _, err := lock.Lock(nil); err != nil { // want detachedrenewal:"never hears"
		return err
	}
	defer lock.Unlock()
	_, err = l.client.KV().Put(&api.KVPair{Key: "billing/last-cycle", Value: []byte(cycle)}, nil) // want unfencedwrite:"without a fencing token"
	return err
}

// RunWatchingLost stops when the lock is lost and fences its KV write with
// a check-session op on the lock key in the same transaction.
func (l *Leader) RunWatchingLost(ctx context.Context, cycle string) error {
	sid, _, err := l.client.Session().Create(&api.SessionEntry{
		Name:     "billing-leader",
		TTL:      "15s",
		Behavior: api.SessionBehaviorRelease,
	}, nil)
	if err != nil {
		return err
	}
	lock, err := l.client.LockOpts(&api.LockOptions{Key: lockKey, Session: sid})
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	defer close(stop)
	lost, err := lock.Lock(stop)
	if err != nil {
		return err
	}
	if lost == nil {
		return errors.New("billing: lock not acquired")
	}
	defer lock.Unlock()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lost:
			cancel()
		case <-ctx.Done():
		}
	}()

	ok, resp, _, err := l.client.Txn().Txn(api.TxnOps{
		{KV: &api.KVTxnOp{Verb: api.KVCheckSession, Key: lockKey, Session: sid}},
		{KV: &api.KVTxnOp{Verb: api.KVSet, Key: "billing/last-cycle", Value: []byte(cycle)}},
	}, (&api.QueryOptions{}).WithContext(ctx))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("billing: lost the lock: %v", resp.Errors)
	}
	return nil
}

// RunWithCAS writes the cycle key only over the index it read.
func (l *Leader) RunWithCAS(cycle string) error {
	lock, err := l.client.LockKey(lockKey)
	if err != nil {
		return err
	}
	lost, err := lock.Lock(nil)
	if err != nil || lost == nil {
		return errors.New("billing: lock not acquired")
	}
	defer lock.Unlock()
	kv := l.client.KV()
	pair, _, err := kv.Get("billing/last-cycle", &api.QueryOptions{RequireConsistent: true})
	if err != nil {
		return err
	}
	var index uint64
	if pair != nil {
		index = pair.ModifyIndex
	}
	select {
	case <-lost:
		return errors.New("billing: lock lost")
	default:
	}
	ok, _, err := kv.CAS(&api.KVPair{Key: "billing/last-cycle", Value: []byte(cycle), ModifyIndex: index}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("billing: cycle key moved")
	}
	return nil
}

// RunWithLockIndexFence reads LockIndex back after acquiring and uses it as
// the Postgres fence: it restarts when the key is deleted, and nothing
// checks that the pair still carries this session.
func (l *Leader) RunWithLockIndexFence(ctx context.Context, amount int64) error {
	lock, err := l.client.LockKey(lockKey)
	if err != nil {
		return err
	}
	lost, err := lock.Lock(ctx.Done())
	if err != nil || lost == nil {
		return errors.New("billing: lock not acquired")
	}
	defer lock.Unlock()
	pair, _, err := l.client.KV().Get(lockKey, nil)
	if err != nil || pair == nil {
		return errors.New("billing: lock key gone")
	}
	res, err := l.db.ExecContext(ctx, `UPDATE ledgers SET balance = balance + $1, fence = $2 WHERE name = 'billing' AND fence < $2`, amount, pair.LockIndex) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("billing: stale leader")
	}
	return nil
}

// Session-based leadership, written by hand with KV.Acquire.
type sessionLeader struct {
	client *api.Client
	db     *sql.DB
}

// run renews the session from a goroutine that only logs failures.
func (s *sessionLeader) run(ctx context.Context, amount int64) error {
	sess := s.client.Session()
	sid, _, err := sess.Create(&api.SessionEntry{TTL: "10s", Behavior: api.SessionBehaviorDelete}, nil)
	if err != nil {
		return err
	}
	defer sess.Destroy(sid, nil)
	go func() { // want detachedrenewal:"never hears"
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Second):
				if _, _, err := sess.Renew(sid, nil); err != nil {
					log.Printf("billing: renew %s: %v", sid, err)
				}
			}
		}
	}()
	got, _, err := s.client.KV().Acquire(&api.KVPair{Key: lockKey, Session: sid}, nil)
	if err != nil || !got {
		return errors.New("billing: not leader")
	}
	_, err = s.db.ExecContext(ctx, `UPDATE ledgers SET balance = balance + $1 WHERE name = 'billing'`, amount) // want unfencedwrite:"without a fencing token"
	return err
}

// runIfSessionAlive asks Consul whether the session still exists before
// deleting: the session can be invalidated right after.
func (s *sessionLeader) runIfSessionAlive(ctx context.Context, sid string) error {
	got, _, err := s.client.KV().Acquire(&api.KVPair{Key: lockKey, Session: sid}, nil)
	if err != nil || !got {
		return errors.New("billing: not leader")
	}
	entry, _, err := s.client.Session().Info(sid, nil) // want heldcheck:"only tells that the lease was held"
	if err != nil {
		return err
	}
	if entry == nil {
		return errors.New("billing: session gone")
	}
	_, err = s.client.KV().DeleteTree("billing/pending/", nil) // want unfencedwrite:"without a fencing token"
	return err
}

// runFencedByIndex uses the session's lock key ModifyIndex, read together
// with the check that the pair is ours, in a check-index transaction.
func (s *sessionLeader) runFencedByIndex(ctx context.Context, sid string, state []byte) error {
	got, _, err := s.client.KV().Acquire(&api.KVPair{Key: lockKey, Session: sid}, nil)
	if err != nil || !got {
		return errors.New("billing: not leader")
	}
	pair, _, err := s.client.KV().Get(lockKey, &api.QueryOptions{RequireConsistent: true})
	if err != nil || pair == nil || pair.Session != sid {
		return errors.New("billing: not leader")
	}
	ok, _, _, err := s.client.Txn().Txn(api.TxnOps{
		{KV: &api.KVTxnOp{Verb: api.KVCheckIndex, Key: lockKey, Index: pair.ModifyIndex}},
		{KV: &api.KVTxnOp{Verb: api.KVSet, Key: "billing/state", Value: state}},
	}, nil)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("billing: lock moved")
	}
	return nil
}

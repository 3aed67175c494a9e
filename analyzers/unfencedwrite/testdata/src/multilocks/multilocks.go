// Package multilocks is reduced from a ledger (blnk) that locks the source
// and the destination balance of a transfer together: a hand-rolled SET NX
// lock per key, and a MultiLocker that takes them in sorted order, letting
// go of those it got when a later one is busy. MultiLocker.Lock releases
// only on the paths that fail, so it returns holding every key or none: it
// acquires, and the writes its callers make before Unlock are under the
// lease. A function that also lets go on a path that succeeds holds nothing
// when it returns.
package multilocks

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"
)

var errHeld = errors.New("lock already held")

const unlockScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

// Locker is one key's lock.
type Locker struct {
	client *redis.Client
	key    string
	value  string
}

func (l *Locker) Lock(ctx context.Context, ttl time.Duration) error {
	ok, err := l.client.SetNX(ctx, l.key, l.value, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errHeld
	}
	return nil
}

func (l *Locker) Unlock(ctx context.Context) error {
	return l.client.Eval(ctx, unlockScript, []string{l.key}, l.value).Err()
}

// MultiLocker locks a set of keys in sorted order.
type MultiLocker struct {
	lockers []*Locker
}

func NewMultiLocker(client *redis.Client, keys []string, value string) *MultiLocker {
	sort.Strings(keys)
	m := &MultiLocker{}
	for _, k := range keys {
		m.lockers = append(m.lockers, &Locker{client: client, key: k, value: value})
	}
	return m
}

// Lock takes every key or, when one is busy, lets go of those it took and
// fails.
func (m *MultiLocker) Lock(ctx context.Context, ttl time.Duration) error {
	for i, l := range m.lockers {
		if err := l.Lock(ctx, ttl); err != nil {
			m.rollback(ctx, i)
			return fmt.Errorf("failed to acquire lock for key %s: %w", l.key, err)
		}
	}
	return nil
}

// TryLock is Lock with a bool result: false after the rollback.
func (m *MultiLocker) TryLock(ctx context.Context, ttl time.Duration) bool {
	for i, l := range m.lockers {
		if l.Lock(ctx, ttl) != nil {
			m.rollback(ctx, i)
			return false
		}
	}
	return true
}

func (m *MultiLocker) rollback(ctx context.Context, n int) {
	for i := n - 1; i >= 0; i-- {
		_ = m.lockers[i].Unlock(ctx)
	}
}

func (m *MultiLocker) Unlock(ctx context.Context) {
	for i := len(m.lockers) - 1; i >= 0; i-- {
		_ = m.lockers[i].Unlock(ctx)
	}
}

// Ledger moves amounts between balances kept in a Redis hash.
type Ledger struct {
	rdb *redis.Client
}

// Transfer writes both balances under the pair's lock, with no fence: a
// holder paused past the TTL overwrites the balances the next holder wrote.
func (g *Ledger) Transfer(ctx context.Context, src, dst string, srcBal, dstBal int64) error {
	locker := NewMultiLocker(g.rdb, []string{src, dst}, "holder")
	if err := locker.Lock(ctx, 5*time.Minute); err != nil {
		return err
	}
	defer locker.Unlock(ctx)
	g.rdb.HSet(ctx, "balances", src, srcBal)              // want `HSet writes to Redis without a fencing token while the Redis lock taken by MultiLocker.Lock`
	return g.rdb.HSet(ctx, "balances", dst, dstBal).Err() // want `HSet writes to Redis without a fencing token while the Redis lock taken by MultiLocker.Lock`
}

// TryTransfer is Transfer through TryLock.
func (g *Ledger) TryTransfer(ctx context.Context, src, dst string, bal int64) bool {
	locker := NewMultiLocker(g.rdb, []string{src, dst}, "holder")
	if !locker.TryLock(ctx, time.Minute) {
		return false
	}
	defer locker.Unlock(ctx)
	g.rdb.HSet(ctx, "balances", src, bal) // want `HSet writes to Redis without a fencing token while the Redis lock taken by MultiLocker.TryLock`
	return true
}

// probe takes the set and lets it go again whether it got it or not: it
// reports whether the keys were free, and returns holding nothing.
func probe(ctx context.Context, m *MultiLocker) error {
	for i, l := range m.lockers {
		if err := l.Lock(ctx, time.Second); err != nil {
			m.rollback(ctx, i)
			return err
		}
	}
	m.Unlock(ctx)
	return nil
}

// Rebalance writes after probe returned, holding no lock: no lease, no
// finding.
func (g *Ledger) Rebalance(ctx context.Context, src string, bal int64) error {
	if err := probe(ctx, NewMultiLocker(g.rdb, []string{src}, "holder")); err != nil {
		return err
	}
	return g.rdb.HSet(ctx, "balances", src, bal).Err()
}

// lockOrRelease lets go of the set on a path that returns nil (a retry
// budget spent): a release where it succeeds makes it no acquire.
func lockOrRelease(ctx context.Context, m *MultiLocker, budget int) error {
	for i, l := range m.lockers {
		if err := l.Lock(ctx, time.Second); err != nil {
			m.rollback(ctx, i)
			if budget == 0 {
				return nil
			}
			return err
		}
	}
	return nil
}

// Reset writes after lockOrRelease, which may return nil holding nothing:
// not an acquire wrapper, no finding.
func (g *Ledger) Reset(ctx context.Context, src string) error {
	if err := lockOrRelease(ctx, NewMultiLocker(g.rdb, []string{src}, "holder"), 0); err != nil {
		return err
	}
	return g.rdb.HSet(ctx, "balances", src, 0).Err()
}

// Package muroqredislock takes locks with github.com/muroq/redislock, a
// fork of bsm/redislock (used by projecteru2/core) whose Obtain takes a
// wait timeout before the lock's TTL, on a go-redis v8 client; its Lock
// keeps Release, Refresh, TTL, Token and Metadata.
package muroqredislock

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/muroq/redislock"
)

var errStale = errors.New("stale node writer")

// Nodes records the capacity of cluster nodes, one writer per node.
type Nodes struct {
	locker *redislock.Client
	rdb    *redis.Client
	db     *sql.DB
}

// NewNodes builds the store on a Redis client.
func NewNodes(rdb *redis.Client, db *sql.DB) *Nodes {
	return &Nodes{locker: redislock.New(rdb), rdb: rdb, db: db}
}

// SetCapacity overwrites the node's capacity under the lock, unfenced.
func (n *Nodes) SetCapacity(ctx context.Context, node string, cpu int64) error {
	lock, err := n.locker.Obtain(ctx, "/node/"+node, 3*time.Second, 30*time.Second, &redislock.Options{
		RetryStrategy: redislock.LinearBackoff(500 * time.Millisecond),
	})
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return n.rdb.HSet(ctx, "node:"+node, "cpu", cpu).Err() // want unfencedwrite:"without a fencing token"
}

// SetCapacityFenced writes only over an older fence, one the caller got
// from a counter: a hard negative.
func (n *Nodes) SetCapacityFenced(ctx context.Context, node string, cpu, fence int64) error {
	lock, err := redislock.Obtain(ctx, n.rdb, "/node/"+node, time.Second, 30*time.Second, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil
	} else if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := n.db.ExecContext(ctx, `UPDATE nodes SET cpu = $1, fence = $3 WHERE name = $2 AND fence < $3`, cpu, node, fence)
	if err != nil {
		return err
	}
	if rows, err := res.RowsAffected(); err != nil || rows != 1 {
		return errStale
	}
	return nil
}

// SetCapacityIfTTLLeft trusts the remaining TTL, which can run out right
// after it is read.
func (n *Nodes) SetCapacityIfTTLLeft(ctx context.Context, node string, cpu int64) error {
	lock, err := n.locker.Obtain(ctx, "/node/"+node, time.Second, 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if ttl, err := lock.TTL(ctx); err == nil && ttl > 5*time.Second { // want heldcheck:"only tells that the lease was held"
		_, err := n.db.ExecContext(ctx, `UPDATE nodes SET cpu = $1 WHERE name = $2`, cpu, node) // want unfencedwrite:"without a fencing token"
		return err
	}
	return errStale
}

// SetCapacityWithToken uses the lock's random token as a fence.
func (n *Nodes) SetCapacityWithToken(ctx context.Context, node string, cpu int64) error {
	lock, err := n.locker.Obtain(ctx, "/node/"+node, time.Second, 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := n.db.ExecContext(ctx, `UPDATE nodes SET cpu = $1, fence = $3 WHERE name = $2 AND fence < $3`, cpu, node, lock.Token()) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if rows, _ := res.RowsAffected(); rows != 1 {
		return errStale
	}
	return nil
}

// SetCapacityRefreshing refreshes from a goroutine that stops on the first
// failure and tells nobody.
func (n *Nodes) SetCapacityRefreshing(ctx context.Context, node string, cpu int64) error {
	lock, err := n.locker.Obtain(ctx, "/node/"+node, time.Second, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	go func() { // want detachedrenewal:"never hears"
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				return
			}
		}
	}()
	return n.rdb.HSet(ctx, "node:"+node, "cpu", cpu).Err() // want unfencedwrite:"without a fencing token"
}

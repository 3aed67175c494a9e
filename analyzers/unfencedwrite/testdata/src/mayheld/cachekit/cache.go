// Package cachekit is a framework's Redis cache whose operations take a
// per-key bsm/redislock lock of their own when the cache is synchronized,
// and run unlocked otherwise (a NoSync cache). Its writes under its own
// lock are its own; those on the unlocked path are its callers'.
package cachekit

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

// Cache is a Redis cache; sync makes each operation lock its key.
type Cache struct {
	rdb   *redis.Client
	locks *redislock.Client
	sync  bool
}

// New returns a cache, synchronized unless noSync.
func New(rdb *redis.Client, noSync bool) *Cache {
	return &Cache{rdb: rdb, locks: redislock.New(rdb), sync: !noSync}
}

// withLock runs op while it holds key's lock.
func (c *Cache) withLock(ctx context.Context, key string, op func() error) error {
	lock, err := c.locks.Obtain(ctx, "lock:"+key, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return op()
}

// Put hands its operation to withLock when synchronized and calls it
// directly otherwise: on that path no lock of the cache's is held.
func (c *Cache) Put(ctx context.Context, key, val string) error {
	op := func() error {
		return c.rdb.Set(ctx, key, val, time.Minute).Err() // want `writes to Redis without a fencing token`
	}
	if c.sync {
		return c.withLock(ctx, key, op)
	}
	return op()
}

// Del locks inline, only when synchronized.
func (c *Cache) Del(ctx context.Context, key string) error {
	if c.sync {
		lock, err := c.locks.Obtain(ctx, "lock:"+key, 10*time.Second, nil)
		if err != nil {
			return err
		}
		defer lock.Release(ctx)
	}
	return c.rdb.Del(ctx, key).Err() // want `writes to Redis without a fencing token`
}

// Store always hands its operation to withLock: the write is the cache's
// own, under its own lock.
func (c *Cache) Store(ctx context.Context, key, val string) error {
	return c.withLock(ctx, key, func() error {
		return c.rdb.Set(ctx, key, val, time.Minute).Err() // want `writes to Redis without a fencing token`
	})
}

// Evict always locks inline.
func (c *Cache) Evict(ctx context.Context, key string) error {
	lock, err := c.locks.Obtain(ctx, "lock:"+key, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return c.rdb.Del(ctx, key).Err() // want `writes to Redis without a fencing token`
}

// Touch locks on both branches, by two calls (a short wait when
// synchronized, none otherwise): some lock of its own is held on every
// path.
func (c *Cache) Touch(ctx context.Context, key string) error {
	var lock *redislock.Lock
	var err error
	if c.sync {
		lock, err = c.locks.Obtain(ctx, "lock:"+key, 10*time.Second, &redislock.Options{RetryStrategy: redislock.LinearBackoff(time.Millisecond)})
	} else {
		lock, err = c.locks.Obtain(ctx, "lock:"+key, 10*time.Second, nil)
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return c.rdb.Set(ctx, key, "1", time.Minute).Err() // want `writes to Redis without a fencing token`
}

// Refresh runs its operation under withLock, and again directly, still
// under the lock it took itself first.
func (c *Cache) Refresh(ctx context.Context, key, val string) error {
	lock, err := c.locks.Obtain(ctx, "refresh:"+key, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	op := func() error {
		return c.rdb.Set(ctx, key, val, time.Minute).Err() // want `writes to Redis without a fencing token`
	}
	if c.sync {
		return c.withLock(ctx, key, op)
	}
	return op()
}

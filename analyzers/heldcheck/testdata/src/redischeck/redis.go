// Package redischeck holds a hand-rolled SET NX lock and asks Redis for the
// lock key's TTL before writing.
package redischeck

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockKey = "locks:report"

type job struct {
	rdb *redis.Client
}

func (j *job) acquire(ctx context.Context, owner string) bool {
	return j.rdb.SetNX(ctx, lockKey, owner, 10*time.Second).Val()
}

// pttl checks the lock key's TTL, then writes: stale by the write.
func (j *job) pttl(ctx context.Context) error {
	if j.rdb.PTTL(ctx, lockKey).Val() > 0 { // want `PTTL only tells that the lease was held when it ran, yet it guards the unfenced write (cmdable\.)?HSet at line 25`
		return j.rdb.HSet(ctx, "report:7", "state", "done").Err()
	}
	return nil
}

// cacheTTL checks the TTL of a cache entry, not of a lock: not a lease check.
func (j *job) cacheTTL(ctx context.Context) error {
	if j.rdb.TTL(ctx, "cache:report:7").Val() > 0 {
		return j.rdb.Set(ctx, "cache:report:7:hits", 1, 0).Err()
	}
	return nil
}

// cacheAlive wraps the TTL of a cache key: no lock, so no check.
func (j *job) cacheAlive(ctx context.Context, key string) bool {
	return j.rdb.TTL(ctx, key).Val() > 0
}

// refill writes when the cache entry is alive.
func (j *job) refill(ctx context.Context) error {
	if j.cacheAlive(ctx, "cache:report:8") {
		return j.rdb.Set(ctx, "cache:report:8:hits", 1, 0).Err()
	}
	return nil
}

// lockAlive wraps the TTL of the lock key.
func (j *job) lockAlive(ctx context.Context) bool {
	return j.rdb.PTTL(ctx, lockKey).Val() > 0
}

// publish writes when the lock key is alive.
func (j *job) publish(ctx context.Context) error {
	if j.lockAlive(ctx) { // want `lockAlive only tells that the lease was held when it ran, yet it guards the unfenced write (cmdable\.)?HSet`
		return j.rdb.HSet(ctx, "report:8", "state", "done").Err()
	}
	return nil
}

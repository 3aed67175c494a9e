// Package redisnx holds hand-rolled go-redis locks (SET NX with a TTL) and
// the fences teams put next to them.
package redisnx

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("cart is being checked out")

var errStale = errors.New("stale writer")

// releaseScript deletes the lock only if it still holds our value.
var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// acquireScript takes the lock and issues the next fence in one step, so
// the fence is ordered with the grants.
var acquireScript = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("INCR", KEYS[2])
end
return 0`)

// fencedSetScript writes the value only if the caller's fence is not older
// than the last one seen.
var fencedSetScript = redis.NewScript(`
local last = tonumber(redis.call("GET", KEYS[1]) or "0")
if tonumber(ARGV[1]) < last then
	return 0
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return 1`)

// Checkout serializes checkouts of one cart.
type Checkout struct {
	rdb redis.UniversalClient
}

// Run takes a SET NX lock and then writes the cart unfenced.
func (c *Checkout) Run(ctx context.Context, cart string, total int64) error {
	owner := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, owner, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)

	return c.rdb.HSet(ctx, "cart:"+cart, "state", "paid", "total", total).Err() // want unfencedwrite:"without a fencing token"
}

// RunPipelined writes in MULTI/EXEC, which is atomic but conditional on
// nothing.
func (c *Checkout) RunPipelined(ctx context.Context, cart string, total int64) error {
	owner := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, owner, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)
	_, err = c.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, "cart:"+cart, "state", "paid") // want unfencedwrite:"without a fencing token"
		pipe.IncrBy(ctx, "revenue:today", total)      // want unfencedwrite:"without a fencing token"
		return nil
	})
	return err
}

// acquire takes the lock and returns the fence issued with it.
//
//fencelint:acquire
//fencelint:token
func (c *Checkout) acquire(ctx context.Context, cart, owner string) (int64, error) {
	fence, err := acquireScript.Run(ctx, c.rdb, []string{"lock:cart:" + cart, "fence:cart:" + cart}, owner, 30000).Int64()
	if err != nil {
		return 0, err
	}
	if fence == 0 {
		return 0, errBusy
	}
	return fence, nil
}

// RunScripted writes through a script that refuses an older fence.
func (c *Checkout) RunScripted(ctx context.Context, cart string, total int64) error {
	owner := uuid.NewString()
	fence, err := c.acquire(ctx, cart, owner)
	if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)
	ok, err := fencedSetScript.Run(ctx, c.rdb, []string{"fence:cart:" + cart + ":seen", "cart:" + cart + ":total"}, fence, total).Int()
	if err != nil {
		return err
	}
	if ok == 0 {
		return errStale
	}
	return nil
}

// RunWatched writes inside WATCH/MULTI after comparing the fence key: EXEC
// aborts if another holder moved the fence meanwhile.
func (c *Checkout) RunWatched(ctx context.Context, cart string, total int64) error {
	owner := uuid.NewString()
	fence, err := c.acquire(ctx, cart, owner)
	if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)
	seen := "fence:cart:" + cart + ":seen"
	return c.rdb.Watch(ctx, func(tx *redis.Tx) error {
		last, err := tx.Get(ctx, seen).Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if fence < last {
			return errStale
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, seen, fence, 0)
			pipe.HSet(ctx, "cart:"+cart, "state", "paid", "total", total)
			return nil
		})
		return err
	}, seen)
}

// RunWithLateCounter takes the fence with INCR after SET NX, in a separate
// round trip: a holder paused in between gets a larger fence than the
// holder that replaced it.
func (c *Checkout) RunWithLateCounter(ctx context.Context, cart string, total int64) error {
	owner := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, owner, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)
	fence, err := c.rdb.Incr(ctx, "fence:cart:"+cart).Result()
	if err != nil {
		return err
	}
	res, err := fencedSetScript.Run(ctx, c.rdb, []string{"fence:cart:" + cart + ":seen", "cart:" + cart + ":total"}, fence, total).Int() // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if res == 0 {
		return errStale
	}
	return nil
}

// Status holds the lock only to read consistently.
func (c *Checkout) Status(ctx context.Context, cart string) (map[string]string, error) {
	owner := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, owner, 5*time.Second).Result()
	if err != nil || !ok {
		return nil, errBusy
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:cart:" + cart}, owner)
	return c.rdb.HGetAll(ctx, "cart:"+cart).Result()
}

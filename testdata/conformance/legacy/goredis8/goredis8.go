// Package goredis8 holds a hand-rolled SET NX lock written with go-redis v8
// (github.com/go-redis/redis/v8).
package goredis8

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

var errBusy = errors.New("cart is being checked out")

// Checkout serializes checkouts of one cart.
type Checkout struct {
	rdb *redis.Client
}

// Run takes a SET NX lock and then writes the cart unfenced. Deleting the
// lock's own key is its release, not a protected write.
func (c *Checkout) Run(ctx context.Context, cart string, total int64) error {
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer c.rdb.Del(ctx, "lock:cart:"+cart)
	return c.rdb.HSet(ctx, "cart:"+cart, "state", "paid").Err() // want unfencedwrite:"without a fencing token"
}

// RunScripted writes through a script that compares the stored fence with
// the caller's: a hard negative.
func (c *Checkout) RunScripted(ctx context.Context, cart string, fence int64) error {
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer c.rdb.Del(ctx, "lock:cart:"+cart)
	return c.rdb.Eval(ctx, `
if tonumber(ARGV[1]) < tonumber(redis.call("GET", KEYS[1]) or "0") then
	return 0
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("HSET", KEYS[2], "state", "paid")
return 1`, []string{"fence:cart:" + cart, "cart:" + cart}, fence).Err()
}

// StillLocked asks Redis for the lock's TTL right before writing: the
// answer is stale by the time the write lands.
func (c *Checkout) StillLocked(ctx context.Context, cart string) error {
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	if c.rdb.PTTL(ctx, "lock:cart:"+cart).Val() <= 0 { // want heldcheck:"only tells that the lease was held"
		return errBusy
	}
	return c.rdb.Set(ctx, "cart:"+cart+":state", "paid", 0).Err() // want unfencedwrite:"without a fencing token"
}

// lockScript claims the lock in Lua and returns SET's reply: nil (redis.Nil
// in Go) when another holder has the key.
const lockScript = `return redis.call("SET", KEYS[1], ARGV[1], "NX", "EX", ARGV[2])`

// Settle claims the cart's lock with Eval and writes the cart unfenced.
func (c *Checkout) Settle(ctx context.Context, cart string, total int64) error {
	_, err := c.rdb.Eval(ctx, lockScript, []string{"lock:settle:" + cart}, "owner", 30).Result()
	if err == redis.Nil {
		return errBusy
	}
	if err != nil {
		return err
	}
	return c.rdb.Set(ctx, "cart:"+cart+":settled", total, 0).Err() // want unfencedwrite:"lock taken by Eval \\(SET NX in its Lua script\\)"
}

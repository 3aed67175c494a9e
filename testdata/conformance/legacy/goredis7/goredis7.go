// Package goredis7 holds a hand-rolled SET NX lock written with go-redis v7
// (github.com/go-redis/redis/v7).
package goredis7

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v7"
)

var errBusy = errors.New("cart is being checked out")

// Checkout serializes checkouts of one cart.
type Checkout struct {
	rdb *redis.Client
}

// Run takes a SET NX lock and then writes the cart unfenced. Deleting the
// lock's own key is its release, not a protected write.
func (c *Checkout) Run(ctx context.Context, cart string, total int64) error {
	ok, err := c.rdb.SetNX("lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer c.rdb.Del("lock:cart:" + cart)
	return c.rdb.HSet("cart:"+cart, "state", "paid").Err() // want unfencedwrite:"without a fencing token"
}

// RunScripted writes through a script that compares the stored fence with
// the caller's: a hard negative.
func (c *Checkout) RunScripted(ctx context.Context, cart string, fence int64) error {
	ok, err := c.rdb.SetNX("lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer c.rdb.Del("lock:cart:" + cart)
	return c.rdb.Eval(`
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
	ok, err := c.rdb.SetNX("lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	if c.rdb.PTTL("lock:cart:"+cart).Val() <= 0 { // want heldcheck:"only tells that the lease was held"
		return errBusy
	}
	return c.rdb.Set("cart:"+cart+":state", "paid", 0).Err() // want unfencedwrite:"without a fencing token"
}

// Drain takes the cart's queued events in one MULTI/EXEC, as iam's
// analytics pump does with go-redis v7: the DEL removes only what its own
// LRANGE returned, so it needs no fence (a hard negative); a DEL of more
// than the transaction read is a write.
func (c *Checkout) Drain(cart string, u redis.UniversalClient) ([]string, error) {
	ok, err := c.rdb.SetNX("lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil || !ok {
		return nil, errBusy
	}
	defer c.rdb.Del("lock:cart:" + cart)
	key := "events:" + cart
	var events *redis.StringSliceCmd
	if _, err := u.TxPipelined(func(pipe redis.Pipeliner) error {
		events = pipe.LRange(key, 0, -1)
		pipe.Del(key)
		return nil
	}); err != nil {
		return nil, err
	}
	_, err = u.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.LRange(key, 0, 9)
		pipe.Del(key) // want unfencedwrite:"without a fencing token"
		return nil
	})
	return events.Val(), err
}

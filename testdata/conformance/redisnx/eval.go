package redisnx

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Restock moves stock between keys with an inline Lua script that checks
// nothing about the holder: atomic, but a stale holder's script still runs.
func (c *Checkout) Restock(ctx context.Context, sku string, n int64) error {
	owner := uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, "lock:stock:"+sku, owner, 10*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:stock:" + sku}, owner)
	return c.rdb.Eval(ctx, `redis.call("DECRBY", KEYS[1], ARGV[1]); return redis.call("INCRBY", KEYS[2], ARGV[1])`, // want unfencedwrite:"without a fencing token"
		[]string{"stock:warehouse:" + sku, "stock:shelf:" + sku}, n).Err()
}

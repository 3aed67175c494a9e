package redisnx

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Reserve takes the lock with SET ... NX PX through SetArgs, the form newer
// code uses, and then writes the seat unfenced.
func (c *Checkout) Reserve(ctx context.Context, seat, user string) error {
	owner := uuid.NewString()
	err := c.rdb.SetArgs(ctx, "lock:seat:"+seat, owner, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	} else if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:seat:" + seat}, owner)
	return c.rdb.Set(ctx, "seat:"+seat, user, 0).Err() // want unfencedwrite:"without a fencing token"
}

// Package satoriuuid holds a SET NX lock written with go-redis v8 whose
// writes are keyed by satori/go.uuid's UUIDs (v1.2.0: NewV4 returns no
// error), the original of gofrs/uuid.
package satoriuuid

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
	uuid "github.com/satori/go.uuid"
)

var errBusy = errors.New("cart is being checked out")

// Checkout serializes checkouts of one cart.
type Checkout struct {
	rdb *redis.Client
}

// Receipt stores a receipt under a fresh UUID and links it to the cart:
// only the link is reported. A UUID parsed from the caller's input is not
// fresh: the write under it is reported too.
func (c *Checkout) Receipt(ctx context.Context, cart, from string, body []byte) error {
	ok, err := c.rdb.SetNX(ctx, "lock:cart:"+cart, "owner", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer c.rdb.Del(ctx, "lock:cart:"+cart)
	id := uuid.NewV4()
	c.rdb.Set(ctx, "receipt:"+id.String(), body, time.Hour)
	prev := uuid.Must(uuid.FromString(from))
	c.rdb.Set(ctx, "receipt:"+prev.String(), body, time.Hour)                    // want unfencedwrite:"without a fencing token"
	return c.rdb.Set(ctx, "cart:"+cart+":receipt", id.String(), time.Hour).Err() // want unfencedwrite:"without a fencing token"
}

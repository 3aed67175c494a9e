package redisnx

import (
	"context"
	"crypto/rand"
	"errors"
	mathrand "math/rand"
	"time"

	hashiuuid "github.com/hashicorp/go-uuid"
	"github.com/pborman/uuid"
	"github.com/redis/go-redis/v9"
)

// Refund writes under keys named by pborman/uuid's random UUIDs and
// HashiCorp's go-uuid, drawn here, and then links one: only the link is
// reported. pborman's NewUUID is time-based, and go-uuid's bytes from a
// math/rand source seeded with the order repeat in every holder, so the
// keys named by those are not fresh and are reported too.
func (c *Checkout) Refund(ctx context.Context, order string, body []byte) error {
	owner := uuid.New()
	err := c.rdb.SetArgs(ctx, "lock:order:"+order, owner, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	} else if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:order:" + order}, owner)
	c.rdb.Set(ctx, "refund:"+uuid.New(), body, time.Hour)
	c.rdb.Set(ctx, "refund:"+uuid.NewRandom().String(), body, time.Hour)
	c.rdb.Set(ctx, "refund:"+uuid.NewUUID().String(), body, time.Hour) // want unfencedwrite:"without a fencing token"
	audit, err := hashiuuid.GenerateUUIDWithReader(rand.Reader)
	if err != nil {
		return err
	}
	c.rdb.HSet(ctx, "refund-audit:"+audit, "body", body)
	replay, err := hashiuuid.GenerateUUIDWithReader(mathrand.New(mathrand.NewSource(int64(len(order)))))
	if err != nil {
		return err
	}
	c.rdb.HSet(ctx, "refund-replay:"+replay, "body", body) // want unfencedwrite:"without a fencing token"
	id, err := hashiuuid.GenerateUUID()
	if err != nil {
		return err
	}
	if err := c.rdb.Set(ctx, "refund:"+id, body, time.Hour).Err(); err != nil {
		return err
	}
	return c.rdb.Set(ctx, "order:"+order+":refund", id, time.Hour).Err() // want unfencedwrite:"without a fencing token"
}

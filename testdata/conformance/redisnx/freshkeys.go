package redisnx

import (
	"context"
	"errors"
	"fmt"
	"time"

	gofrsuuid "github.com/gofrs/uuid/v5"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Hold stores a reservation under a new key, named by a fresh UUID, and
// links it to the seat: a stale holder's new key overwrites nothing, its
// link does.
func (c *Checkout) Hold(ctx context.Context, seat string, body []byte) error {
	owner := uuid.NewString()
	err := c.rdb.SetArgs(ctx, "lock:seat:"+seat, owner, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	} else if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:seat:" + seat}, owner)
	id, err := uuid.NewRandom()
	if err != nil {
		return err
	}
	key := fmt.Sprintf("hold:{%s}:%s", seat, id.String())
	pipe := c.rdb.TxPipeline()
	pipe.HSet(ctx, key, "body", body)
	pipe.Expire(ctx, key, time.Minute)
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	return c.rdb.Set(ctx, "seat:"+seat+":hold", id.String(), time.Minute).Err() // want unfencedwrite:"without a fencing token"
}

// Trace writes under a gofrs UUID, and under one it shared first: only the
// second is reported.
func (c *Checkout) Trace(ctx context.Context, seat string, body []byte) error {
	owner := uuid.NewString()
	err := c.rdb.SetArgs(ctx, "lock:seat:"+seat, owner, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	} else if err != nil {
		return err
	}
	defer releaseScript.Run(context.Background(), c.rdb, []string{"lock:seat:" + seat}, owner)
	id, err := gofrsuuid.NewV4()
	if err != nil {
		return err
	}
	if err := c.rdb.Set(ctx, "trace:"+id.String(), body, time.Hour).Err(); err != nil {
		return err
	}
	shared, err := gofrsuuid.NewV4()
	if err != nil {
		return err
	}
	if err := c.rdb.SAdd(ctx, "traces", shared.String()).Err(); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	return c.rdb.Set(ctx, "trace:"+shared.String(), body, time.Hour).Err() // want unfencedwrite:"without a fencing token"
}

// Package cachefill loads catalog entries into Redis under a stampede
// lock (bsm/redislock), compiled against the real go-redis: the fills,
// written only when the read of the same key missed and with a TTL, are
// quiet; the read-modify-write and the write made on a hit are not.
package cachefill

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type Catalog struct {
	rdb    *redis.Client
	locker *redislock.Client
	db     *sql.DB
}

// Item fills the entry on a miss: quiet.
func (c *Catalog) Item(ctx context.Context, sku string) (string, error) {
	key := "item:" + sku
	lock, err := c.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	v, err := c.rdb.Get(ctx, key).Result()
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, redis.Nil) {
		return "", err
	}
	if err := c.db.QueryRowContext(ctx, "SELECT body FROM items WHERE sku = $1", sku).Scan(&v); err != nil {
		return "", err
	}
	return v, c.rdb.Set(ctx, key, v, time.Minute).Err()
}

// Price tests the command's error, then fills with SetEx: quiet.
func (c *Catalog) Price(ctx context.Context, sku string) (string, error) {
	key := "price:" + sku
	lock, err := c.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	cmd := c.rdb.Get(ctx, key)
	if cmd.Err() == nil {
		return cmd.Val(), nil
	}
	var price string
	if err := c.db.QueryRowContext(ctx, "SELECT price FROM items WHERE sku = $1", sku).Scan(&price); err != nil {
		return "", err
	}
	return price, c.rdb.SetEx(ctx, key, price, time.Minute).Err()
}

// Stock decrements what it read: a read-modify-write.
func (c *Catalog) Stock(ctx context.Context, sku string) error {
	key := "stock:" + sku
	lock, err := c.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	n, err := c.rdb.Get(ctx, key).Int()
	if err != nil && err != redis.Nil {
		return err
	}
	return c.rdb.Set(ctx, key, n-1, time.Hour).Err() // want unfencedwrite:"Set writes to Redis without a fencing token while the bsm/redislock lock"
}

// Retire overwrites an entry the read found.
func (c *Catalog) Retire(ctx context.Context, sku string) error {
	key := "item:" + sku
	lock, err := c.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := c.rdb.Get(ctx, key).Err(); err != nil {
		return err
	}
	return c.rdb.Set(ctx, key, "retired", time.Hour).Err() // want unfencedwrite:"Set writes to Redis without a fencing token while the bsm/redislock lock"
}

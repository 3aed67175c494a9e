package cachefill

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

// results is the part of the real go-redis client a notifier uses, kept
// behind an interface of its own so that tests can swap it: *redis.Client,
// *redis.ClusterClient, *redis.Ring and the rest all implement it.
type results interface {
	Get(ctx context.Context, key string) *redis.StringCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

type Notifier struct {
	rdb    results
	locker *redislock.Client
}

// MarkSent records a notified result with no expiry: reported through the
// interface as on the client.
func (n *Notifier) MarkSent(ctx context.Context, report, id string) error {
	lock, err := n.locker.Obtain(ctx, "notify:"+report, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return n.rdb.Set(ctx, report+":"+id, "sent", 0).Err() // want unfencedwrite:"results.Set \\(as redis.Set\\) writes to Redis without a fencing token while the bsm/redislock lock"
}

// Summary fills an entry on a miss, with a TTL: quiet.
func (n *Notifier) Summary(ctx context.Context, report string, load func() string) (string, error) {
	key := "summary:" + report
	lock, err := n.locker.Obtain(ctx, "lock:"+key, 5*time.Second, nil)
	if err != nil {
		return "", err
	}
	defer lock.Release(ctx)
	v, err := n.rdb.Get(ctx, key).Result()
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, redis.Nil) {
		return "", err
	}
	v = load()
	return v, n.rdb.Set(ctx, key, v, time.Minute).Err()
}

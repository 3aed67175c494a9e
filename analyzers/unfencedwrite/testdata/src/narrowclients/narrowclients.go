// Package narrowclients keeps a notifier's result cache behind an
// interface of its own over go-redis, the few commands it uses, so that
// tests can swap in a fake. go-redis's *Client, *Tx and *Pipeline all
// implement it with the command methods they share: the calls are Redis
// writes whichever one main wires in.
package narrowclients

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type rdb interface {
	Get(ctx context.Context, key string) *redis.StringCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

type Notifier struct {
	rdb    rdb
	locker *redislock.Client
}

// MarkSent records the results the leader notified, with no expiry, so
// that the next leader skips them. A holder paused past the lock's TTL
// marks results the next holder has since retired: reported.
func (n *Notifier) MarkSent(ctx context.Context, report string, ids []string) error {
	lock, err := n.locker.Obtain(ctx, "notify:"+report, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	for _, id := range ids {
		if err := n.rdb.Set(ctx, report+":"+id, "sent", 0).Err(); err != nil { // want `rdb.Set \(as redis.Set\) writes to Redis without a fencing token while the bsm/redislock lock`
			return err
		}
	}
	return nil
}

// Forget deletes a result's mark, which the next holder may have set
// again: reported as well.
func (n *Notifier) Forget(ctx context.Context, report, id string) error {
	lock, err := n.locker.Obtain(ctx, "notify:"+report, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return n.rdb.Del(ctx, report+":"+id).Err() // want `rdb.Del \(as redis.Del\) writes to Redis`
}

// Summary fills the report's summary on a miss, with a TTL: a cache fill,
// quiet through the interface as on *redis.Client.
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

// Sent only reads: quiet.
func (n *Notifier) Sent(ctx context.Context, report, id string) (bool, error) {
	lock, err := n.locker.Obtain(ctx, "notify:"+report, 10*time.Second, nil)
	if err != nil {
		return false, err
	}
	defer lock.Release(ctx)
	err = n.rdb.Get(ctx, report+":"+id).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	return err == nil, err
}

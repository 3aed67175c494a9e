// Package cache is an application's Redis helper package: generic setters
// and a lock taken and let go by key.
package cache

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	client *redis.Client
	ctx    = context.Background()
)

// ErrLockTimeout says the lock stayed taken past the wait.
var ErrLockTimeout = errors.New("lock timeout")

func serialKey(keys ...string) string {
	return "app:" + strings.Join(keys, ":")
}

// Lock polls SET NX until it wins or tryLockTimeout runs out.
func Lock(key string, expire, tryLockTimeout time.Duration) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		ok, err := client.SetNX(ctx, serialKey(key), "1", expire).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		tryLockTimeout -= 20 * time.Millisecond
		if tryLockTimeout <= 0 {
			return ErrLockTimeout
		}
	}
	return nil
}

// Unlock lets the lock go.
func Unlock(key string) error {
	return client.Del(ctx, serialKey(key)).Err()
}

// getCmdable returns the transaction or pipeline a caller passes, or the
// client.
func getCmdable(context ...redis.Cmdable) redis.Cmdable {
	if len(context) > 0 {
		return context[0]
	}
	return client
}

// SetNX stores value under key unless the key exists.
func SetNX[T any](key string, value T, expire time.Duration, context ...redis.Cmdable) (bool, error) {
	return getCmdable(context...).SetNX(ctx, serialKey(key), value, expire).Result()
}

// Expire re-arms key's time to live.
func Expire(key string, ttl time.Duration, context ...redis.Cmdable) (bool, error) {
	return getCmdable(context...).Expire(ctx, serialKey(key), ttl).Result()
}

// Del deletes key.
func Del(key string) error {
	return client.Del(ctx, serialKey(key)).Err()
}

// SetMapField sets one field of the hash at key.
func SetMapField(key, field, value string) error {
	return client.HSet(ctx, serialKey(key), field, value).Err()
}

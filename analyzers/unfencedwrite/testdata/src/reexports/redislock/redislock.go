// Package redislock is a SET NX PX lock with a compare-and-delete release,
// written against the application's re-exported client types: it calls
// go-redis's methods without importing go-redis.
package redislock

import (
	"context"
	"time"

	"reexports/rds"
)

type Lock struct {
	client rds.Cmdable
	key    string
	value  string
	ttl    time.Duration
}

func New(client rds.Cmdable, key, value string, ttl time.Duration) *Lock {
	return &Lock{client: client, key: key, value: value, ttl: ttl}
}

// AttemptLock reports whether it took the lock.
func (l *Lock) AttemptLock(ctx context.Context) (bool, error) {
	result := l.client.SetNX(ctx, l.key, l.value, l.ttl)
	if result.Err() != nil {
		return false, result.Err()
	}
	return result.Val(), nil
}

// Unlock deletes the key only while it still holds this holder's value.
func (l *Lock) Unlock(ctx context.Context) error {
	const script = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	return l.client.Eval(ctx, script, []string{l.key}, l.value).Err()
}

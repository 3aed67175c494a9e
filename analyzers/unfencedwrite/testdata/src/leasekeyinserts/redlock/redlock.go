// Package redlock is a hand-rolled Redis lock, as blnk's internal/lock: a
// Locker made for one key, taken with SET NX and released by a script
// that checks its value.
package redlock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLockHeld = errors.New("lock already held")

type Locker struct {
	client *redis.Client
	key    string
	value  string
}

func NewLocker(client *redis.Client, key, value string) *Locker {
	return &Locker{client: client, key: key, value: value}
}

func (l *Locker) Lock(ctx context.Context, ttl time.Duration) error {
	ok, err := l.client.SetNX(ctx, l.key, l.value, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLockHeld
	}
	return nil
}

// WaitLock retries Lock: it locks the same key.
func (l *Locker) WaitLock(ctx context.Context, ttl, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if err := l.Lock(ctx, ttl); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return ErrLockHeld
}

func (l *Locker) Unlock(ctx context.Context) error {
	return l.client.Eval(ctx, "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", []string{l.key}, l.value).Err()
}

// Acquire takes key with SET NX and returns holding it.
func Acquire(ctx context.Context, client *redis.Client, key string, ttl time.Duration) error {
	ok, err := client.SetNX(ctx, key, "1", ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLockHeld
	}
	return nil
}

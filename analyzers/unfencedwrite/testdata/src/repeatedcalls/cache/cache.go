// Package cache is a CI server's Redis store: generic setters, and a lock
// taken with SET NX and let go through the generic delete.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// LockStore takes and lets go locks by key.
type LockStore interface {
	Lock(key string, expiration time.Duration) (bool, error)
	Unlock(key string) error
}

// RedisStore is the Redis implementation of the stores.
type RedisStore struct {
	Client *redis.Client
}

// Lock takes key for expiration, if no one holds it.
func (s *RedisStore) Lock(key string, expiration time.Duration) (bool, error) {
	return s.Client.SetNX(context.Background(), key, "true", expiration).Result()
}

// Unlock lets the lock go: it deletes its key like any other.
func (s *RedisStore) Unlock(key string) error {
	return s.Delete(key)
}

// Delete deletes key.
func (s *RedisStore) Delete(key string) error {
	return s.Client.Del(context.Background(), key).Err()
}

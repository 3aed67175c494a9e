// Package cache is the application's cache over Redis: entries expire
// after the store's TTL.
package cache

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct {
	rdb *redis.Client
	ttl time.Duration
}

// Get unmarshals the entry at key into v and reports whether there was one.
func (s *Store) Get(key string, v any) (bool, error) {
	b, err := s.rdb.Get(context.Background(), key).Bytes()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, json.Unmarshal(b, v)
}

// Set stores v at key until the store's TTL.
func (s *Store) Set(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.rdb.Set(context.Background(), key, b, s.ttl).Err()
}

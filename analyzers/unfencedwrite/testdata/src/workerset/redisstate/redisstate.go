// Package redisstate keeps the leader's progress in Redis.
package redisstate

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

func New(rdb *redis.Client) *Store { return &Store{rdb: rdb} }

func (s *Store) SaveProgress(ctx context.Context, step string) error {
	return s.rdb.Set(ctx, "progress", step, 0).Err()
}

package redisnx

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Sessions dedupes its audit row to one per session per window with a
// "seen recently" SET NX that every request extends, won or not: a marker
// with a sliding TTL, not a lock.
type Sessions struct {
	rdb redis.UniversalClient
}

// Touch records the session's first request of the window.
func (s *Sessions) Touch(ctx context.Context, session string) error {
	first, err := s.rdb.SetNX(ctx, "seen:"+session, 1, 10*time.Minute).Result()
	if err != nil {
		return err
	}
	s.rdb.Expire(ctx, "seen:"+session, 10*time.Minute)
	if !first {
		return nil
	}
	return s.rdb.Expire(ctx, "session:"+session, 24*time.Hour).Err()
}

// Settle is a lock its winner extends: the Expire of the lock key is on the
// won path only, and the balance write under it is reported.
func (s *Sessions) Settle(ctx context.Context, account string, cents int64) error {
	won, err := s.rdb.SetNX(ctx, "lock:settle:"+account, 1, 10*time.Second).Result()
	if err != nil || !won {
		return errBusy
	}
	defer s.rdb.Del(context.Background(), "lock:settle:"+account)
	s.rdb.Expire(ctx, "lock:settle:"+account, time.Minute)
	return s.rdb.IncrBy(ctx, "balance:"+account, cents).Err() // want unfencedwrite:"without a fencing token"
}

// Package app holds an order's lease while it refreshes the order's cache
// entries through cachekit. Where cachekit's operation may run unlocked
// (its NoSync path), the write is this lease's, and a stale holder
// overwrites the next holder's entry.
package app

import (
	"context"
	"time"

	"github.com/bsm/redislock"

	"mayheld/cachekit"
)

type service struct {
	locks *redislock.Client
	cache *cachekit.Cache
}

func (s *service) settle(ctx context.Context, order, total string) error {
	lock, err := s.locks.Obtain(ctx, "order:"+order, 30*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := s.cache.Put(ctx, "total:"+order, total); err != nil { // want `Cache.Put \(Set at cache.go:41\) writes to Redis without a fencing token while the bsm/redislock lock`
		return err
	}
	if err := s.cache.Del(ctx, "pending:"+order); err != nil { // want `Cache.Del \(Del at cache.go:58\) writes to Redis without a fencing token while the bsm/redislock lock`
		return err
	}
	// Store, Evict, Touch and Refresh write only under cachekit's own lock:
	// reported there, not here.
	if err := s.cache.Store(ctx, "settled:"+order, total); err != nil {
		return err
	}
	if err := s.cache.Evict(ctx, "draft:"+order); err != nil {
		return err
	}
	if err := s.cache.Touch(ctx, "seen:"+order); err != nil {
		return err
	}
	return s.cache.Refresh(ctx, "summary:"+order, total)
}

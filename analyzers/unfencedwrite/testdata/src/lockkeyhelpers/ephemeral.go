// Package lockkeyhelpers holds hand-rolled Redis leases whose key is
// renewed and released by helpers the key is handed to: the helper's
// writes are the lease's own, not writes it guards.
package lockkeyhelpers

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errTaken = errors.New("taken")

type store struct{ cli *redis.Client }

// startEphemeral takes path with SET NX and keeps it alive from a goroutine
// until the caller stops it or a refresh fails.
func (s *store) startEphemeral(ctx context.Context, path string, heartbeat time.Duration) (<-chan struct{}, func(), error) {
	set, err := s.cli.SetNX(ctx, path, "1", heartbeat).Result()
	if err != nil {
		return nil, nil, err
	}
	if !set {
		return nil, nil, errTaken
	}
	ctx, cancel := context.WithCancel(ctx)
	expiry := make(chan struct{})
	go func() {
		defer close(expiry)
		tick := time.NewTicker(heartbeat / 3)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				if err := s.refresh(ctx, path, heartbeat); err != nil {
					s.revoke(path)
					return
				}
			case <-ctx.Done():
				s.revoke(path)
				return
			}
		}
	}()
	return expiry, cancel, nil
}

// refresh and revoke are only ever handed the lease's key.
func (s *store) refresh(ctx context.Context, path string, ttl time.Duration) error {
	return s.cli.Expire(ctx, path, ttl).Err()
}

func (s *store) revoke(path string) {
	s.cli.Del(context.TODO(), path)
}

// report holds a lease and, under it, clears a key through a helper that
// is handed other keys too: that helper's delete is a guarded write.
func (s *store) report(ctx context.Context, job string) error {
	set, err := s.cli.SetNX(ctx, "lock:"+job, "1", time.Minute).Result()
	if err != nil || !set {
		return err
	}
	defer s.cli.Del(ctx, "lock:"+job)
	return s.clear(ctx, "report:"+job) // want `store.clear \(Del at ephemeral.go:\d+\) writes to Redis without a fencing token`
}

func (s *store) clear(ctx context.Context, key string) error {
	return s.cli.Del(ctx, key).Err()
}

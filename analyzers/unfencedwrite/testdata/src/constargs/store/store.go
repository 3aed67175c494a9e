// Package store keeps a scheduler's node records in Redis. Its helpers
// take flags that pick their path: a record is repaired only when fix is
// true, a status is deleted only for a negative TTL, a deploy counter is
// taken only when one is passed. A caller's constant argument can rule the
// write out.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBadTTL = errors.New("store: ttl 0")

type Store struct {
	rdb *redis.Client
}

// Usage reads a node's usage; with fix it first writes back the usage
// recounted from the node's workloads.
func (s *Store) Usage(ctx context.Context, node string, fix bool) (int64, error) {
	if fix {
		if err := s.rdb.Set(ctx, "usage:"+node, s.recount(ctx, node), 0).Err(); err != nil {
			return 0, err
		}
	}
	return s.rdb.Get(ctx, "usage:"+node).Int64()
}

func (s *Store) recount(ctx context.Context, node string) int64 {
	n, _ := s.rdb.Get(ctx, "workloads:"+node).Int64()
	return n
}

// Prune deletes a node's stale workloads, unless dryRun.
func (s *Store) Prune(ctx context.Context, node string, dryRun bool) error {
	if dryRun {
		return nil
	}
	return s.rdb.Del(ctx, "stale:"+node).Err()
}

// Touch deletes a node's status for a negative ttl; otherwise it only
// reports whether the status is there.
func (s *Store) Touch(ctx context.Context, node string, ttl int64) error {
	if ttl == 0 {
		return errBadTTL
	}
	if ttl < 0 {
		return s.rdb.Del(ctx, "status:"+node).Err()
	}
	return s.rdb.Exists(ctx, "status:"+node).Err()
}

// Both writes the node's state on either branch of its flag.
func (s *Store) Both(ctx context.Context, node string, up bool) error {
	if up {
		return s.rdb.Set(ctx, "state:"+node, "up", 0).Err()
	}
	return s.rdb.Set(ctx, "state:"+node, "down", 0).Err()
}

// Mixed repairs the usage with fix, and always stamps the node.
func (s *Store) Mixed(ctx context.Context, node string, fix bool) error {
	if fix {
		s.rdb.Set(ctx, "usage:"+node, 0, 0)
	}
	return s.rdb.Set(ctx, "stamp:"+node, time.Now().Unix(), 0).Err()
}

// Add records a workload, taking the deploy counter when one is passed.
func (s *Store) Add(ctx context.Context, id string, counter *string) error {
	return s.doOps(ctx, id, counter, true)
}

// Update writes a workload's record.
func (s *Store) Update(ctx context.Context, id string) error {
	return s.doOps(ctx, id, nil, false)
}

func (s *Store) doOps(ctx context.Context, id string, counter *string, create bool) error {
	if create {
		if counter != nil {
			return s.rdb.Decr(ctx, *counter).Err()
		}
		return nil
	}
	return s.rdb.Set(ctx, "workload:"+id, "x", 0).Err()
}

// Sweep deletes every node's stale workloads in a callback, unless dryRun:
// the closure's test is on the parameter it captured.
func (s *Store) Sweep(ctx context.Context, nodes []string, dryRun bool) error {
	return each(nodes, func(node string) error {
		if !dryRun {
			return s.rdb.Del(ctx, "stale:"+node).Err()
		}
		return nil
	})
}

func each(nodes []string, f func(string) error) error {
	for _, n := range nodes {
		if err := f(n); err != nil {
			return err
		}
	}
	return nil
}

// Mode deletes the node's drain marker when mode is "force".
func (s *Store) Mode(ctx context.Context, node, mode string) error {
	if mode != "force" {
		return nil
	}
	return s.rdb.Del(ctx, "drain:"+node).Err()
}

// Other is a second statuses store: it sets the status for a positive
// ttl.
type Other struct {
	rdb *redis.Client
}

// Touch deletes a node's status for a negative ttl, and sets it with that
// ttl otherwise.
func (o *Other) Touch(ctx context.Context, node string, ttl int64) error {
	if ttl < 0 {
		return o.rdb.Del(ctx, "status:"+node).Err()
	}
	return o.rdb.Set(ctx, "status:"+node, "alive", time.Duration(ttl)*time.Second).Err()
}

// Rebuild recounts the node's usage and prunes its stale workloads: the
// constant flags it passes reach both writes. Whether it sweeps the other
// nodes depends on what Redis holds, so the sweep is a write it may make.
func (s *Store) Rebuild(ctx context.Context, node string) error {
	if _, err := s.Usage(ctx, node, true); err != nil {
		return err
	}
	if err := s.Prune(ctx, node, false); err != nil {
		return err
	}
	return s.Sweep(ctx, []string{node}, s.recount(ctx, node) == 0)
}

// Drain marks a node drained and, with evict, deletes its workloads.
func (s *Store) Drain(ctx context.Context, node string, evict bool) error {
	if err := s.rdb.Set(ctx, "drained:"+node, "1", 0).Err(); err != nil {
		return err
	}
	if evict {
		return s.rdb.Del(ctx, "workloads:"+node).Err()
	}
	return nil
}

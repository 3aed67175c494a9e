// Package rueidislock is a stub of github.com/redis/rueidis/rueidislock
// (github.com/redis/rueidis v1.0.79) for analysistest fixtures: real
// signatures, no behaviour. LockerOption's client fields and
// Locker.Client are left out: they name rueidis types the fixtures do not
// need.
package rueidislock

import (
	"context"
	"errors"
	"time"
)

var (
	ErrNotLocked    = errors.New("not locked")
	ErrLockerClosed = errors.New("locker closed")
)

// LockerOption should be passed to NewLocker to construct a Locker
type LockerOption struct {
	KeyPrefix      string
	KeyValidity    time.Duration
	ExtendInterval time.Duration
	TryNextAfter   time.Duration
	KeyMajority    int32
	NoLoopTracking bool
	FallbackSETPX  bool
}

// Locker is the interface of rueidislock
type Locker interface {
	WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	TryWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	ForceWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Close()
}

// NewLocker creates the distributed Locker backed by redis client side caching
func NewLocker(option LockerOption) (Locker, error) {
	return nil, nil
}

// Package lockkit is a framework's lock helpers: RunLocked runs a function
// under a bsm/redislock lock, and ExecLocked adapts a function with no
// result to it.
package lockkit

import (
	"context"
	"time"

	"github.com/bsm/redislock"
)

var client = &redislock.Client{}

// RunLocked runs f while it holds the lock on key.
func RunLocked[T any](key string, f func() (T, error)) (T, error) {
	var zero T
	lock, err := client.Obtain(context.Background(), key, 30*time.Second, nil)
	if err != nil {
		return zero, err
	}
	defer lock.Release(context.Background())
	return f()
}

// ExecLocked runs f while it holds the lock on key.
func ExecLocked(key string, f func() error) error {
	_, err := RunLocked(key, func() (any, error) {
		return nil, f()
	})
	return err
}

// ExecThen runs locked while it holds the lock on key, and after once it
// has given the lock up.
func ExecThen(key string, locked, after func() error) error {
	if err := ExecLocked(key, locked); err != nil {
		return err
	}
	return after()
}

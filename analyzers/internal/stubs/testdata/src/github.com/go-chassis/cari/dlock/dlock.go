// Package dlock is a stub of github.com/go-chassis/cari/dlock
// (github.com/go-chassis/cari v0.9.0) for analysistest fixtures: real
// signatures, no behaviour.
package dlock

import "errors"

var ErrDLockNotExists = errors.New("DLock do not exist")

type DLock interface {
	Lock(key string, ttl int64) error
	TryLock(key string, ttl int64) error
	Renew(key string) error
	IsHoldLock(key string) bool
	Unlock(key string) error
}

// Options contains configuration for plugins
type Options struct {
	Kind string
}

func Init(opts Options) (err error) { return nil }

func Instance() DLock { return nil }

func Lock(key string, ttl int64) error { return nil }

func TryLock(key string, ttl int64) error { return nil }

func Renew(key string) error { return nil }

func IsHoldLock(key string) bool { return false }

func Unlock(key string) error { return nil }

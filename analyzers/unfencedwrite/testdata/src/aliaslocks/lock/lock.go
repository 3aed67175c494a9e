// Package lock declares the application's lock and store interfaces,
// spelled with context.Context and interface{}.
package lock

import "context"

// DistributedLock is a lock some store hands out.
type DistributedLock interface {
	Lock(ctx context.Context) (context.Context, error)
	Unlock(ctx context.Context) error
}

// Store makes locks and keeps values.
type Store interface {
	CreateLock(key string) (DistributedLock, error)
	Save(ctx context.Context, key string, v interface{}) error
}

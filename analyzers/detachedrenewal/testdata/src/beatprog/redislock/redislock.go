// Package redislock implements heartbeat.Extender over redsync.
package redislock

import (
	"context"
	"errors"

	"github.com/go-redsync/redsync/v4"
)

// Lock is a held redsync mutex.
type Lock struct {
	Mutex *redsync.Mutex
}

// Extend extends the mutex's expiry.
func (l *Lock) Extend(ctx context.Context) error {
	ok, err := l.Mutex.ExtendContext(ctx)
	if err == nil && !ok {
		err = errors.New("lock lost")
	}
	return err
}

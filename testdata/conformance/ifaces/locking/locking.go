// Package locking implements app.Locker with redsync.
package locking

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"github.com/fencelint/fencelint/testdata/conformance/ifaces/app"
)

// Redsync takes Redlock mutexes.
type Redsync struct{ rs *redsync.Redsync }

// New wraps rs.
func New(rs *redsync.Redsync) *Redsync { return &Redsync{rs: rs} }

// Obtain locks key and returns holding it.
func (r *Redsync) Obtain(ctx context.Context, key string) (app.Unlocker, error) {
	m := r.rs.NewMutex("lock:" + key)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return mutex{m}, nil
}

type mutex struct{ m *redsync.Mutex }

func (m mutex) Release(ctx context.Context) error {
	_, err := m.m.UnlockContext(ctx)
	return err
}

// Package redislocker implements the domain's Locker with redsync.
package redislocker

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"ifaceapp/domain"
)

type Locker struct{ rs *redsync.Redsync }

func New(rs *redsync.Redsync) *Locker { return &Locker{rs: rs} }

func (l *Locker) For(key string) domain.Lock { return &Lock{m: l.rs.NewMutex("lock:" + key)} }

type Lock struct{ m *redsync.Mutex }

func (l *Lock) Lock(ctx context.Context) error { return l.m.LockContext(ctx) }

func (l *Lock) Unlock(ctx context.Context) error {
	_, err := l.m.UnlockContext(ctx)
	return err
}

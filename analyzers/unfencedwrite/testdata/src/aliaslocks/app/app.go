// Package app takes its locks through a helper that hands the lock to its
// caller, letting it go only when the helper itself fails.
package app

import (
	"context"

	"aliaslocks/lock"
)

type Service struct{ store lock.Store }

// doLock returns holding the lock whenever it returns no error.
func (s *Service) doLock(ctx context.Context, name string) (l lock.DistributedLock, rctx context.Context, err error) {
	if l, err = s.store.CreateLock(name); err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			_ = l.Unlock(context.Background())
		}
	}()
	rctx, err = l.Lock(ctx)
	return l, rctx, err
}

func (s *Service) Update(ctx context.Context, key string, v int) error {
	l, ctx, err := s.doLock(ctx, key)
	if err != nil {
		return err
	}
	defer l.Unlock(ctx)
	return s.store.Save(ctx, key, v) // want `Store.Save \(KV.Put .*\) writes to etcd without a fencing token while the etcd lock taken by Service.doLock`
}

// probe takes the lock and lets it go before it returns, whatever happens.
func (s *Service) probe(ctx context.Context, name string) (err error) {
	l, err := s.store.CreateLock(name)
	if err != nil {
		return err
	}
	defer func() {
		_ = l.Unlock(context.Background())
	}()
	_, err = l.Lock(ctx)
	return err
}

func (s *Service) Touch(ctx context.Context, key string) error {
	if err := s.probe(ctx, key); err != nil {
		return err
	}
	return s.store.Save(ctx, key, 1)
}

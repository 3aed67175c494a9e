// Package memstore is the in-memory store used in development: it writes
// nothing shared, so calls that may reach it are not writes because of it.
package memstore

import (
	"context"
	"sync"

	"ifaceapp/domain"
)

type Store struct {
	mu   sync.Mutex
	runs []domain.Run
}

func (s *Store) InsertRun(ctx context.Context, r domain.Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, r)
	return nil
}

func (s *Store) LastRun(ctx context.Context, job string) (domain.Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.runs) - 1; i >= 0; i-- {
		if s.runs[i].Job == job {
			return s.runs[i], nil
		}
	}
	return domain.Run{}, nil
}

func (s *Store) SaveRun(ctx context.Context, r domain.Run, fence int64) error {
	return s.InsertRun(ctx, r)
}

// Locker is a process-local Locker for tests and single-node setups.
type Locker struct{ mu sync.Mutex }

func (l *Locker) For(key string) domain.Lock { return &localLock{l: l} }

type localLock struct{ l *Locker }

func (k *localLock) Lock(ctx context.Context) error   { k.l.mu.Lock(); return nil }
func (k *localLock) Unlock(ctx context.Context) error { k.l.mu.Unlock(); return nil }

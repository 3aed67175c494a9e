// Package memrepo is an in-memory repository for local runs: its lock is a
// process mutex, no lease.
package memrepo

import (
	"context"
	"errors"
	"sync"

	"lockedrepo/port"
)

type Repo struct {
	mu  sync.Mutex
	bts map[uint]port.Backtest
}

func (r *Repo) Read(_ context.Context, id uint) (port.Backtest, error) {
	bt, ok := r.bts[id]
	if !ok {
		return bt, errors.New("not found")
	}
	return bt, nil
}

func (r *Repo) Update(_ context.Context, bt port.Backtest) error {
	r.bts[bt.ID] = bt
	return nil
}

func (r *Repo) LockedBacktest(_ uint, fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fn()
}

func (r *Repo) Each(_ context.Context, fn func(port.Backtest) error) error {
	for _, bt := range r.bts {
		if err := fn(bt); err != nil {
			return err
		}
	}
	return nil
}

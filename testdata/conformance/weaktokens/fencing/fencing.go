// Package fencing hands out an etcd mutex's revision as a fencing token,
// through a struct and a method, for callers in other packages.
package fencing

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// A Grant is a held mutex and the revision it was acquired at.
type Grant struct {
	Mutex *concurrency.Mutex
	Token int64
}

// Acquire locks m and returns its grant.
func Acquire(ctx context.Context, m *concurrency.Mutex) (*Grant, error) {
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return &Grant{Mutex: m, Token: m.Header().Revision}, nil
}

// Fence returns the grant's token.
func (g *Grant) Fence() int64 { return g.Token }

// Release unlocks the grant's mutex.
func (g *Grant) Release(ctx context.Context) error { return g.Mutex.Unlock(ctx) }

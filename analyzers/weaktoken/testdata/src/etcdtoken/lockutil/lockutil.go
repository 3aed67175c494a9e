// Package lockutil wraps an etcd mutex and hands out its revision as the
// fencing token.
package lockutil

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// A Held is a held mutex with its token.
type Held struct {
	Mutex *concurrency.Mutex
	Token int64
}

// Lock acquires m.
func Lock(ctx context.Context, m *concurrency.Mutex) (*Held, error) {
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return &Held{Mutex: m, Token: m.Header().Revision}, nil
}

// Fence returns the token of h.
func (h *Held) Fence() int64 { return h.Token }

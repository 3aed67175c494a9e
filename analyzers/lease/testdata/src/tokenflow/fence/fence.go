// Package fence hands out tokens through a struct and helpers, for importers
// to follow through facts.
package fence

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A Lease is a held etcd mutex and its token.
type Lease struct {
	Rev   int64  // want Rev:"token monotonic Mutex.Header\\(\\).Revision"
	Owner string // want Owner:"token not-ordered uuid.NewString\\(\\)"
	Mutex *concurrency.Mutex
}

// Acquire locks m and records the revision it was acquired at.
func Acquire(ctx context.Context, m *concurrency.Mutex) (*Lease, error) { // want Acquire:"lock role acquire"
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return &Lease{Rev: m.Header().Revision, Owner: uuid.NewString(), Mutex: m}, nil
}

// Token returns the lease's fencing token.
func (l *Lease) Token() int64 { return l.Rev } // want Token:"token monotonic Mutex.Header\\(\\).Revision"

// Value returns redsync's lock value, which is no token.
func Value(m *redsync.Mutex) string { return m.Value() } // want Value:"token not-ordered Mutex.Value\\(\\)"

// Stamp returns a clock reading.
func Stamp() int64 { return nowNanos() } // want Stamp:"token not-ordered time.Now\\(\\).UnixNano\\(\\)"

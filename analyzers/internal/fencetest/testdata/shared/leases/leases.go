// Package leases is copied to example.com/leases by RunWithPackages; it
// imports its own subpackage and a shared stub.
package leases

import (
	"context"

	"example.com/leases/inner"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Take locks m.
func Take(ctx context.Context, m *concurrency.Mutex) error { return inner.Lock(ctx, m) }

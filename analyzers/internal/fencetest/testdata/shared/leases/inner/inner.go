package inner

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// Lock locks m.
func Lock(ctx context.Context, m *concurrency.Mutex) error { return m.Lock(ctx) }

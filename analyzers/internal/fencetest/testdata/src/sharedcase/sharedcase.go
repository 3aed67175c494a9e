// Package sharedcase imports packages RunWithPackages copied in.
package sharedcase

import (
	"context"

	"example.com/leases"
	"example.com/leases/inner"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func take(ctx context.Context, s *concurrency.Session) error {
	if err := leases.Take(ctx, concurrency.NewMutex(s, "/jobs/a")); err != nil {
		return err
	}
	return inner.Lock(ctx, concurrency.NewMutex(s, "/jobs/b")) // want `acquires via example.com/leases/inner.Lock`
}

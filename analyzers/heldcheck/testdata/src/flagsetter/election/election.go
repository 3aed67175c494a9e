// Package election campaigns for an etcd lock and tells the service through
// callbacks of its own when it starts and stops leading.
package election

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Callbacks are run while this replica leads, and when it stops.
type Callbacks struct {
	OnStartedLeading func(ctx context.Context)
	OnStoppedLeading func(ctx context.Context)
}

type Elector struct {
	client    *clientv3.Client
	key       string
	callbacks Callbacks
}

func New(client *clientv3.Client, key string) *Elector {
	return &Elector{client: client, key: key}
}

// Run takes the lock, runs OnStartedLeading, and runs OnStoppedLeading once
// the session ends.
func (e *Elector) Run(ctx context.Context, callbacks Callbacks) error {
	e.callbacks = callbacks
	session, err := concurrency.NewSession(e.client, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer session.Close()
	mutex := concurrency.NewMutex(session, e.key)
	if err := mutex.Lock(ctx); err != nil {
		return err
	}
	e.callbacks.OnStartedLeading(ctx)
	<-session.Done()
	e.callbacks.OnStoppedLeading(ctx)
	return nil
}

// Package syncer copies applications from the cluster into the database.
package syncer

import (
	"context"
	"time"
)

// Store is the database as the syncer sees it; store.Store implements it.
type Store interface {
	PutApp(ctx context.Context, name, spec string) error
}

type AppSync struct {
	store Store
	queue chan [2]string
}

func New(s Store) *AppSync { return &AppSync{store: s, queue: make(chan [2]string, 16)} }

// Start drains the queue in a goroutine of its own.
func (a *AppSync) Start(ctx context.Context, errc chan error) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case app := <-a.queue:
				if err := a.store.PutApp(ctx, app[0], app[1]); err != nil { // want `Store.PutApp \(DB.ExecContext \(UPDATE apps\) at store.go:\d+, via \*store.Store.PutApp\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\), handed over at events.go:\d+, that AppSync.Start holds`
					errc <- err
				}
			case <-time.After(time.Minute):
			}
		}
	}()
}

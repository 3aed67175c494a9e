// Package events starts the workers that keep the database in step with
// the cluster; the server starts it while it leads.
package events

import (
	"context"
	"database/sql"

	"goworkers/stats"
	"goworkers/store"
	"goworkers/syncer"
)

// Worker is a background job.
type Worker interface {
	Start(ctx context.Context, errc chan error)
}

// StartWorkers starts each worker in a goroutine of its own: the workers
// run under whatever lease StartWorkers runs under, and report there.
func StartWorkers(ctx context.Context, db *sql.DB, errc chan error) {
	workers := []Worker{syncer.New(store.New(db)), stats.New(db), idle{}}
	for _, w := range workers {
		go w.Start(ctx, errc)
	}
}

// idle is a worker of this package: one that writes would be reported at
// the go statement, as any call of the package is; this one writes nothing.
type idle struct{}

func (idle) Start(ctx context.Context, errc chan error) { <-ctx.Done() }

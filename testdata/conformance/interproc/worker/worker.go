// Package worker consumes a stream under an etcd mutex and writes through
// the store and sqlc packages: the writes are found across packages.
package worker

import (
	"context"
	"errors"

	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelint/fencelint/testdata/conformance/interproc/jobsdb"
	"github.com/fencelint/fencelint/testdata/conformance/interproc/store"
)

// Consumer owns one stream at a time.
type Consumer struct {
	session *concurrency.Session
	store   *store.Store
	jobs    *jobsdb.Queries
}

// Commit saves the offset through a helper that writes unconditionally.
func (c *Consumer) Commit(ctx context.Context, stream string, offset int64) error {
	m := concurrency.NewMutex(c.session, "/locks/stream/"+stream)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return c.store.SaveCheckpoint(c.session.Ctx(), stream, offset) // want unfencedwrite:"without a fencing token"
}

// CommitFenced passes the mutex's revision to the fenced helper.
func (c *Consumer) CommitFenced(ctx context.Context, stream string, offset int64) error {
	m := concurrency.NewMutex(c.session, "/locks/stream/"+stream)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	err := c.store.SaveCheckpointFenced(c.session.Ctx(), stream, offset, m.Header().Revision)
	if errors.Is(err, store.ErrStale) {
		return nil
	}
	return err
}

// Finish uses sqlc-generated queries: the fenced one with the revision,
// the heartbeat without any fence.
func (c *Consumer) Finish(ctx context.Context, job int64) error {
	m := concurrency.NewMutex(c.session, "/locks/job")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if err := c.jobs.TouchJob(c.session.Ctx(), job); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	n, err := c.jobs.FinishJob(c.session.Ctx(), jobsdb.FinishJobParams{ID: job, Fence: m.Header().Revision})
	if err != nil {
		return err
	}
	if n != 1 {
		return store.ErrStale
	}
	state, err := c.jobs.GetJobState(c.session.Ctx(), job)
	if err != nil {
		return err
	}
	_ = state
	return nil
}

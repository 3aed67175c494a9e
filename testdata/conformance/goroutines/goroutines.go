// Package goroutines starts work in goroutines while it holds an etcd
// mutex: a go statement, an errgroup and a WaitGroup all run that work
// under the lease, as a closure made there would.
package goroutines

import (
	"context"
	"database/sql"
	"sync"

	"go.etcd.io/etcd/client/v3/concurrency"
	"golang.org/x/sync/errgroup"
)

// Compactor compacts partitions, one compactor at a time.
type Compactor struct {
	db      *sql.DB
	session *concurrency.Session
}

// compact runs only in goroutines Run starts under the mutex: its write is
// made under it, and reported here.
func (c *Compactor) compact(ctx context.Context, part int) error {
	_, err := c.db.ExecContext(ctx, `DELETE FROM events WHERE part = $1 AND compacted`, part) // want unfencedwrite:"DB.ExecContext \\(DELETE events\\) writes to SQL database without a fencing token while the etcd lock"
	return err
}

func (c *Compactor) vacuum() error {
	_, err := c.db.Exec(`UPDATE partitions SET vacuumed_at = now()`)
	return err
}

// Run fans the work out under the mutex.
func (c *Compactor) Run(ctx context.Context, parts []int) error {
	m := concurrency.NewMutex(c.session, "/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	g, gctx := errgroup.WithContext(ctx)
	for _, p := range parts {
		g.Go(func() error { return c.compact(gctx, p) })
	}
	g.Go(c.vacuum) // want unfencedwrite:"Group.Go\\(Compactor.vacuum\\) .* without a fencing token"
	var wg sync.WaitGroup
	go c.compact(ctx, 0)
	wg.Wait()
	return g.Wait()
}

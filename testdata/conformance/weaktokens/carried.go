package weaktokens

import (
	"context"
	"errors"

	"github.com/go-redsync/redsync/v4"
	"github.com/hashicorp/consul/api"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A Rebuild is one report to rebuild, with the fence it is written under.
type Rebuild struct {
	ID    int64
	Body  string
	Fence int64
}

// Rebuilder rebuilds reports under a redsync lock.
type Rebuilder struct {
	pool *pgxpool.Pool
	rs   *redsync.Redsync
}

// Run locks, then draws the rebuild's fence into it: a holder that pauses
// after locking draws a larger fence than its successor.
func (b *Rebuilder) Run(ctx context.Context, rb *Rebuild) error {
	m := b.rs.NewMutex("reports")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := b.pool.QueryRow(ctx, "SELECT nextval('report_fence')").Scan(&rb.Fence); err != nil {
		return err
	}
	return b.save(ctx, rb) // want weaktoken:"is not a fencing token: it is drawn in a separate step after"
}

func (b *Rebuilder) save(ctx context.Context, rb *Rebuild) error {
	tag, err := b.pool.Exec(ctx, setReport, rb.Body, rb.Fence, rb.ID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

// A Refresh is a rebuild whose fence comes with the lock.
type Refresh struct {
	ID    int64
	Body  string
	Fence int64
}

// RunRefresh takes a PostgreSQL advisory lock and draws the fence in the
// same statement: the fence is issued with the grant.
func (b *Rebuilder) RunRefresh(ctx context.Context, rf *Refresh) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock(7), nextval('report_fence')").Scan(&locked, &rf.Fence); err != nil || !locked {
		return errors.New("busy")
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock(7)")
	tag, err := conn.Exec(ctx, setReport, rf.Body, rf.Fence, rf.ID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return errStale
	}
	return nil
}

// ConsulAnyHolder reads LockIndex back and checks only that the pair has a
// session, which after a pause may be the successor's.
func (r *Reports) ConsulAnyHolder(ctx context.Context, c *api.Client, sid string) error {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: "reports", Session: sid}, nil)
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer c.KV().Release(&api.KVPair{Key: "reports", Session: sid}, nil)
	pair, _, err := c.KV().Get("reports", nil)
	if err != nil || pair == nil || pair.Session == "" {
		return errStale
	}
	return r.write(ctx, "any holder", int64(pair.LockIndex)) // want weaktoken:"is not a fencing token: it is read back after"
}

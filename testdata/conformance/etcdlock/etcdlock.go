// Package etcdlock holds jobs that run under etcd's concurrency.Mutex and
// concurrency.Election, written the way teams write them.
package etcdlock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errNotOwner = errors.New("lost the compactor lock before the write")

// Compactor folds the day's events into a summary once per cluster.
type Compactor struct {
	cli *clientv3.Client
	db  *sql.DB
}

// RunUnfenced is the classic frozen-worker bug: the Put and the UPDATE
// succeed even if the mutex expired while this process was paused.
func (c *Compactor) RunUnfenced(ctx context.Context, day string) error {
	s, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10)) // want detachedrenewal:"never hears"
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)

	total, err := c.sumEvents(ctx, day)
	if err != nil {
		return err
	}
	if _, err := c.db.ExecContext(ctx, `UPDATE daily_summary SET total = $1 WHERE day = $2`, total, day); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	_, err = c.cli.Put(ctx, "/compactor/last-day", day) // want unfencedwrite:"without a fencing token"
	return err
}

// RunFenced writes to etcd only in a Txn guarded by the mutex's ownership
// compare, and to Postgres only with the mutex's revision as the fence.
func (c *Compactor) RunFenced(ctx context.Context, day string) error {
	s, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	fence := m.Header().Revision

	total, err := c.sumEvents(ctx, day)
	if err != nil {
		return err
	}
	res, err := c.db.ExecContext(ctx,
		`UPDATE daily_summary SET total = $1, fence = $3 WHERE day = $2 AND fence < $3`,
		total, day, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errNotOwner
	}

	resp, err := c.cli.Txn(ctx).
		If(m.IsOwner()).
		Then(clientv3.OpPut("/compactor/last-day", day)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errNotOwner
	}
	return nil
}

// RunOnlyStoresToken writes the revision but never compares it: a stale
// holder's UPDATE still lands.
func (c *Compactor) RunOnlyStoresToken(ctx context.Context, day string, total int64) error {
	s, err := concurrency.NewSession(c.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := c.db.ExecContext(s.Ctx(), `UPDATE daily_summary SET total = $1, fence = $3 WHERE day = $2`, total, day, m.Header().Revision) // want unfencedwrite:"without a fencing token"
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// RunWithLeaseIDAsFence compares a lease ID, which is not ordered.
func (c *Compactor) RunWithLeaseIDAsFence(ctx context.Context, day string, total int64) error {
	s, err := concurrency.NewSession(c.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := c.db.ExecContext(s.Ctx(), `UPDATE daily_summary SET total = $1, fence = $3 WHERE day = $2 AND fence < $3`, total, day, int64(s.Lease())) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotOwner
	}
	return nil
}

// RunCheckingTTL asks etcd whether the lease is alive before writing:
// still a check-then-act, the lease can expire right after the answer.
func (c *Compactor) RunCheckingTTL(ctx context.Context, day string, total int64) error {
	s, err := concurrency.NewSession(c.cli)
	if err != nil {
		return err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.TryLock(ctx); err != nil {
		if errors.Is(err, concurrency.ErrLocked) {
			return nil
		}
		return err
	}
	defer m.Unlock(ctx)
	ttl, err := c.cli.TimeToLive(s.Ctx(), s.Lease()) // want heldcheck:"only tells that the lease was held"
	if err != nil {
		return err
	}
	if ttl.TTL <= 0 {
		return errNotOwner
	}
	_, err = c.db.ExecContext(s.Ctx(), `UPDATE daily_summary SET total = $1 WHERE day = $2`, total, day) // want unfencedwrite:"without a fencing token"
	return err
}

// RunReadOnly holds the lock but only reads and logs.
func (c *Compactor) RunReadOnly(ctx context.Context, day string) (int64, error) {
	s, err := concurrency.NewSession(c.cli)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	m := concurrency.NewMutex(s, "/locks/compactor")
	if err := m.Lock(ctx); err != nil {
		return 0, err
	}
	defer m.Unlock(ctx)
	resp, err := c.cli.Get(ctx, "/compactor/last-day")
	if err != nil {
		return 0, err
	}
	log.Printf("compactor: last day %d keys, rev %d", len(resp.Kvs), resp.Header.Revision)
	return c.sumEvents(ctx, day)
}

func (c *Compactor) sumEvents(ctx context.Context, day string) (int64, error) {
	var total int64
	err := c.db.QueryRowContext(ctx, `SELECT coalesce(sum(amount), 0) FROM events WHERE day = $1`, day).Scan(&total)
	return total, err
}

// Scheduler is a leader elected with concurrency.Election.
type Scheduler struct {
	cli *clientv3.Client
	db  *sql.DB
	id  string
}

// Lead campaigns and then assigns work, fencing each assignment with the
// leader key's create revision and watching the session for loss.
func (s *Scheduler) Lead(ctx context.Context) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(15))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, s.id); err != nil {
		return err
	}
	defer e.Resign(context.Background())
	rev := e.Rev()
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-sess.Done():
			return errors.New("scheduler: session lost")
		case <-ticker.C:
			if err := s.assign(sess.Ctx(), rev); err != nil {
				return err
			}
		}
	}
}

func (s *Scheduler) assign(ctx context.Context, rev int64) error {
	res, err := s.db.ExecContext(ctx,
		`UPDATE shards SET owner = $1, fence = $2 WHERE owner IS NULL AND fence < $2`, s.id, rev)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return nil
	}
	return nil
}

// LeadAndAnnounce writes the leader's address into a plain key: the old
// leader, paused, overwrites the new leader's address.
func (s *Scheduler) LeadAndAnnounce(ctx context.Context, addr string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(15))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(sess.Ctx(), s.id); err != nil {
		return err
	}
	_, err = s.cli.Put(sess.Ctx(), "/scheduler/leader-addr", addr) // want unfencedwrite:"without a fencing token"
	return err
}

// LeadAndProclaim uses the election's own guarded write, and a Txn that
// compares the leader key's create revision.
func (s *Scheduler) LeadAndProclaim(ctx context.Context, addr string) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(15))
	if err != nil {
		return err
	}
	defer sess.Close()
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(sess.Ctx(), s.id); err != nil {
		return err
	}
	if err := e.Proclaim(sess.Ctx(), addr); err != nil {
		return err
	}
	resp, err := s.cli.Txn(sess.Ctx()).
		If(clientv3.Compare(clientv3.CreateRevision(e.Key()), "=", e.Rev())).
		Then(clientv3.OpPut("/scheduler/epoch", strconv.FormatInt(e.Rev(), 10))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return fmt.Errorf("scheduler: no longer leader at rev %d", e.Rev())
	}
	return nil
}

// StampVersion uses a key's Version, which restarts when the key is
// recreated, as the fence.
func (s *Scheduler) StampVersion(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := s.cli.Get(ctx, m.Key())
	if err != nil || len(resp.Kvs) == 0 {
		return errNotOwner
	}
	version := resp.Kvs[0].Version
	res, err := s.db.ExecContext(ctx, `UPDATE shards SET fence = $1 WHERE owner = $2 AND fence < $1`, version, s.id) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotOwner
	}
	return nil
}

// StampCreateRevision reads back its own mutex key's create revision, a
// global revision issued when the key (the lock) was created.
func (s *Scheduler) StampCreateRevision(ctx context.Context, m *concurrency.Mutex) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := s.cli.Get(ctx, m.Key())
	if err != nil || len(resp.Kvs) == 0 {
		return errNotOwner
	}
	fence := resp.Kvs[0].CreateRevision
	res, err := s.db.ExecContext(ctx, `UPDATE shards SET fence = $1 WHERE owner = $2 AND fence < $1`, fence, s.id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotOwner
	}
	return nil
}

// AnnounceIfLeader asks the election who leads before writing: the answer
// can be stale by the time the Put lands.
func (s *Scheduler) AnnounceIfLeader(ctx context.Context, e *concurrency.Election, addr string) error {
	resp, err := e.Leader(ctx) // want heldcheck:"only tells that the lease was held"
	if err != nil {
		return err
	}
	if len(resp.Kvs) == 0 || string(resp.Kvs[0].Value) != s.id {
		return nil
	}
	_, err = s.cli.Put(ctx, "/scheduler/leader-addr", addr)
	return err
}

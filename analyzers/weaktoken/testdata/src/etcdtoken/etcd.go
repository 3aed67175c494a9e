// Package etcdtoken fences SQL writes made under etcd locks.
package etcdtoken

import (
	"context"
	"database/sql"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"etcdtoken/lockutil"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// revision fences with the revision the mutex was acquired at: a real token.
func revision(ctx context.Context, db *sql.DB, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return checked(db.ExecContext(ctx, update, "body", m.Header().Revision, 1))
}

// throughHelper gets the revision through a struct and a helper of another
// package: facts carry its origin.
func throughHelper(ctx context.Context, db *sql.DB, s *concurrency.Session) error {
	h, err := lockutil.Lock(ctx, concurrency.NewMutex(s, "/docs"))
	if err != nil {
		return err
	}
	defer h.Mutex.Unlock(ctx)
	if err := checked(db.ExecContext(ctx, update, "body", h.Token, 1)); err != nil {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", h.Fence(), 2))
}

// leaseID fences with the session's lease ID, which is not ordered.
func leaseID(ctx context.Context, db *sql.DB, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return checked(db.ExecContext(ctx, update, "body", int64(s.Lease()), 1)) // want `is fenced with Session.Lease\(\) \(line 47\), which is not a fencing token: an etcd lease ID is picked per cluster member.*; use the revision the lock was acquired at, m.Header\(\).Revision`
}

// keyVersion fences with the lock key's Version, which restarts.
func keyVersion(ctx context.Context, db *sql.DB, cli *clientv3.Client, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := cli.Get(ctx, m.Key())
	if err != nil || len(resp.Kvs) == 0 {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", resp.Kvs[0].Version, 1)) // want `is fenced with KeyValue.Version \(line 61\), which is not a fencing token: a key's Version counts its writes and restarts`
}

// createRevision fences with the lock key's create revision: a real token.
func createRevision(ctx context.Context, db *sql.DB, cli *clientv3.Client, s *concurrency.Session) error {
	m := concurrency.NewMutex(s, "/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := cli.Get(ctx, m.Key())
	if err != nil || len(resp.Kvs) == 0 {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", resp.Kvs[0].CreateRevision, 1))
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

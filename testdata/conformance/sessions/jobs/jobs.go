// Package jobs runs jobs under locks made from the coordinator's etcd
// session and ZooKeeper connection, which nothing watches.
package jobs

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-zookeeper/zk"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelint/fencelint/testdata/conformance/sessions/coord"
)

// Runner runs jobs one at a time across the fleet.
type Runner struct {
	coord *coord.Coordinator
	rs    *redsync.Redsync
	db    *sql.DB
}

// Import holds a redsync mutex that coord keeps extended, and never hears
// when an extension fails.
func (r *Runner) Import(ctx context.Context, rows []string) error {
	m := r.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	go coord.KeepExtending(m) // want detachedrenewal:"this goroutine runs coord.KeepExtending, which renews the redsync lock in a loop \\(Mutex.Extend at coord.go:\\d+\\) and tells nobody when renewal fails, so the work never hears"
	for _, row := range rows {
		if _, err := r.db.ExecContext(ctx, `INSERT INTO rows (name) VALUES ($1)`, row); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	return nil
}

// Run locks a job's mutex and marks it done: after the session's lease
// expires, another runner takes the mutex while this one goes on.
func (r *Runner) Run(ctx context.Context, job string) error {
	m := concurrency.NewMutex(r.coord.Session(), "/locks/jobs/"+job) // want detachedrenewal:"an etcd session \\(concurrency.NewSession at coord.go:25\\) whose Done\\(\\) nothing waits on and whose Ctx\\(\\) nothing uses, so the work never hears"
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := r.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, job) // want unfencedwrite:"without a fencing token"
	return err
}

// Rebalance takes a ZooKeeper lock on the dropped-events connection.
func (r *Runner) Rebalance(ctx context.Context, plan string) error {
	l := zk.NewLock(r.coord.ZK, "/locks/rebalance", zk.WorldACL(zk.PermAll)) // want detachedrenewal:"whose ZooKeeper session events nothing acts on \\(zk.Connect at coord.go:29\\), so the work never hears"
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := r.db.ExecContext(ctx, `UPDATE plans SET body = $1 WHERE id = 1`, plan) // want unfencedwrite:"without a fencing token"
	return err
}

// Package sessionfield locks with sessions and connections another package
// opened and keeps in fields, and with ones it keeps in its own fields.
package sessionfield

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/go-zookeeper/zk"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"sessionfield/store"
	"sessionfield/zkconn"
)

var errLost = errors.New("lost the lease")

type worker struct {
	db  *sql.DB
	st  *store.Store
	zkc *zkconn.Client
}

// runJobs locks with the session store keeps and never watches.
func (w *worker) runJobs(ctx context.Context, jobs []string) error {
	m := concurrency.NewMutex(w.st.Session, "/locks/jobs") // want `this lock is made from the field Session \(package store\), an etcd session \(concurrency.NewSession at store.go:18\) whose Done\(\) nothing waits on and whose Ctx\(\) nothing uses, so the work never hears when its lease expires and the write at line \d+ goes on`
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.update(ctx, jobs)
}

// campaign wins an election on the shared session, read through an accessor.
func (w *worker) campaign(ctx context.Context, jobs []string) error {
	e := concurrency.NewElection(w.st.Shared(), "/elect/jobs") // want `this lock is made from Store.Shared\(\), an etcd session \(concurrency.NewSession at store.go:22\)`
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	return w.update(ctx, jobs)
}

// rebalance locks on a connection whose events zkconn dropped.
func (w *worker) rebalance(ctx context.Context, jobs []string) error {
	l := zk.NewLock(w.zkc.Conn, "/locks/rebalance", zk.WorldACL(zk.PermAll)) // want `this lock is made from the field Conn \(package zkconn\), whose ZooKeeper session events nothing acts on \(zk.Connect at zkconn.go:17\), so the work never hears when the session expires`
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	return w.update(ctx, jobs)
}

// A leader keeps its own session in a field and locks in another method.
type leader struct {
	cli     *clientv3.Client
	db      *sql.DB
	session *concurrency.Session
}

// start opens the session and keeps it.
func (l *leader) start() error {
	s, err := concurrency.NewSession(l.cli) // want `nothing waits on this etcd session's Done\(\) or uses its Ctx\(\), so the work never hears when its lease expires and the write at line \d+ goes on`
	if err != nil {
		return err
	}
	l.session = s
	return nil
}

// lead locks with the kept session.
func (l *leader) lead(ctx context.Context, jobs []string) error {
	m := concurrency.NewMutex(l.session, "/locks/lead")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	for _, j := range jobs {
		if _, err := l.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

// A zkLeader connects, drops the events, and locks in another method.
type zkLeader struct {
	conn *zk.Conn
	db   *sql.DB
}

func (z *zkLeader) connect(servers []string) error {
	conn, _, err := zk.Connect(servers, 10*time.Second) // want `this discards the event channel zk.Connect returns, so the work never hears when the ZooKeeper session expires and its lock nodes vanish, and the write at line \d+ goes on`
	if err != nil {
		return err
	}
	z.conn = conn
	return nil
}

func (z *zkLeader) run(ctx context.Context, jobs []string) error {
	l := zk.NewLock(z.conn, "/locks/run", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	for _, j := range jobs {
		if _, err := z.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

// A zkWatcher cancels its work when the session expires.
type zkWatcher struct {
	conn   *zk.Conn
	db     *sql.DB
	cancel context.CancelCauseFunc
}

func (z *zkWatcher) connect(servers []string) error {
	conn, events, err := zk.Connect(servers, 10*time.Second)
	if err != nil {
		return err
	}
	z.conn = conn
	go func() {
		for ev := range events {
			if ev.State == zk.StateExpired {
				z.cancel(errLost)
				return
			}
			log.Printf("zk: %v", ev)
		}
	}()
	return nil
}

func (z *zkWatcher) run(ctx context.Context, jobs []string) error {
	l := zk.NewLock(z.conn, "/locks/run", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	for _, j := range jobs {
		if _, err := z.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

func (w *worker) update(ctx context.Context, jobs []string) error {
	for _, j := range jobs {
		if _, err := w.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

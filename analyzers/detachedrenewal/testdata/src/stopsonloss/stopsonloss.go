// Package stopsonloss hands the work to goroutines started while a lease is
// held, and passes them the lease's lost signal: a goroutine that selects on
// it, or checks its ctx before writing, hears of the loss (its writes are
// still unfencedwrite's to judge); one that ignores it does not.
package stopsonloss

import (
	"context"
	"database/sql"

	"golang.org/x/sync/errgroup"

	"github.com/hashicorp/consul/api"
	v3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type worker struct {
	db     *sql.DB
	client *api.Client
	etcd   *v3.Client
}

// loop writes until done closes.
func (w *worker) loop(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
			w.db.Exec(`UPDATE jobs SET beat = now()`)
		}
	}
}

// untilCancelled checks ctx before each write.
func (w *worker) untilCancelled(ctx context.Context) {
	for ctx.Err() == nil {
		w.db.ExecContext(ctx, `UPDATE jobs SET beat = now()`)
	}
}

// forever never looks at what it is given.
func (w *worker) forever(done <-chan struct{}) {
	for {
		w.db.Exec(`UPDATE jobs SET beat = now()`)
	}
}

func (w *worker) etcdDone() error {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	go w.loop(s.Done())
	return nil
}

func (w *worker) etcdCtx() error {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	go w.untilCancelled(s.Ctx())
	return nil
}

func (w *worker) etcdIgnored() error {
	s, err := concurrency.NewSession(w.etcd) // want `nothing waits on this etcd session's Done\(\) or uses its Ctx\(\), so the work never hears when its lease expires and the write at line 85 goes on`
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	go w.forever(s.Done())
	return nil
}

func (w *worker) consulLost(stop chan struct{}) error {
	l, err := w.client.LockKey("jobs/leader")
	if err != nil {
		return err
	}
	lost, err := l.Lock(stop)
	if err != nil || lost == nil {
		return err
	}
	go w.loop(lost)
	return nil
}

func (w *worker) consulIgnored(stop chan struct{}) error {
	l, err := w.client.LockKey("jobs/leader")
	if err != nil {
		return err
	}
	lost, err := l.Lock(stop) // want `nothing reads the channel Lock.Lock returns, which closes when the lock is lost`
	if err != nil || lost == nil {
		return err
	}
	go w.forever(lost)
	return nil
}

func (w *worker) lockEtcd() (*concurrency.Session, error) {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return nil, err
	}
	m := concurrency.NewMutex(s, "/jobs")
	return s, m.Lock(context.Background())
}

// step writes once unless ctx is done.
func (w *worker) step(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	default:
	}
	w.db.ExecContext(ctx, `UPDATE jobs SET beat = now()`)
}

// run steps until ctx ends, two calls deep.
func (w *worker) run(ctx context.Context) error {
	for ctx.Err() == nil {
		w.step(ctx)
	}
	return ctx.Err()
}

func (w *worker) etcdGroup() error {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(s.Ctx())
	g.Go(func() error { return w.run(gctx) })
	return g.Wait()
}

func (w *worker) etcdDerived() error {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(s.Ctx())
	defer cancel()
	go w.run(ctx)
	return nil
}

type fieldWorker struct {
	worker
	done <-chan struct{}
}

func (w *fieldWorker) loopField() {
	for {
		select {
		case <-w.done:
			return
		default:
			w.db.Exec(`UPDATE jobs SET beat = now()`)
		}
	}
}

func (w *fieldWorker) etcdField() error {
	s, err := concurrency.NewSession(w.etcd)
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/jobs")
	if err := m.Lock(context.Background()); err != nil {
		return err
	}
	w.done = s.Done()
	go w.loopField()
	return nil
}

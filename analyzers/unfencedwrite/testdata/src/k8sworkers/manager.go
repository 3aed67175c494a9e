// Package k8sworkers is a controller built the way Kubernetes controllers
// hand out work (clusterpedia's synchro manager): the elected leader starts
// workers with go and wait.Until, each worker starts a synchro per cluster
// in a wait.Group, and each synchro drains its queue of events into a
// Storage interface that writes SQL. Every one of those writes runs under
// the leader's lease, though the callback only calls Manager.Run.
package k8sworkers

import (
	"context"
	"database/sql"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Storage keeps the synced objects.
type Storage interface {
	Upsert(ctx context.Context, cluster, name string, data []byte) error
	Delete(ctx context.Context, cluster, name string) error
}

// sqlStorage keys rows by cluster and name and compares no version: a
// stale copy overwrites a newer one.
type sqlStorage struct{ db *sql.DB }

func (s *sqlStorage) Upsert(ctx context.Context, cluster, name string, data []byte) error {
	_, err := s.db.ExecContext(ctx, `UPDATE resources SET data = $3 WHERE cluster = $1 AND name = $2`, cluster, name, data)
	return err
}

func (s *sqlStorage) Delete(ctx context.Context, cluster, name string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM resources WHERE cluster = $1 AND name = $2`, cluster, name)
	return err
}

// event is an informer's notification, queued for the synchro's worker.
type event struct {
	name    string
	data    []byte
	deleted bool
}

// Synchro copies one cluster's objects into the storage.
type Synchro interface {
	Run(stop <-chan struct{})
}

type resourceSynchro struct {
	cluster string
	storage Storage
	queue   chan event
}

func newSynchro(cluster string, storage Storage) Synchro {
	return &resourceSynchro{cluster: cluster, storage: storage, queue: make(chan event, 100)}
}

// Run drains the queue until stop is closed.
func (r *resourceSynchro) Run(stop <-chan struct{}) {
	wait.Until(r.processEvents, time.Second, stop)
}

func (r *resourceSynchro) processEvents() {
	for ev := range r.queue {
		r.handle(ev)
	}
}

func (r *resourceSynchro) handle(ev event) {
	handler := r.upsert
	if ev.deleted {
		handler = r.delete
	}
	_ = handler(context.TODO(), ev)
}

func (r *resourceSynchro) upsert(ctx context.Context, ev event) error {
	return r.storage.Upsert(ctx, r.cluster, ev.name, ev.data)
}

func (r *resourceSynchro) delete(ctx context.Context, ev event) error {
	return r.storage.Delete(ctx, r.cluster, ev.name)
}

// Manager starts a synchro for every cluster its queue names.
type Manager struct {
	storage  Storage
	clusters chan string
	synchros wait.Group
	stopCh   <-chan struct{}
}

// Run starts the workers and blocks until stopCh is closed.
func (m *Manager) Run(workers int, stopCh <-chan struct{}) {
	m.stopCh = stopCh
	for range workers {
		go func() {
			wait.Until(m.worker, time.Second, stopCh)
		}()
	}
	<-stopCh
	m.synchros.Wait()
}

func (m *Manager) worker() {
	for name := range m.clusters {
		m.synchros.StartWithChannel(m.stopCh, newSynchro(name, m.storage).Run)
	}
}

// Lead runs the manager as the elected leader. The workers stop when the
// leader's ctx is cancelled, which fences nothing: a leader paused past
// its lease writes what it had queued before it next looks at ctx.
func Lead(ctx context.Context, lock resourcelock.Interface, m *Manager) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				m.Run(2, ctx.Done()) // want `Manager.Run \(DB.ExecContext \(\w+ resources\) at manager.go:\d+, via .*wait.Until\(Manager.worker\)\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\)`
			},
			OnStoppedLeading: func() {},
		},
	})
}

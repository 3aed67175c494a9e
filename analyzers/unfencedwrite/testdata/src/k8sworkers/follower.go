package k8sworkers

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Mirror's queue is drained by a worker started when the mirror is made,
// outside any lease, and filled by the leader and by every replica's
// watch. What the worker writes is not done under the lease (every
// replica writes it, leader or not), so the leader's callback is quiet.
type Mirror struct {
	storage Storage
	queue   chan event
}

func NewMirror(storage Storage, stop <-chan struct{}) *Mirror {
	m := &Mirror{storage: storage, queue: make(chan event, 100)}
	go wait.Until(m.drain, time.Second, stop)
	return m
}

// Observe records a change every replica sees, leader or not.
func (m *Mirror) Observe(name string, data []byte) {
	m.queue <- event{name: name, data: data}
}

func (m *Mirror) drain() {
	for ev := range m.queue {
		_ = m.storage.Upsert(context.TODO(), "local", ev.name, ev.data)
	}
}

func (m *Mirror) Lead(ctx context.Context, lock resourcelock.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				m.queue <- event{name: "leader"}
			},
			OnStoppedLeading: func() {},
		},
	})
}

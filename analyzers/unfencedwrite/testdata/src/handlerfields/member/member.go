// Package member elects the controller's leader with an etcd mutex and
// tells the handlers registered with it when this node becomes leader.
package member

import (
	"context"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Event says what became of this node.
type Event int

const (
	BecameLeader Event = iota
	BecameFollower
)

// Handler is told of membership changes.
type Handler func(ctx context.Context, ev Event) error

// Member is what the controllers see of the election.
type Member interface {
	Register(h Handler)
	OnStop(f func())
	Watch(name string, f func(ctx context.Context))
	OnLeader(f func(ctx context.Context))
}

type member struct {
	cli   *clientv3.Client
	mutex *concurrency.Mutex

	mu       sync.Mutex
	handlers []Handler
	stops    []func()
	watchers map[string]func(ctx context.Context)
	leading  []func(ctx context.Context)
}

// New returns the election for cli.
func New(cli *clientv3.Client, m *concurrency.Mutex) Member {
	return &member{cli: cli, mutex: m, watchers: make(map[string]func(ctx context.Context))}
}

// Register's handlers run while the mutex is held (tryLock): h does.
func (m *member) Register(h Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.handlers = append(m.handlers, h)
}

// OnStop's functions run at shutdown, after the mutex is let go.
func (m *member) OnStop(f func()) {
	m.stops = append(m.stops, f)
}

// Watch's functions run in a goroutine tryLock starts under the mutex.
func (m *member) Watch(name string, f func(ctx context.Context)) {
	m.watchers[name] = f
}

// OnLeader's functions run under the mutex too, called from a copy of
// the list taken under m.mu, so that they may register more.
func (m *member) OnLeader(f func(ctx context.Context)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.leading = append(m.leading, f)
}

func (m *member) tryLock(ctx context.Context) error {
	if err := m.mutex.TryLock(ctx); err != nil {
		return err
	}
	m.exec(ctx, BecameLeader)
	m.lead(ctx)
	for _, w := range m.watchers {
		go w(ctx)
	}
	return nil
}

func (m *member) exec(ctx context.Context, ev Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, h := range m.handlers {
		_ = h(ctx, ev)
	}
}

func (m *member) lead(ctx context.Context) {
	m.mu.Lock()
	fns := make([]func(ctx context.Context), len(m.leading))
	copy(fns, m.leading)
	m.mu.Unlock()
	for _, f := range fns {
		f(ctx)
	}
}

func (m *member) stop(ctx context.Context) {
	_ = m.mutex.Unlock(ctx)
	for _, f := range m.stops {
		f()
	}
}

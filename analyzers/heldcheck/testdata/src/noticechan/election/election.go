// Package election runs an etcd election and tells its owner, on a channel
// the owner hands in, when this node becomes or stops being the leader.
package election

import (
	"context"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Elector campaigns for leadership in the background.
type Elector interface {
	Elect(ctx context.Context)
	IsLeader() bool
}

type etcdElector struct {
	cli    *clientv3.Client
	prefix string
	node   string
	inform chan<- bool // true when this node leads, false when it stops
	leader bool
}

// New returns an Elector that reports its leadership on inform.
func New(cli *clientv3.Client, prefix, node string, inform chan<- bool) Elector {
	return newEtcdElector(cli, prefix, node, inform)
}

func newEtcdElector(cli *clientv3.Client, prefix, node string, inform chan<- bool) *etcdElector {
	return &etcdElector{cli: cli, prefix: prefix, node: node, inform: inform}
}

func (e *etcdElector) Elect(ctx context.Context) {
	go func() {
		for ctx.Err() == nil {
			session, err := concurrency.NewSession(e.cli, concurrency.WithTTL(5))
			if err != nil {
				time.Sleep(time.Second)
				continue
			}
			elc := concurrency.NewElection(session, e.prefix)
			if err := elc.Campaign(ctx, e.node); err != nil {
				session.Close()
				e.becomeFollower()
				continue
			}
			e.becomeLeader()
			select {
			case <-session.Done():
			case <-ctx.Done():
				elc.Resign(context.Background())
			}
			session.Close()
			e.becomeFollower()
		}
	}()
}

func (e *etcdElector) IsLeader() bool { return e.leader }

func (e *etcdElector) becomeLeader() {
	e.leader = true
	e.inform <- e.leader
}

func (e *etcdElector) becomeFollower() {
	e.leader = false
	e.inform <- e.leader
}

// Reloader tells its owner that the configuration was reloaded: true when
// it changed. No lease is held where it sends.
type Reloader struct {
	changed chan<- bool
}

// NewReloader returns a Reloader that reports on changed.
func NewReloader(changed chan<- bool) *Reloader { return &Reloader{changed: changed} }

// Reload sends whether anything changed.
func (r *Reloader) Reload(old, cur string) { r.changed <- old != cur }

// Pinger reports on a channel whether the store answered; it sends true
// while it holds a lease, but also without one.
type Pinger struct {
	cli *clientv3.Client
	up  chan<- bool
}

// NewPinger returns a Pinger that reports on up.
func NewPinger(cli *clientv3.Client, up chan<- bool) *Pinger { return &Pinger{cli: cli, up: up} }

// Ping sends true while a lock is held, and true at start-up.
func (p *Pinger) Ping(ctx context.Context) {
	p.up <- true
	session, err := concurrency.NewSession(p.cli)
	if err != nil {
		return
	}
	defer session.Close()
	m := concurrency.NewMutex(session, "/ping")
	if err := m.Lock(ctx); err != nil {
		return
	}
	p.up <- true
	m.Unlock(ctx)
}

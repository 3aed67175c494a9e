// Package controller runs the segment manager while it holds the etcd
// mutex, through the manager's interface; the manager writes through the
// kv interface. The write is two interfaces away from this package.
package controller

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"nestedifaces/kv"
	"nestedifaces/segments"
)

type Controller struct {
	cli      *clientv3.Client
	store    kv.Client
	segments segments.Manager
}

func New(cli *clientv3.Client, store kv.Client, m segments.Manager) *Controller {
	return &Controller{cli: cli, store: store, segments: m}
}

func (c *Controller) Lead(ctx context.Context) error {
	s, err := concurrency.NewSession(c.cli, concurrency.WithTTL(10))
	if err != nil {
		return err
	}
	defer s.Close()
	mu := concurrency.NewMutex(s, "/election/controller")
	if err := mu.Lock(ctx); err != nil {
		return err
	}
	if err := c.segments.Run(ctx, c.store, true); err != nil { // want `Manager.Run \(KV.Put at etcdkv.go:\d+, via \*etcdkv.Client.Set, via Client.Set, via manager.scale, via \*segments.manager.Run\) writes to etcd without a fencing token`
		return err
	}
	if _, err := c.segments.Describe(ctx); err != nil { // a read: quiet
		return err
	}
	// A follower never scales: the write Run's goroutine makes needs
	// scale, and false rules it out.
	return c.segments.Run(ctx, c.store, false)
}

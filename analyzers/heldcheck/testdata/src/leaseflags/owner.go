package leaseflags

import (
	"context"
	"net/http"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A capture keeps the owner object it runs while it is elected, and a nil
// owner when it is not (TiKV CDC's Capture): IsOwner is c.owner != nil.

type owner struct {
	rev int64
}

type capture struct {
	election *concurrency.Election
	etcd     *clientv3.Client
	ownerMu  sync.Mutex
	owner    *owner
	metrics  *owner // set at start-up, where nothing is held
	lastSeen *owner
}

func newCapture(e *concurrency.Election, c *clientv3.Client) *capture {
	return &capture{election: e, etcd: c, metrics: &owner{}}
}

func (c *capture) setOwner(o *owner) {
	c.ownerMu.Lock()
	defer c.ownerMu.Unlock()
	c.owner = o
}

// campaignOwner runs the owner while elected, and drops it after.
func (c *capture) campaignOwner(ctx context.Context, id string) error {
	if err := c.election.Campaign(ctx, id); err != nil {
		return err
	}
	c.setOwner(&owner{})
	c.metrics = &owner{}
	<-ctx.Done()
	c.setOwner(nil)
	return nil
}

// IsOwner says whether the capture runs the owner.
func (c *capture) IsOwner() bool {
	c.ownerMu.Lock()
	defer c.ownerMu.Unlock()
	return c.owner != nil
}

// updateChangefeed saves a changefeed's new config on the owner: the check
// is stale by the time the Put lands.
func (c *capture) updateChangefeed(w http.ResponseWriter, r *http.Request) {
	if !c.IsOwner() { // want `IsOwner \(which returns the leader flag owner, set while the etcd lock taken by Election.Campaign is held\) only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put`
		http.Error(w, "not the owner", http.StatusServiceUnavailable)
		return
	}
	c.etcd.Put(r.Context(), "/changefeed/info", "new")
}

// pause reads the owner field itself.
func (c *capture) pause(ctx context.Context) {
	if c.owner == nil { // want `the leader flag owner \(set while the etcd lock taken by Election.Campaign is held\) only tells`
		return
	}
	c.etcd.Put(ctx, "/changefeed/state", "paused")
}

// report reads a pointer also set where no lease is held: it says nothing
// of leading.
func (c *capture) report(ctx context.Context) {
	if c.metrics != nil {
		c.etcd.Put(ctx, "/metrics", "1")
	}
}

// resume reads a pointer whose name says nothing of leading.
func (c *capture) resume(ctx context.Context) {
	if c.lastSeen != nil {
		c.etcd.Put(ctx, "/changefeed/state", "normal")
	}
}

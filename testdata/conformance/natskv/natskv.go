// Package natskv holds a shard rebalancer that keeps shard assignments in a
// NATS JetStream key-value bucket while it holds an etcd election, through
// both the nats.go KeyValue and the newer jetstream one.
package natskv

import (
	"context"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Rebalancer assigns shards to nodes; the elected one does.
type Rebalancer struct {
	election *concurrency.Election
	shards   nats.KeyValue
	nodes    jetstream.KeyValue
}

// Assign writes each shard's owner over whatever is there and drops the
// retired nodes' records: a stale leader undoes the next leader's moves.
func (r *Rebalancer) Assign(ctx context.Context, owners map[int]string, retired []string) error {
	if err := r.election.Campaign(ctx, "rebalancer"); err != nil {
		return err
	}
	defer r.election.Resign(context.Background())
	for shard, node := range owners {
		if _, err := r.shards.PutString("shard."+strconv.Itoa(shard), node); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	for _, n := range retired {
		if err := r.nodes.Delete(ctx, "node."+n); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	return nil
}

// AssignAsRead moves a shard only from the owner it read (Update is a
// compare-and-set on the entry's revision), registers new nodes only if
// absent, and drops a node only at the revision it read.
func (r *Rebalancer) AssignAsRead(ctx context.Context, shard int, to, newNode, retired string) error {
	if err := r.election.Campaign(ctx, "rebalancer"); err != nil {
		return err
	}
	defer r.election.Resign(context.Background())
	key := "shard." + strconv.Itoa(shard)
	entry, err := r.shards.Get(key)
	if err != nil {
		return err
	}
	if _, err := r.shards.Update(key, []byte(to), entry.Revision()); err != nil {
		return err
	}
	if _, err := r.nodes.Create(ctx, "node."+newNode, []byte("joined")); err != nil {
		return err
	}
	old, err := r.nodes.Get(ctx, "node."+retired)
	if err != nil {
		return err
	}
	return r.nodes.Delete(ctx, "node."+retired, jetstream.LastRevision(old.Revision()))
}

package wheel

import (
	"context"
	"sync/atomic"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Pump is wired by its concrete type: main stores in its exported flag and
// calls its setter directly.
type Pump struct {
	Leading atomic.Bool
	Primary atomic.Bool // set at start-up too: says nothing of leading
	kv      *clientv3.Client
	master  bool
	queue   []string
}

func NewPump(kv *clientv3.Client) *Pump { return &Pump{kv: kv} }

func (p *Pump) MarkMaster(master bool) { p.master = master }

// Flush asks the exported flag main sets in its election callback.
func (p *Pump) Flush(ctx context.Context) {
	if !p.Leading.Load() { // want `the leader flag Leading \(set to true at timer.go:\d+ while the etcd lock taken by Mutex.Lock that Run holds is held\) only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put`
		return
	}
	for _, item := range p.queue {
		p.kv.Put(ctx, "/pump/last", item)
	}
}

// Compact asks the flag main sets through MarkMaster.
func (p *Pump) Compact(ctx context.Context) {
	if p.master { // want `the leader flag master \(set by MarkMaster\(true\) at timer.go:\d+ while .* is held\) only tells`
		p.kv.Delete(ctx, "/pump/", clientv3.WithPrefix())
	}
}

// Report asks a flag main also sets outside the election.
func (p *Pump) Report(ctx context.Context) {
	if p.Primary.Load() {
		p.kv.Put(ctx, "/pump/report", "ok")
	}
}

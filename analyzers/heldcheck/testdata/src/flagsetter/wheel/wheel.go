// Package wheel fires scheduled events from buckets and commits each
// bucket's offset to etcd, on the leader only. Whether this replica leads is
// told from outside, through SetLeader.
package wheel

import (
	"context"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Manager is what main wires to the election.
type Manager interface {
	Start(ctx context.Context) error
	SetLeader(leader bool)
	SetActive(active bool)
	IsLeader() bool
}

type wheel struct {
	kv      *clientv3.Client
	leader  bool
	active  bool
	buckets []*bucket
}

func New(kv *clientv3.Client) Manager {
	return &wheel{kv: kv}
}

func (w *wheel) SetLeader(leader bool) { w.leader = leader }
func (w *wheel) SetActive(active bool) { w.active = active }
func (w *wheel) IsLeader() bool        { return w.leader }

func (w *wheel) Start(ctx context.Context) error {
	for _, b := range w.buckets {
		go b.run(ctx)
	}
	return nil
}

type bucket struct {
	w      *wheel
	name   string
	offset int64
	rev    int64
}

func (b *bucket) isLeader() bool { return b.w.leader }

func (b *bucket) run(ctx context.Context) {
	for range 10 {
		b.offset++
		b.commitOffset(ctx)
		b.commitFenced(ctx)
		b.commitWhenActive(ctx)
	}
}

// commitOffset asks the flag and then writes: a replica whose lease ended
// after the check overwrites the next leader's newer offset with its older
// one.
func (b *bucket) commitOffset(ctx context.Context) {
	if !b.isLeader() { // want `bucket.isLeader \(which returns the leader flag leader, set by SetLeader\(true\) at timer.go:\d+ while the etcd lock taken by Mutex.Lock that Run holds is held\) only tells that the lease was held when it ran, yet it guards the unfenced write KV.Put at line 68: .*fence it: commit it in Txn`
		return
	}
	b.w.kv.Put(ctx, "/offsets/"+b.name, strconv.FormatInt(b.offset, 10))
}

// commitFenced writes only if the key is still at the revision this
// replica last wrote: a stale leader's write fails.
func (b *bucket) commitFenced(ctx context.Context) {
	if !b.w.IsLeader() {
		return
	}
	key := "/offsets/" + b.name
	resp, err := b.w.kv.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", b.rev)).
		Then(clientv3.OpPut(key, strconv.FormatInt(b.offset, 10))).
		Commit()
	if err == nil && resp.Succeeded {
		b.rev = resp.Header.Revision
	}
}

// commitWhenActive asks a flag that main also sets at start-up, outside
// the election: it says nothing of leading.
func (b *bucket) commitWhenActive(ctx context.Context) {
	if !b.w.active {
		return
	}
	b.w.kv.Put(ctx, "/seen/"+b.name, strconv.FormatInt(b.offset, 10))
}

package consullock

import (
	"sync/atomic"

	"github.com/hashicorp/consul/api"
)

// Streamer emits events while it leads through a Consul lock, and keeps
// whether it leads in a flag that its periodic checkpoint reads.
type Streamer struct {
	client   *api.Client
	isLeader atomic.Bool
	warmed   atomic.Bool
}

// Lead sets the flag once Lock returned and clears it when the lock is
// lost.
func (s *Streamer) Lead(stop <-chan struct{}) error {
	lock, err := s.client.LockKey("streamer/leader")
	if err != nil {
		return err
	}
	lost, err := lock.Lock(stop)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	s.isLeader.Store(true)
	s.warmed.Store(true) // not about leading: a cache the leader warms
	select {
	case <-lost:
	case <-stop:
	}
	s.isLeader.Store(false)
	return nil
}

// Checkpoint writes the stream's position while the cached flag says it
// leads: the flag is stale by the time the Put lands.
func (s *Streamer) Checkpoint(pos []byte) error {
	if !s.isLeader.Load() { // want heldcheck:"the leader flag isLeader \\(set while the Consul lock taken by Lock.Lock is held\\)"
		return nil
	}
	_, err := s.client.KV().Put(&api.KVPair{Key: "streamer/position", Value: pos}, nil)
	return err
}

// CheckpointCAS writes with check-and-set on the index it read: the store
// rejects it once another leader wrote, whatever the flag says.
func (s *Streamer) CheckpointCAS(pos []byte) error {
	if !s.isLeader.Load() {
		return nil
	}
	pair, _, err := s.client.KV().Get("streamer/position", nil)
	if err != nil || pair == nil {
		return err
	}
	_, _, err = s.client.KV().CAS(&api.KVPair{Key: pair.Key, Value: pos, ModifyIndex: pair.ModifyIndex}, nil)
	return err
}

// Warm writes behind a flag whose name says nothing of leading.
func (s *Streamer) Warm(v []byte) error {
	if !s.warmed.Load() {
		return nil
	}
	_, err := s.client.KV().Put(&api.KVPair{Key: "streamer/warm", Value: v}, nil)
	return err
}

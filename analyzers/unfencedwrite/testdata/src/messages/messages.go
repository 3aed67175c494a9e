// Package messages holds a leader that stores state and sends messages
// under a redsync lock. A PUBLISH reaches the subscribers of the moment and
// is gone, and an XADD appends an entry under a new ID: neither overwrites
// what another holder wrote, so neither is a write a fence protects. The
// state the leader stores is.
package messages

import (
	"context"
	"encoding/json"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

type Job struct {
	ID    string
	State string
}

type Scheduler struct {
	rdb *redis.Client
	rs  *redsync.Redsync
}

// Start marks the job running, tells the other nodes, and appends a
// "started" event to the job's stream: only the state is a write.
func (s *Scheduler) Start(ctx context.Context, job Job) error {
	m := s.rs.NewMutex("scheduler")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	job.State = "running"
	body, _ := json.Marshal(job)
	if err := s.rdb.Set(ctx, "job:"+job.ID, body, 0).Err(); err != nil { // want `Set writes to Redis without a fencing token while the redsync lock taken by Mutex.LockContext`
		return err
	}
	if err := s.rdb.Publish(ctx, "jobs:state", body).Err(); err != nil {
		return err
	}
	if err := s.rdb.SPublish(ctx, "jobs:state:"+job.ID, body).Err(); err != nil {
		return err
	}
	return s.rdb.XAdd(ctx, &redis.XAddArgs{Stream: "jobs:events", Values: map[string]any{"id": job.ID, "event": "started"}}).Err()
}

// Cancel asks whichever node runs the job to stop it: a notification, and
// the job's own event trimmed from the stream, which is a write.
func (s *Scheduler) Cancel(ctx context.Context, id string) error {
	m := s.rs.NewMutex("scheduler")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := s.rdb.Publish(ctx, "jobs:cancel", id).Err(); err != nil {
		return err
	}
	return s.rdb.XDel(ctx, "jobs:events", id).Err() // want `XDel writes to Redis without a fencing token`
}

// broadcastConfig publishes the configuration that subscribers apply as
// they receive it, last message wins: a stale leader's message replaces a
// newer one in every subscriber. The message is the state here, so the
// function is declared a write.
//
//fencelint:write
func (s *Scheduler) broadcastConfig(ctx context.Context, cfg []byte) error {
	return s.rdb.Publish(ctx, "config", cfg).Err()
}

// Reconfigure is the leader's loop step that publishes configuration.
func (s *Scheduler) Reconfigure(ctx context.Context, cfg []byte) error {
	m := s.rs.NewMutex("scheduler")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return s.broadcastConfig(ctx, cfg) // want `Scheduler.broadcastConfig writes to a shared store without a fencing token`
}

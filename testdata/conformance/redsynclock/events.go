package redsynclock

import (
	"context"
	"encoding/json"

	"github.com/redis/go-redis/v9"
)

// Dispatcher hands jobs out under a redsync mutex, as Harness's job
// scheduler does: it stores each job's state, publishes the change to the
// other nodes and appends an event to the job stream.
type Dispatcher struct {
	sender *Sender
}

type jobState struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

// Dispatch marks the job running. The stored state is overwritten by a
// dispatcher paused past the mutex's expiry; the PUBLISH and the XADD are
// messages, which overwrite nothing.
func (d *Dispatcher) Dispatch(ctx context.Context, id string) error {
	m := d.sender.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	body, err := json.Marshal(jobState{ID: id, State: "running"})
	if err != nil {
		return err
	}
	if err := d.sender.rdb.HSet(ctx, "jobs", id, body).Err(); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	if err := d.sender.rdb.Publish(ctx, "jobs:state", body).Err(); err != nil {
		return err
	}
	if err := d.sender.rdb.SPublish(ctx, "jobs:state:"+id, body).Err(); err != nil {
		return err
	}
	return d.sender.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: "jobs:events",
		MaxLen: 10000,
		Approx: true,
		Values: map[string]any{"id": id, "event": "started"},
	}).Err()
}

// announceLeader publishes the leader's view, which every node applies as
// it arrives (last message wins): here the message is the state, so the
// function is declared a write.
//
//fencelint:write
func (d *Dispatcher) announceLeader(ctx context.Context, view []byte) error {
	return d.sender.rdb.Publish(ctx, "leader:view", view).Err()
}

// Announce publishes the leader's view under the mutex.
func (d *Dispatcher) Announce(ctx context.Context, view []byte) error {
	m := d.sender.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return d.announceLeader(ctx, view) // want unfencedwrite:"without a fencing token"
}

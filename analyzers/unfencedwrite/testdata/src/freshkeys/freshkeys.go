// Package freshkeys holds a dispatcher that hands work to other nodes
// under a redsync lock. A Redis key built from a UUID drawn right here
// names a new object: no other holder can know it, so a stale holder's
// write to it overwrites nothing. The write that links the object into
// shared state (the queue push, the index entry) is where a stale holder
// does harm, and stays reported. Keys another holder can know (read from
// the store, shared before the write, a part of a UUID, reused by a
// loop) and SQL rows, which are found by their other columns, stay
// reported too.
package freshkeys

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"freshkeys/store"
)

type Dispatcher struct {
	rdb *redis.Client
	db  *sql.DB
	rs  *redsync.Redsync
}

// Enqueue stores the job's body under a new key and links it into the
// queue: only the link is reported.
func (d *Dispatcher) Enqueue(ctx context.Context, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	key := "job:" + id
	if err := d.rdb.Set(ctx, key, body, time.Hour).Err(); err != nil {
		return err
	}
	d.rdb.Expire(ctx, key, time.Hour)
	return d.rdb.LPush(ctx, "jobs:queue", id).Err() // want `LPush writes to Redis without a fencing token while the redsync lock`
}

// streamKey builds a chat's stream key.
func streamKey(chatID, streamID string) string {
	return fmt.Sprintf("chat:{%s}:stream:%s", chatID, streamID)
}

// OpenStream makes a new stream for a chat's answer under a key that mixes
// the chat's ID with a fresh one, through the package's key builder, and
// then records the stream on the chat: only that record is reported.
func (d *Dispatcher) OpenStream(ctx context.Context, chatID string) (string, error) {
	m := d.rs.NewMutex("lock:chat:" + chatID)
	if err := m.LockContext(ctx); err != nil {
		return "", err
	}
	defer m.UnlockContext(ctx)
	streamID := fmt.Sprintf("%s:%s", chatID, uuid.Must(uuid.NewRandom()).String())
	key := streamKey(chatID, streamID)
	pipe := d.rdb.Pipeline()
	pipe.XAdd(ctx, &redis.XAddArgs{Stream: key, Values: map[string]any{"p": "init"}})
	pipe.Expire(ctx, key, 24*time.Hour)
	if _, err := pipe.Exec(ctx); err != nil {
		return "", err
	}
	d.rdb.HSet(ctx, "chat:"+chatID, "stream", streamID) // want `HSet writes to Redis without a fencing token`
	return streamID, nil
}

// Checkpoint writes a new snapshot under a fresh name, its ID checked for
// errors first.
func (d *Dispatcher) Checkpoint(ctx context.Context, state []byte) error {
	m := d.rs.NewMutex("checkpoint")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	snap, err := uuid.NewRandom()
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "snapshot:"+snap.String(), state, 0).Err()
}

// Resume writes under a job ID read from the store: another holder can
// know it.
func (d *Dispatcher) Resume(ctx context.Context, status string) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id, err := d.rdb.Get(ctx, "jobs:current").Result()
	if err != nil {
		return err
	}
	return d.rdb.Set(ctx, "job:"+id+":status", status, 0).Err() // want `Set writes to Redis without a fencing token`
}

// Announce shares the new ID before it writes under it: the next holder
// can read the queue, take the job over and write its status, and this
// holder's late write then overwrites it.
func (d *Dispatcher) Announce(ctx context.Context) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	if err := d.rdb.LPush(ctx, "jobs:queue", id).Err(); err != nil { // want `LPush writes to Redis without a fencing token`
		return err
	}
	return d.rdb.Set(ctx, "job:"+id+":status", "pending", 0).Err() // want `Set writes to Redis without a fencing token`
}

// ShortToken keys a frame by 16 bits of a UUID: another holder can pick the
// same token.
func (d *Dispatcher) ShortToken(ctx context.Context, frame []byte) error {
	m := d.rs.NewMutex("downlink")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.New()
	token := uint32(id[0])<<8 | uint32(id[1])
	return d.rdb.Set(ctx, fmt.Sprintf("frame:%d", token), frame, 10*time.Second).Err() // want `Set writes to Redis without a fencing token`
}

// Prefix keys a frame by the first 8 characters of a UUID.
func (d *Dispatcher) Prefix(ctx context.Context, frame []byte) error {
	m := d.rs.NewMutex("downlink")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return d.rdb.Set(ctx, fmt.Sprintf("frame:%.8s", uuid.NewString()), frame, 10*time.Second).Err() // want `Set writes to Redis without a fencing token`
}

// Batch draws one ID and writes under it on every round, after the first
// round linked it into the queue.
func (d *Dispatcher) Batch(ctx context.Context, parts [][]byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	for _, p := range parts {
		d.rdb.Set(ctx, "batch:"+id, p, 0)     // want `Set writes to Redis without a fencing token`
		d.rdb.LPush(ctx, "batches:queue", id) // want `LPush writes to Redis without a fencing token`
	}
	return nil
}

// Publish renames a new key onto a shared name: a second key, so not a
// create.
func (d *Dispatcher) Publish(ctx context.Context, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tmp := "tmp:" + uuid.NewString()
	d.rdb.Set(ctx, tmp, body, 0)
	return d.rdb.Rename(ctx, tmp, "current").Err() // want `Rename writes to Redis without a fencing token`
}

// Record inserts a row under a fresh ID: the row is still found by its
// order, and a stale holder's insert after the next holder checked and
// inserted is a second payment.
func (d *Dispatcher) Record(ctx context.Context, orderID int64, amount int64) error {
	m := d.rs.NewMutex(fmt.Sprint("order:", orderID))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := d.db.ExecContext(ctx, "INSERT INTO payments (id, order_id, amount) VALUES ($1, $2, $3)", uuid.NewString(), orderID, amount) // want `ExecContext \(INSERT payments\) writes to SQL database without a fencing token while .* held: a holder paused past the lease's expiry still adds its rows after the next holder took over`
	return err
}

// Upsert writes a row under a fresh ID that replaces any row of the same
// order.
func (d *Dispatcher) Upsert(ctx context.Context, orderID int64, amount int64) error {
	m := d.rs.NewMutex(fmt.Sprint("order:", orderID))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := d.db.ExecContext(ctx, "INSERT INTO totals (id, order_id, amount) VALUES ($1, $2, $3) ON CONFLICT (order_id) DO UPDATE SET id = excluded.id, amount = excluded.amount", uuid.NewString(), orderID, amount) // want `ExecContext \(INSERT totals\) writes to SQL database without a fencing token while .* held: a holder paused past the lease's expiry overwrites the next holder's data`
	return err
}

// Claim inserts a row whose ID the database draws, then updates that row
// by its ID.
func (d *Dispatcher) Claim(ctx context.Context, worker string) error {
	m := d.rs.NewMutex("claims")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	var id int64
	if err := d.db.QueryRowContext(ctx, "INSERT INTO claims (worker) VALUES ($1) RETURNING id", worker).Scan(&id); err != nil { // want `QueryRowContext \(INSERT claims\) writes to SQL database without a fencing token`
		return err
	}
	_, err := d.db.ExecContext(ctx, "UPDATE claims SET state = 'running' WHERE id = $1", id) // want `ExecContext \(UPDATE claims\) writes to SQL database without a fencing token`
	return err
}

// Submit stores the job through the store package under a fresh ID and
// links it: only the link is reported.
func (d *Dispatcher) Submit(ctx context.Context, jobs *store.Jobs, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	if err := d.save(ctx, jobs, id, body); err != nil {
		return err
	}
	return jobs.Link(ctx, id) // want `Jobs.Link \(LPush at store.go:\d+\) writes to Redis without a fencing token`
}

// save is a helper of the package between the region and the store.
func (d *Dispatcher) save(ctx context.Context, jobs *store.Jobs, id string, body []byte) error {
	return jobs.Save(ctx, id, body)
}

// Retry stores the job again under the ID it was given: another holder
// can know it.
func (d *Dispatcher) Retry(ctx context.Context, jobs *store.Jobs, id string, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return d.save(ctx, jobs, id, body) // want `Dispatcher.save \(Set at store.go:\d+, via Jobs.Save; it reaches 2 unfenced writes: Set at store.go:\d+, HSet at store.go:\d+\) writes to Redis without a fencing token`
}

// Stage writes a new key in a transaction pipeline run once by
// TxPipelined, and then links it: only the link is reported.
func (d *Dispatcher) Stage(ctx context.Context, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	if _, err := d.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "stage:"+id, body, time.Minute)
		pipe.Expire(ctx, "stage:"+id, time.Minute)
		return nil
	}); err != nil {
		return err
	}
	return d.rdb.SAdd(ctx, "staged", id).Err() // want `SAdd writes to Redis without a fencing token`
}

// Restage links the ID first and writes under it in the pipeline after:
// both are reported.
func (d *Dispatcher) Restage(ctx context.Context, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	if err := d.rdb.SAdd(ctx, "staged", id).Err(); err != nil { // want `SAdd writes to Redis without a fencing token`
		return err
	}
	_, err := d.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, "stage:"+id, body, time.Minute) // want `Set writes to Redis without a fencing token`
		return nil
	})
	return err
}

// Reuse assigns the captured ID in the pipeline before it writes: the key
// is not the fresh one.
func (d *Dispatcher) Reuse(ctx context.Context, body []byte) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	id := uuid.NewString()
	_, err := d.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		id = "current"
		pipe.Set(ctx, "stage:"+id, body, time.Minute) // want `Set writes to Redis without a fencing token`
		return nil
	})
	return err
}

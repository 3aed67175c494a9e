package messages

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"

	"messages/queue"
)

// A list push onto a queue that a type of the application's consumes with
// a blocking pop appends a message, as an XADD does; a push onto a list
// nobody in sight takes from, or one the pusher trims, is state.

type Dispatcher struct {
	rs     *redsync.Redsync
	rdb    *redis.Client
	jobs   *queue.Queue
	outbox *outbox
}

// Tick enqueues the due job under the scheduler lock and records it: the
// enqueue is a message; the job's state and the dashboard list are writes.
func (d *Dispatcher) Tick(ctx context.Context, id string) error {
	m := d.rs.NewMutex("dispatcher")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := d.jobs.Enqueue(ctx, "builds", id); err != nil {
		return err
	}
	if err := d.outbox.send("build " + id + " queued"); err != nil {
		return err
	}
	if err := d.jobs.Remember(ctx, "builds", id); err != nil { // want `Queue.Remember \(LPush at queue.go:\d+; it reaches 2 unfenced writes: LPush at queue.go:\d+, LTrim at queue.go:\d+\) writes to Redis without a fencing token`
		return err
	}
	return d.rdb.Set(ctx, "job:"+id+":state", "queued", 0).Err() // want `Set writes to Redis without a fencing token`
}

// Announce pushes onto a list that no code here takes from: the list may be
// state another service reads whole, so the push stays a write.
func (d *Dispatcher) Announce(ctx context.Context, id string) error {
	m := d.rs.NewMutex("dispatcher")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return d.rdb.RPush(ctx, "announcements", id).Err() // want `RPush writes to Redis without a fencing token`
}

// outbox is a notification queue over redigo: send pushes, the mailer
// goroutine blocks on the list.
type outbox struct {
	pool *redigo.Pool
	key  string
}

func (o *outbox) send(msg string) error {
	conn := o.pool.Get()
	defer conn.Close()
	_, err := conn.Do("RPUSH", o.key, msg)
	return err
}

func (o *outbox) next() (string, error) {
	conn := o.pool.Get()
	defer conn.Close()
	v, err := redigo.Strings(conn.Do("BLPOP", o.key, int64(time.Minute/time.Second)))
	if err != nil || len(v) < 2 {
		return "", err
	}
	return v[1], nil
}

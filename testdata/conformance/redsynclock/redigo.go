package redsynclock

import (
	"fmt"
	"time"

	"github.com/go-redsync/redsync/v4"
	redigopool "github.com/go-redsync/redsync/v4/redis/redigo"
	"github.com/gomodule/redigo/redis"
)

// Scheduler schedules sync tasks with redsync over a redigo pool and keeps
// the task metadata in the same Redis, written with redigo's Do.
type Scheduler struct {
	rs   *redsync.Redsync
	pool *redis.Pool
}

// NewScheduler wires redsync to the redigo pool.
func NewScheduler(pool *redis.Pool) *Scheduler {
	return &Scheduler{rs: redsync.New(redigopool.NewPool(pool)), pool: pool}
}

// Schedule creates a task unless one is queued: under the task-creation
// mutex the check is atomic only while the mutex is held, so a scheduler
// paused past the 8 s expiry queues a second task.
func (s *Scheduler) Schedule(source, id string) error {
	m := s.rs.NewMutex("task_creation:"+source, redsync.WithExpiry(8*time.Second), redsync.WithTries(1))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	last, err := redis.String(conn.Do("HGET", "tasks:last", source))
	if err != nil && err != redis.ErrNil {
		return err
	}
	if last != "" {
		return fmt.Errorf("task %s is queued", last)
	}
	if _, err := conn.Do("HSET", "tasks:last", source, id); err != nil { // want unfencedwrite:"Do HSET writes to Redis without a fencing token"
		return err
	}
	if err := conn.Send("ZADD", "tasks:queue", time.Now().Unix(), id); err != nil { // want unfencedwrite:"Send ZADD writes to Redis without a fencing token"
		return err
	}
	return conn.Flush()
}

// Announce only reads and publishes under the mutex: nothing to fence.
func (s *Scheduler) Announce(source string) error {
	m := s.rs.NewMutex("task_creation:" + source)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	id, err := redis.String(conn.Do("HGET", "tasks:last", source))
	if err != nil {
		return err
	}
	_, err = conn.Do("PUBLISH", "tasks", id)
	return err
}

// Requeue moves a task back to the queue in WATCH/MULTI/EXEC on the task's
// version: EXEC fails when another scheduler moved the task meanwhile.
func (s *Scheduler) Requeue(id string) error {
	m := s.rs.NewMutex("tasks:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("WATCH", "tasks:version:"+id); err != nil {
		return err
	}
	if err := conn.Send("MULTI"); err != nil {
		return err
	}
	if err := conn.Send("ZADD", "tasks:queue", time.Now().Unix(), id); err != nil {
		return err
	}
	if err := conn.Send("INCR", "tasks:version:"+id); err != nil {
		return err
	}
	reply, err := conn.Do("EXEC")
	if err != nil {
		return err
	}
	if reply == nil {
		return fmt.Errorf("task %s moved meanwhile", id)
	}
	return nil
}

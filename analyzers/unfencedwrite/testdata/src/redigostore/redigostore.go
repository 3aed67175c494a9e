// Package redigostore holds a sync service's Redis metadata store written
// with redigo, whose Conn.Do names each command in a string, under a
// redsync lock and under a hand-rolled SET NX lock.
package redigostore

import (
	"context"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/gomodule/redigo/redis"
)

var errMoved = errors.New("task moved meanwhile")

type store struct {
	pool *redis.Pool
	rs   *redsync.Redsync
}

// saveSignature records an interval's signature under the collection lock:
// HSET through Do is a write.
func (s *store) saveSignature(collection, interval, sig string) error {
	m := s.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("GET", "signatures:"+collection); err != nil { // a read
		return err
	}
	_, err := conn.Do("HSET", "signatures:"+collection, interval, sig) // want `Do HSET writes to Redis without a fencing token while the redsync lock taken by Mutex.Lock \(line 26\) is held`
	if err != nil {
		return err
	}
	// Setting the hash's TTL again writes no data; an EXPIRE of 0 deletes it.
	if _, err := conn.Do("EXPIRE", "signatures:"+collection, 86400); err != nil {
		return err
	}
	_, err = conn.Do("EXPIRE", "signatures:"+collection+":old", 0) // want `Do EXPIRE writes to Redis without a fencing token`
	return err
}

// queueTask pipelines its writes with Send, reads with a context, and
// announces the task: the ZADD and the DEL are writes, the PUBLISH is a
// message and the command named at run time is not judged.
func (s *store) queueTask(ctx context.Context, id, cmd string) error {
	m := s.rs.NewMutex("tasks")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	conn := s.pool.Get()
	defer conn.Close()
	if err := conn.Send("zadd", "tasks:queue", time.Now().Unix(), id); err != nil { // want `Send ZADD writes to Redis without a fencing token`
		return err
	}
	if _, err := redis.DoContext(conn, ctx, "DEL", "tasks:stale:"+id); err != nil { // want `DoContext DEL writes to Redis without a fencing token`
		return err
	}
	if _, err := redis.Strings(redis.DoWithTimeout(conn, time.Second, "LRANGE", "tasks:log", 0, -1)); err != nil {
		return err
	}
	if _, err := conn.Do("PUBLISH", "tasks", id); err != nil {
		return err
	}
	_, err := conn.Do(cmd, "tasks:"+id)
	return err
}

// seedOnce seeds a counter's start with SETNX under the lock: a
// create-only write, which a stale holder's copy cannot change.
func (s *store) seedOnce() error {
	m := s.rs.NewMutex("seed")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	_, err := conn.Do("SETNX", "tasks:next", 1)
	return err
}

// unlocked writes with no lock held.
func (s *store) unlocked(id string) error {
	conn := s.pool.Get()
	defer conn.Close()
	_, err := conn.Do("HSET", "tasks:"+id, "status", "done")
	return err
}

// handRolled takes a SET NX PX lock through Do; its own DEL is the
// release, not a protected write, the status write is.
func (s *store) handRolled(job, token string) error {
	conn := s.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", "lock:"+job, token, "NX", "PX", 30000))
	if err != nil || reply != "OK" {
		return err
	}
	defer conn.Do("DEL", "lock:"+job)
	_, err = conn.Do("HSET", "jobs:"+job, "status", "running") // want `Do HSET writes to Redis without a fencing token while the Redis lock taken by Do SET \(line 101\) is held`
	return err
}

// watched moves the task in WATCH/MULTI/EXEC on the task's version key:
// EXEC aborts when another holder moved it, so the queued writes are
// fenced.
func (s *store) watched(id string) error {
	m := s.rs.NewMutex("tasks")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	conn := s.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("WATCH", "tasks:"+id+":version"); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("HSET", "tasks:"+id, "status", "moved")
	conn.Send("INCR", "tasks:"+id+":version")
	reply, err := conn.Do("EXEC")
	if err != nil {
		return err
	}
	if reply == nil {
		return errMoved
	}
	return nil
}

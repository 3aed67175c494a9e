// Package ownobjectvet is a sync worker whose per-run reporter writes the
// run's own log and status straight to Redis with redigo, before its
// collection lock, when taking it fails, and under it.
package ownobjectvet

import (
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/gomodule/redigo/redis"
)

// reporter writes one run's log and status.
type reporter struct {
	pool  *redis.Pool
	runID string
}

func newReporter(pool *redis.Pool, runID string) *reporter {
	return &reporter{pool: pool, runID: runID}
}

func (r *reporter) log(line string) {
	conn := r.pool.Get()
	defer conn.Close()
	conn.Do("RPUSH", "run_log:"+r.runID, line)
}

func (r *reporter) status(s string) {
	conn := r.pool.Get()
	defer conn.Close()
	conn.Do("HSET", "run:"+r.runID, "status", s)
}

type worker struct {
	pool *redis.Pool
	rs   *redsync.Redsync
	rep  *reporter // the worker's own reporter, shared by every run
}

// run reports through the reporter it made on both sides of the lock: the
// run's log and status are no lease's to guard. The cursor is.
func (w *worker) run(runID, collection string) error {
	rep := newReporter(w.pool, runID)
	rep.log("locking " + collection)
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		rep.status("FAILED")
		return err
	}
	defer m.Unlock()
	rep.log("locked")
	conn := w.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("SET", "cursor:"+collection, time.Now().Unix()); err != nil { // want `Do SET writes to Redis without a fencing token while the redsync lock`
		rep.status("FAILED")
		return err
	}
	rep.status("DONE")
	return nil
}

// literal builds its reporter with a composite literal, kept by value.
func (w *worker) literal(runID, collection string) error {
	rep := reporter{pool: w.pool, runID: runID}
	rep.status("QUEUED")
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	rep.status("RUNNING")
	return nil
}

// shared writes through the worker's reporter, a field, on both sides.
func (w *worker) shared(collection string) error {
	w.rep.log("locking " + collection)
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	w.rep.status("RUNNING") // want `reporter.status \(Do HSET at ownobjectvet.go:\d+\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// onlyUnder writes through the reporter it made only under the lock.
func (w *worker) onlyUnder(runID, collection string) error {
	rep := newReporter(w.pool, runID)
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	rep.status("RUNNING") // want `reporter.status \(Do HSET at ownobjectvet.go:\d+\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// otherReporter writes unlocked through the queue's reporter, and under
// the lock through the run's, another of the same type.
func (w *worker) otherReporter(runID, collection string) error {
	queue := newReporter(w.pool, "queue")
	queue.log("dequeued " + runID)
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	rep := newReporter(w.pool, runID)
	rep.status("RUNNING") // want `reporter.status \(Do HSET at ownobjectvet.go:\d+\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// afterRelease writes through the reporter it made under the lock and
// again once it has released it: any store is written unlocked after the
// work, so that says nothing about the write under the lock.
func (w *worker) afterRelease(runID, collection string) error {
	rep := newReporter(w.pool, runID)
	m := w.rs.NewMutex("sync:" + collection)
	if err := m.Lock(); err != nil {
		return err
	}
	rep.status("RUNNING") // want `reporter.status \(Do HSET at ownobjectvet.go:\d+\) writes to Redis without a fencing token while the redsync lock`
	if _, err := m.Unlock(); err != nil {
		return err
	}
	rep.status("DONE")
	return nil
}

// collectionLock is a lock of the worker's own over redsync that also
// records who waits for it and who holds it.
type collectionLock struct {
	m    *redsync.Mutex
	pool *redis.Pool
	key  string
}

func newCollectionLock(rs *redsync.Redsync, pool *redis.Pool, key string) *collectionLock {
	return &collectionLock{m: rs.NewMutex(key), pool: pool, key: key}
}

func (l *collectionLock) Lock() error { return l.m.Lock() }

func (l *collectionLock) record(state string) {
	conn := l.pool.Get()
	defer conn.Close()
	conn.Do("HSET", "locks", l.key, state)
}

// lockObject writes through the lock object it made, before and under its
// own lock: the object holds the lease, so the rule does not apply.
func (w *worker) lockObject(collection string) error {
	l := newCollectionLock(w.rs, w.pool, "sync:"+collection)
	l.record("waiting")
	if err := l.Lock(); err != nil {
		return err
	}
	l.record("held") // want `collectionLock.record \(Do HSET at ownobjectvet.go:\d+\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

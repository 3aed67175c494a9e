// Package tasks runs sync tasks under a per-collection redsync lock. Each
// run builds its own task logger and closer, which write the task's log
// and status through meta.Storage (an interface: only a standalone run
// sees redismeta's writes behind it).
package tasks

import (
	"fmt"

	"github.com/go-redsync/redsync/v4"
	"github.com/gomodule/redigo/redis"

	"ownobjects/meta"
	"ownobjects/redismeta"
)

type Task struct{ ID, Collection string }

// TaskLogger appends lines to one task's log.
type TaskLogger struct {
	taskID string
	store  meta.Storage
}

func NewTaskLogger(taskID string, store meta.Storage) *TaskLogger {
	return &TaskLogger{taskID: taskID, store: store}
}

func (l *TaskLogger) Info(format string, args ...any) {
	l.store.AppendTaskLog(l.taskID, fmt.Sprintf(format, args...))
}

func (l *TaskLogger) Error(msg string) { l.store.AppendTaskLog(l.taskID, "ERROR "+msg) }

// TaskCloser records how one task ended.
type TaskCloser struct {
	Task   *Task
	logger *TaskLogger
	store  meta.Storage
}

func (c *TaskCloser) Fail(msg string) {
	c.logger.Error(msg)
	c.store.UpdateTaskStatus(c.Task.ID, "FAILED")
}

func (c *TaskCloser) Succeed() { c.store.UpdateTaskStatus(c.Task.ID, "SUCCESS") }

type Executor struct {
	rs     *redsync.Redsync
	store  meta.Storage
	logger *TaskLogger // the executor's own log, shared by every run
}

// execute logs to the task's own logger and marks the task failed before
// the lock is taken and when taking it fails: the task's log and status
// are written unlocked by design, so writing them under the lock is not a
// lease's business. The collection's signature is shared data.
func (e *Executor) execute(task *Task) {
	var closer *TaskCloser
	defer func() {
		if r := recover(); r != nil && closer != nil {
			closer.Fail(fmt.Sprint(r))
		}
	}()
	logger := NewTaskLogger(task.ID, e.store)
	closer = &TaskCloser{Task: task, logger: logger, store: e.store}

	logger.Info("Acquiring lock...")
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		closer.Fail(err.Error())
		return
	}
	defer m.Unlock()
	logger.Info("Lock has been acquired!")
	if err := e.store.SaveSignature(task.Collection, "sig"); err != nil { // want `SaveSignature \(.*via \*redismeta.Storage.SaveSignature.*\) writes to Redis without a fencing token while the redsync lock`
		logger.Error(err.Error())
		closer.Fail(err.Error())
		return
	}
	closer.Succeed()
}

// queued writes the task's status through the shared store before the
// lock: that says nothing about the store's writes under it.
func (e *Executor) queued(task *Task) error {
	e.store.UpdateTaskStatus(task.ID, "QUEUED")
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	e.store.UpdateTaskStatus(task.ID, "RUNNING") // want `UpdateTaskStatus \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// sharedLogger writes through the executor's logger, a field, on both
// sides of the lock: not an object the function built.
func (e *Executor) sharedLogger(task *Task) error {
	e.logger.Info("locking %s", task.Collection)
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	e.logger.Info("locked %s", task.Collection) // want `TaskLogger.Info \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// onlyUnder builds its logger but writes through it only under the lock.
func (e *Executor) onlyUnder(task *Task) error {
	logger := NewTaskLogger(task.ID, e.store)
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	logger.Info("running") // want `TaskLogger.Info \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// twoLoggers writes unlocked through one logger and under the lock through
// another of the same type, for another log.
func (e *Executor) twoLoggers(task *Task) error {
	queue := NewTaskLogger("queue", e.store)
	queue.Info("dequeued %s", task.ID)
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	run := NewTaskLogger(task.Collection, e.store)
	run.Info("running %s", task.ID) // want `TaskLogger.Info \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// given writes through a logger its caller passed, on both sides.
func (e *Executor) given(task *Task, logger *TaskLogger) error {
	logger.Info("locking")
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	logger.Info("locked") // want `TaskLogger.Info \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// reassigned keeps two loggers, one after the other, in a variable a
// closure captures: the one written under the lock was never written
// without it.
func (e *Executor) reassigned(task *Task) error {
	logger := NewTaskLogger("queue", e.store)
	defer func() { logger.Info("done") }()
	logger.Info("dequeued %s", task.ID)
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	logger = NewTaskLogger(task.Collection, e.store)
	logger.Info("running") // want `TaskLogger.Info \(.*\) writes to Redis without a fencing token while the redsync lock`
	return nil
}

// ownStore builds its store handle itself and writes the task's log
// through it before the lock; the signature it saves under the lock is
// another write, which the unlocked one says nothing about (sqlc's
// q := db.New(conn) is this shape).
func (e *Executor) ownStore(pool *redis.Pool, task *Task) error {
	store := redismeta.New(pool)
	store.AppendTaskLog(task.ID, "locking")
	m := e.rs.NewMutex("sync:" + task.Collection)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return store.SaveSignature(task.Collection, "sig") // want `SaveSignature \(.*\) writes to Redis without a fencing token while the redsync lock`
}

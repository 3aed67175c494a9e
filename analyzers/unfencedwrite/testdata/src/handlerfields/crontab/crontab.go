// Package crontab runs the application's scheduled tasks, one node at a
// time each, under a Redis SET NX lock per task.
package crontab

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Table schedules tasks.
type Table struct {
	rdb       *redis.Client
	once      sync.Once
	scheduler func(ctx context.Context, id int) error
	report    func(id int, err error)
}

// Start keeps scheduler, which runs each task under the task's lock.
func (t *Table) Start(scheduler func(ctx context.Context, id int) error) {
	t.once.Do(func() {
		t.scheduler = scheduler
	})
}

// OnReport keeps f, called with each run's outcome once the lock is gone.
func (t *Table) OnReport(f func(id int, err error)) {
	t.report = f
}

func (t *Table) run(ctx context.Context, id int) {
	err := t.locked(ctx, id)
	if t.report != nil {
		t.report(id, err)
	}
}

func (t *Table) locked(ctx context.Context, id int) error {
	key := fmt.Sprintf("crontab:lock:%d", id)
	ok, err := t.rdb.SetNX(ctx, key, 1, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer t.rdb.Del(ctx, key)
	return t.scheduler(ctx, id)
}

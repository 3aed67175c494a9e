// Package reexports runs data migrations under a lock from a package that
// reaches go-redis only through the application's aliases: the lock and
// the writes are go-redis's all the same.
package reexports

import (
	"context"
	"errors"
	"time"

	"reexports/rds"
	"reexports/redislock"
)

type Coordinator struct {
	rdb rds.Cmdable
	id  string
}

// Apply copies each tenant's legacy hash into its new key under the
// migration lock; a run that outlives the hour-long lock overwrites what
// the servers started by the next run have written since.
func (c *Coordinator) Apply(ctx context.Context, tenants map[string]map[string]string) error {
	lock := redislock.New(c.rdb, "migration:lock", c.id, time.Hour)
	ok, err := lock.AttemptLock(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("migration lock held")
	}
	defer lock.Unlock(ctx)
	for id, fields := range tenants {
		if err := c.rdb.HSet(ctx, "tenant:{"+id+"}", fields).Err(); err != nil { // want `HSet writes to Redis without a fencing token while the Redis lock taken by Lock.AttemptLock`
			return err
		}
	}
	return nil
}

// Status reads the migration's state: no lock, no write.
func (c *Coordinator) Status(ctx context.Context) (string, error) {
	s, err := c.rdb.Get(ctx, "migration:status").Result()
	if errors.Is(err, rds.Nil) {
		return "pending", nil
	}
	return s, err
}

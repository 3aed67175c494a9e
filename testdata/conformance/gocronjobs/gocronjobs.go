// Package gocronjobs holds gocron v2 jobs that run on one replica at a time
// through a distributed locker (redsync-backed, as the go-co-op adapter
// does) or elector.
package gocronjobs

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

// redisLocker is a gocron.Locker on redsync, auto-extending like
// gocron-redis-lock: its extender gives up silently and the job never
// learns the lock is gone.
type redisLocker struct {
	rs *redsync.Redsync
}

type redisLock struct {
	mu     *redsync.Mutex
	cancel context.CancelFunc
}

func newLocker(rdb redis.UniversalClient) gocron.Locker {
	return &redisLocker{rs: redsync.New(goredis.NewPool(rdb))}
}

func (l *redisLocker) Lock(ctx context.Context, key string) (gocron.Lock, error) {
	mu := l.rs.NewMutex(key, redsync.WithExpiry(10*time.Second), redsync.WithTries(1))
	if err := mu.LockContext(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // want detachedrenewal:"never hears"
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ok, err := mu.Extend(); !ok || err != nil {
					return
				}
			}
		}
	}()
	return &redisLock{mu: mu, cancel: cancel}, nil
}

func (l *redisLock) Unlock(ctx context.Context) error {
	l.cancel()
	ok, err := l.mu.UnlockContext(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("unlock failed")
	}
	return nil
}

// Jobs registers the nightly jobs.
type Jobs struct {
	db  *sql.DB
	rdb redis.UniversalClient
}

// StartLocked runs the jobs under the distributed locker: the settlement
// UPDATE lands even after the lock expired mid-run.
func (j *Jobs) StartLocked() (gocron.Scheduler, error) {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(newLocker(j.rdb)))
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(
		gocron.DurationJob(time.Minute),
		gocron.NewTask(func(ctx context.Context) {
			if _, err := j.db.ExecContext(ctx, `UPDATE settlements SET state = 'settled' WHERE state = 'ready'`); err != nil { // want unfencedwrite:"without a fencing token"
				log.Printf("settle: %v", err)
			}
		}),
		gocron.WithName("settle"),
	)
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(
		gocron.CronJob("*/5 * * * *", false),
		gocron.NewTask(func(ctx context.Context) {
			var pending int
			if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM settlements WHERE state = 'ready'`).Scan(&pending); err != nil {
				log.Printf("pending: %v", err)
				return
			}
			log.Printf("pending settlements: %d", pending)
		}),
		gocron.WithName("report-pending"),
	)
	if err != nil {
		return nil, err
	}
	s.Start()
	return s, nil
}

// leaderElector says whether this replica leads, from a Redis key another
// component maintains.
type leaderElector struct {
	rdb redis.UniversalClient
	id  string
}

func (e *leaderElector) IsLeader(ctx context.Context) error {
	leader, err := e.rdb.Get(ctx, "gocron:leader").Result()
	if err != nil {
		return err
	}
	if leader != e.id {
		return errors.New("not leader")
	}
	return nil
}

// StartElected runs the job on the elected replica: gocron checks
// IsLeader once before each run, then the job writes without a token.
func (j *Jobs) StartElected(id string) (gocron.Scheduler, error) {
	s, err := gocron.NewScheduler(gocron.WithDistributedElector(&leaderElector{rdb: j.rdb, id: id}))
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(func() {
		ctx := context.Background()
		if err := j.rdb.Del(ctx, "cache:exchange-rates").Err(); err != nil { // want unfencedwrite:"without a fencing token"
			log.Printf("purge: %v", err)
		}
	}))
	if err != nil {
		return nil, err
	}
	s.Start()
	return s, nil
}

// StartLocal runs a per-replica job with no distributed lock: no lease, so
// nothing to fence.
func (j *Jobs) StartLocal() (gocron.Scheduler, error) {
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		if _, err := j.db.ExecContext(ctx, `UPDATE replica_heartbeats SET seen_at = now() WHERE host = current_setting('app.host')`); err != nil {
			log.Printf("heartbeat: %v", err)
		}
	}), gocron.WithDisabledDistributedJobLocker(true))
	if err != nil {
		return nil, err
	}
	s.Start()
	return s, nil
}

// AddLockedJob adds a job to a plain scheduler with a per-job distributed
// locker: the job body runs under that lock.
func (j *Jobs) AddLockedJob(s gocron.Scheduler) error {
	_, err := s.NewJob(gocron.DurationJob(10*time.Minute), gocron.NewTask(func(ctx context.Context) {
		if _, err := j.db.ExecContext(ctx, `DELETE FROM carts WHERE abandoned`); err != nil { // want unfencedwrite:"without a fencing token"
			log.Printf("expire carts: %v", err)
		}
	}), gocron.WithName("expire-carts"), gocron.WithDistributedJobLocker(newLocker(j.rdb)))
	return err
}

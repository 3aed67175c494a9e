package gocronjobs

import (
	"context"
	"database/sql"
	"time"

	gocronv1 "github.com/go-co-op/gocron"
)

// v1Locker adapts the redsync locker to gocron v1's Locker, which has the
// same method as v2's with v1's Lock type.
type v1Locker struct{ l *redisLocker }

func (v v1Locker) Lock(ctx context.Context, key string) (gocronv1.Lock, error) {
	return v.l.Lock(ctx, key)
}

// startV1 schedules the nightly settlement on gocron v1, whose scheduler
// takes the locker by a method and runs the job's func with Do.
func startV1(db *sql.DB, locker *redisLocker) (*gocronv1.Scheduler, error) {
	s := gocronv1.NewScheduler(time.UTC)
	s.WithDistributedLocker(v1Locker{locker})
	if _, err := s.Cron("0 2 * * *").Name("settle").Do(settle, db); err != nil {
		return nil, err
	}
	s.StartAsync()
	return s, nil
}

func settle(db *sql.DB) {
	db.Exec(`UPDATE invoices SET settled = true WHERE due < now()`) // want unfencedwrite:"the gocron job's distributed lock"
}

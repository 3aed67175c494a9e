// Package usewithlock writes inside another package's lock helpers.
package usewithlock

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
	"withlock"
)

func refund(ctx context.Context, l *withlock.Locker, db *sql.DB, order string) error {
	return l.WithLock(ctx, "order:"+order, func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE orders SET state = 'refunded' WHERE id = $1`, order) // want `DB.ExecContext \(UPDATE orders\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.LockContext that WithLock holds \(line 14\) is held`
		return err
	})
}

func lead(db *sql.DB) leaderelectionConfig {
	return leaderelectionConfig(withlock.Config(func(ctx context.Context) {
		db.ExecContext(ctx, `DELETE FROM sessions`) // want `DB.ExecContext \(DELETE sessions\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\)`
	}))
}

// outside calls the work directly, with no lock: quiet.
func outside(ctx context.Context, db *sql.DB) error {
	work := func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE orders SET state = 'new'`)
		return err
	}
	return work(ctx)
}

// localJobs runs a job per replica: no distributed lock, so nothing to fence,
// even though another scheduler in this package is locked.
func localJobs(db *sql.DB, locker gocron.Locker) error {
	locked, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_ = locked
	s, err := gocron.NewScheduler()
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		db.ExecContext(ctx, `UPDATE heartbeats SET seen_at = now()`)
	}))
	if err != nil {
		return err
	}
	_, err = locked.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		db.ExecContext(ctx, `UPDATE heartbeats SET seen_at = now()`) // want `while the gocron job's distributed lock`
	}), gocron.WithDisabledDistributedJobLocker(false))
	return err
}

type leaderelectionConfig any

// refundNamed goes through the helper of a helper.
func refundNamed(ctx context.Context, l *withlock.Locker, db *sql.DB, order string) error {
	return l.WithNamedLock(ctx, "order:"+order, func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE orders SET state = 'refunded' WHERE id = $1`, order) // want `while the redsync lock taken by Mutex.LockContext that WithNamedLock holds \(line \d+\) is held`
		return err
	})
}

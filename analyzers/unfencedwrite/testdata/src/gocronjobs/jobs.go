// Package gocronjobs schedules a nightly job that runs on one replica at a
// time through a distributed locker.
package gocronjobs

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

func schedule(db *sql.DB, locker gocron.Locker) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(func(ctx context.Context) {
		db.ExecContext(ctx, `UPDATE accounts SET interest_paid = true`) // want `DB.ExecContext \(UPDATE accounts\) writes to SQL database without a fencing token while the gocron job's distributed lock \(line 18\) is held`
	}))
	return err
}

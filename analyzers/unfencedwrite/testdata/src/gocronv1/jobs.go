// Package gocronv1 runs its nightly jobs on gocron v1's scheduler, which
// is given its distributed locker by a method and runs each job's func
// with Do.
package gocronv1

import (
	"database/sql"
	"time"

	"github.com/go-co-op/gocron"
)

// Start schedules the jobs on one scheduler with a Redis locker: each
// job runs on one replica at a time, under a lock that expires.
func Start(db *sql.DB, locker gocron.Locker) (*gocron.Scheduler, error) {
	s := gocron.NewScheduler(time.UTC)
	s.WithDistributedLocker(locker)
	if _, err := s.Every(1).Hour().Name("interest").Do(func() {
		db.Exec(`UPDATE accounts SET interest_paid = true WHERE interest_paid = false`) // want `DB.Exec \(UPDATE accounts\) writes to SQL database without a fencing token while the gocron job's distributed lock \(line 18\) is held`
	}); err != nil {
		return nil, err
	}
	if _, err := s.Cron("0 3 * * *").Name("rollup").Do(rollup, db); err != nil {
		return nil, err
	}
	s.StartAsync()
	return s, nil
}

// rollup runs as the job's func, with the parameters Do was given.
func rollup(db *sql.DB) {
	db.Exec(`INSERT INTO daily_totals (day, total) SELECT current_date, sum(amount) FROM payments`) // want `DB.Exec \(INSERT daily_totals\) writes to SQL database without a fencing token while the gocron job's distributed lock \(line 23\) is held`
}

package gocronjobs

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

// A cron job as the application declares it: the task gocron runs is made
// by the job's task factory, which wraps run with the job's timeout.
type cronJob struct {
	name    string
	timeout time.Duration
	run     func(ctx context.Context) error
}

func (j cronJob) task() func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, j.timeout)
		defer cancel()
		return j.run(ctx)
	}
}

// scheduleAll registers the jobs on a scheduler with a distributed locker:
// each job's run runs under the job's lock.
func scheduleAll(db *sql.DB, locker gocron.Locker) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	jobs := []cronJob{{name: "sweep", timeout: time.Minute, run: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE monitors SET missed = missed + 1 WHERE due_at < now()`) // want `DB.ExecContext \(UPDATE monitors\) writes to SQL database without a fencing token while the gocron job's distributed lock`
		return err
	}}}
	for _, j := range jobs {
		if _, err := s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(j.task())); err != nil {
			return err
		}
	}
	return nil
}

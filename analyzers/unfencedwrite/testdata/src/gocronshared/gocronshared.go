// Package gocronshared makes its gocron tasks with one factory for a
// scheduler with a distributed locker and for one without: the factory's
// closure is one function, and which job runs under a lock is not told, so
// neither is reported.
package gocronshared

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

type cronJob struct {
	name string
	run  func(ctx context.Context) error
}

func (j cronJob) task() func(context.Context) error {
	return func(ctx context.Context) error { return j.run(ctx) }
}

func scheduleLocked(db *sql.DB, locker gocron.Locker) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	sweep := cronJob{name: "sweep", run: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE monitors SET missed = missed + 1 WHERE due_at < now()`)
		return err
	}}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(sweep.task()))
	return err
}

func reportLocal(db *sql.DB) error {
	s, err := gocron.NewScheduler()
	if err != nil {
		return err
	}
	report := cronJob{name: "report", run: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `UPDATE reports SET sent = true`)
		return err
	}}
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(report.task()))
	return err
}

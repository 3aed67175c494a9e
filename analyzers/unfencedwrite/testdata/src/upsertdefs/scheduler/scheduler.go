// Package scheduler registers built-in recurring jobs under a redsync
// lock, as Harness's createNecessaryJobs does: the upsert applies only
// where the stored definition differs, and every holder writes the same
// constant definition, so a stale holder's copy changes nothing. A
// definition computed at run time may differ between holders.
package scheduler

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/jmoiron/sqlx"

	"upsertdefs/jobs"
	"upsertdefs/store"
)

type Scheduler struct {
	rs    *redsync.Redsync
	store jobs.Store
}

func New(rs *redsync.Redsync, db *sqlx.DB) *Scheduler {
	return &Scheduler{rs: rs, store: store.New(db)}
}

// addRecurring builds the definition from its parameters.
func (s *Scheduler) addRecurring(ctx context.Context, uid, typ, cron string, maxDur time.Duration) error {
	job := &jobs.Job{
		UID:       uid,
		Type:      typ,
		Cron:      cron,
		MaxSecs:   int(maxDur / time.Second),
		Scheduled: time.Now().UnixMilli(),
		Data:      "",
	}
	return s.store.Upsert(ctx, job)
}

func (s *Scheduler) createNecessaryJobs(ctx context.Context) error {
	m := s.rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	if err := s.addRecurring(ctx, "purge", "purge", "15 */4 * * *", 5*time.Second); err != nil {
		return err
	}
	return s.addRecurring(ctx, "overdue", "overdue", "*/5 * * * *", 5*time.Second)
}

// addFromConfig writes a definition read at run time: holders may differ.
func (s *Scheduler) addFromConfig(ctx context.Context, cron string) error {
	m := s.rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.addRecurring(ctx, "report", "report", cron, time.Minute) // want `Scheduler.addRecurring \(.*Upsert.*\) writes to SQL database without a fencing token`
}

// register upserts a literal definition directly.
func (s *Scheduler) register(ctx context.Context) error {
	m := s.rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.store.Upsert(ctx, &jobs.Job{UID: "gc", Type: "gc", Cron: "@hourly", MaxSecs: 60, Scheduled: time.Now().UnixMilli()})
}

// registerStamped compares a value computed at run time.
func (s *Scheduler) registerStamped(ctx context.Context) error {
	m := s.rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.store.Upsert(ctx, &jobs.Job{UID: "gc", Type: "gc", Cron: "@hourly", Data: time.Now().String()}) // want `Store.Upsert \(.*\) writes to SQL database without a fencing token`
}

// overwrite upserts with no condition: the last writer wins.
func (s *Scheduler) overwrite(ctx context.Context) error {
	m := s.rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.store.Save(ctx, &jobs.Job{UID: "gc", Type: "gc", Cron: "@hourly"}) // want `Store.Save \(.*\) writes to SQL database without a fencing token`
}

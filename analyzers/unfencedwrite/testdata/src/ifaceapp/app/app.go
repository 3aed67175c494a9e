// Package app is the job service. It sees only the domain's interfaces:
// what the calls do is decided by the implementations main wires in.
package app

import (
	"context"
	"time"

	"ifaceapp/domain"
)

type Service struct {
	runs   domain.RunStore
	fenced domain.FencedRuns
	locks  domain.Locker
	notes  domain.Notes
	events domain.Journal
}

func New(runs domain.RunStore, fenced domain.FencedRuns, locks domain.Locker) *Service {
	return &Service{runs: runs, fenced: fenced, locks: locks}
}

// Nightly records the run under the job's distributed lock, through the
// store interface: pgstore's InsertRun writes with no fence.
func (s *Service) Nightly(ctx context.Context, job string) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	last, err := s.runs.LastRun(ctx, job) // a read: quiet
	if err != nil {
		return err
	}
	if time.Since(last.Ended) < time.Hour {
		return nil
	}
	return s.runs.InsertRun(ctx, domain.Run{Job: job, Ended: time.Now()}) // want `RunStore.InsertRun \(DB.ExecContext \(INSERT runs\) at pgstore.go:\d+, via \*pgstore.Store.InsertRun\) writes to SQL database without a fencing token while the redsync lock taken by Lock.Lock \(via \*redislocker.Lock.Lock\) \(line 28\) is held`
}

// NightlyFenced passes the lease's fence to an implementation that
// compares it in its WHERE clause: fenced.
func (s *Service) NightlyFenced(ctx context.Context, job string, fence int64) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	return s.fenced.SaveRun(ctx, domain.Run{Job: job, Ended: time.Now()}, fence)
}

// NightlyNoFence passes a constant where the fence goes: unfenced.
func (s *Service) NightlyNoFence(ctx context.Context, job string) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	return s.fenced.SaveRun(ctx, domain.Run{Job: job}, 0) // want `FencedRuns.SaveRun \(.*via \*pgstore.Store.SaveRun\) writes to SQL database without a fencing token`
}

// Backfill writes with no lock held: nothing to fence against.
func (s *Service) Backfill(ctx context.Context, runs []domain.Run) error {
	for _, r := range runs {
		if err := s.runs.InsertRun(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// Annotate calls an interface only a test double implements: not a write.
func (s *Service) Annotate(ctx context.Context, job string) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	return s.notes.Note(ctx, "annotated "+job)
}

// Released writes after giving the lock back: outside the region.
func (s *Service) Released(ctx context.Context, job string) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	if err := l.Unlock(ctx); err != nil {
		return err
	}
	return s.runs.InsertRun(ctx, domain.Run{Job: job})
}

// Note records an event under the job's lock through the Journal, which
// several stores implement: the finding names the first that replaces
// data (the archive and the audit only add rows) and lists three of the
// others. The field holds the one journal main configured, so the call
// is named at itself, not at each implementation's writes.
func (s *Service) Note(ctx context.Context, job, event string) error {
	l := s.locks.For(job)
	if err := l.Lock(ctx); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	return s.events.Record(ctx, job, event) // want `Journal.Record \(DB.ExecContext \(UPDATE mirror\) at mysqlstore.go:\d+, via \*mysqlstore.Mirror.Record \(also \*mysqlstore.Archive.Record, \*mysqlstore.Audit.Record, \*mysqlstore.Store.Record and 1 more\)\) writes to SQL database without a fencing token while the redsync lock .* overwrites the next holder's data`
}

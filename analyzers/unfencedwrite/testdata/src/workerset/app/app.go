// Package app leads: under the leader lock it runs every worker.
package app

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"workerset/sweep"
	"workerset/workers"
)

type Leader struct {
	rs      *redsync.Redsync
	workers []workers.Worker
}

func New(rs *redsync.Redsync, ws ...workers.Worker) *Leader { return &Leader{rs: rs, workers: ws} }

// Lead runs the workers under the leader lock. They are reached through one
// interface call in another package: the finding points at each worker's
// write, not at the first worker's for all of them.
func (l *Leader) Lead(ctx context.Context) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return workers.RunAll(ctx, l.workers) // want `workers.RunAll \(DB.ExecContext \(UPDATE centrals\) at centrals.go:\d+, via \*centrals.Manager.Reconcile \(also \*clusters.Manager.Reconcile\), via Worker.Reconcile, via workers.run; it reaches 2 unfenced writes through 2 implementations: DB.ExecContext \(UPDATE centrals\) at centrals.go:\d+, DB.ExecContext \(UPDATE clusters\) at clusters.go:\d+\) writes to SQL database without a fencing token`
}

// Checkpoint saves progress through the state store it is handed. Its SQL
// and Redis implementations are alternatives, not work that all runs: the
// finding names the first and does not list the other's writes as the
// call's.
func (l *Leader) Checkpoint(ctx context.Context, state workers.StateStore, step string) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return state.SaveProgress(ctx, step) // want `StateStore.SaveProgress \(Set at redisstate.go:\d+, via \*redisstate.Store.SaveProgress \(also \*sqlstate.Store.SaveProgress\)\) writes to Redis without a fencing token`
}

// Record adds an event through the events DAO a manager hands out. The
// call is through the generic Dao's method, which every DAO implements,
// but on an EventDao, which only the events DAO does: the finding names
// its write alone, not every DAO's, in every round of the analysis.
func (l *Leader) Record(ctx context.Context, m workers.Manager, id string) error {
	mu := l.rs.NewMutex("leader")
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	defer mu.UnlockContext(ctx)
	return record(ctx, m, id) // want `app.record \(DB.ExecContext \(UPDATE events\) at daos.go:\d+, via \*daos.EventDao.AddModel, via Dao.AddModel\) writes to SQL database`
}

// Replay records events without the lock: record is not only run under
// it, so Record's finding lands at its call.
func Replay(ctx context.Context, m workers.Manager, ids []string) error {
	for _, id := range ids {
		if err := record(ctx, m, id); err != nil {
			return err
		}
	}
	return nil
}

func record(ctx context.Context, m workers.Manager, id string) error {
	return m.EventDao().AddModel(ctx, id)
}

// Sweep runs the cleanup steps under the leader lock; the finding lists
// each step's write.
func (l *Leader) Sweep(ctx context.Context, sw *sweep.Sweeper) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return sw.Run(ctx) // want `Sweeper.Run \(DB.ExecContext \(UPDATE sessions\) at sweep.go:\d+, via Sweeper.expireSessions; it reaches 2 unfenced writes: DB.ExecContext \(UPDATE sessions\) at sweep.go:\d+, DB.ExecContext \(UPDATE accounts\) at sweep.go:\d+\) writes to SQL database`
}

// SweepPhases runs the named cleanup phases under the leader lock; the
// finding lists the write of each phase that writes.
func (l *Leader) SweepPhases(ctx context.Context, sw *sweep.Sweeper) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return sw.RunPhases(ctx) // want `Sweeper.RunPhases \(DB.ExecContext \(UPDATE sessions\) at sweep.go:\d+, via Sweeper.expireSessions; it reaches 2 unfenced writes: DB.ExecContext \(UPDATE sessions\) at sweep.go:\d+, DB.ExecContext \(UPDATE accounts\) at sweep.go:\d+\) writes to SQL database`
}

// Rehearse runs the phases' Run under the leader lock, which writes
// nothing: the writes of their Undo are not the loop's.
func (l *Leader) Rehearse(ctx context.Context, sw *sweep.Sweeper) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return sw.Rehearse(ctx)
}

// DryRun runs the phases with their Run replaced: nothing is written.
func (l *Leader) DryRun(ctx context.Context, sw *sweep.Sweeper) error {
	m := l.rs.NewMutex("leader")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return sw.DryRun(ctx)
}

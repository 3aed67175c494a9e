// Package engine runs periodic workers, each under a lock of its own, so
// that one replica at a time runs it. It knows them only by the
// PeriodicalWorker interface.
package engine

import (
	"context"
	"time"

	"github.com/bsm/redislock"
)

type PeriodicalWorker interface {
	Work(ctx context.Context) error
}

type LockedWorker struct {
	locker *redislock.Client
	key    string
	worker PeriodicalWorker
}

func NewLockedWorker(locker *redislock.Client, key string, w PeriodicalWorker) *LockedWorker {
	return &LockedWorker{locker: locker, key: key, worker: w}
}

// Tick runs the worker while the lock is held. The worker reaches the
// service's writes through one call, and the finding lists them.
func (l *LockedWorker) Tick(ctx context.Context) error {
	lock, err := l.locker.Obtain(ctx, l.key, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return l.worker.Work(ctx) // want `PeriodicalWorker.Work \(Set at action.go:\d+, via \*action.service.ProcessAbandoned, via Service.ProcessAbandoned, via \*action.scenarioWorker.Work[^;]*; it reaches 2 unfenced writes: Set at action.go:\d+, Del at action.go:\d+\) writes to Redis`
}

type Toucher interface {
	Touch(ctx context.Context) error
}

type LockedToucher struct {
	locker  *redislock.Client
	toucher Toucher
}

func NewLockedToucher(locker *redislock.Client, t Toucher) *LockedToucher {
	return &LockedToucher{locker: locker, toucher: t}
}

// Tick: the toucher's call reaches one write, which the finding names.
func (l *LockedToucher) Tick(ctx context.Context) error {
	lock, err := l.locker.Obtain(ctx, "touch", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return l.toucher.Touch(ctx) // want `Toucher.Touch \(Set at action.go:\d+, via \*action.store.Mark, via Store.Mark, via \*action.touchWorker.Touch\) writes to Redis`
}

type Archiver interface {
	Archive(ctx context.Context) error
}

type LockedArchiver struct {
	locker   *redislock.Client
	archiver Archiver
}

func NewLockedArchiver(locker *redislock.Client, a Archiver) *LockedArchiver {
	return &LockedArchiver{locker: locker, archiver: a}
}

// Tick: the archiver's one write is a call two archives answer. The
// finding names the first one's write and lists none of its lines.
func (l *LockedArchiver) Tick(ctx context.Context) error {
	lock, err := l.locker.Obtain(ctx, "archive", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return l.archiver.Archive(ctx) // want `Archiver.Archive \(Set at action.go:\d+, via \*action.redisArchive.Save \(also \*action.ringArchive.Save\), via Archive.Save, via \*action.archiveWorker.Archive\) writes to Redis`
}

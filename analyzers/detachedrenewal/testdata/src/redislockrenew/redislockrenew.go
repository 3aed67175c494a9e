// Package redislockrenew refreshes bsm/redislock locks while a report is
// generated.
package redislockrenew

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
)

type reporter struct {
	locker *redislock.Client
	db     *sql.DB
	lost   atomic.Bool
}

// refreshLogged: ErrNotObtained is the lock being gone, and it is only
// logged.
func (rp *reporter) refreshLogged(ctx context.Context) error {
	lock, err := rp.locker.Obtain(ctx, "report", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	go func() { // want `this goroutine renews the bsm/redislock lock with Lock.Refresh \(line 32\)`
		for range time.Tick(3 * time.Second) {
			err := lock.Refresh(ctx, 10*time.Second, nil)
			if errors.Is(err, redislock.ErrNotObtained) {
				log.Print("report lock lost")
				return
			}
		}
	}()
	return rp.generate(ctx)
}

// refreshHelper: a helper loop hands the failure back, and the goroutine
// drops it.
func (rp *reporter) refreshHelper(ctx context.Context) error {
	lock, err := rp.locker.Obtain(ctx, "report", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	go func() { // want `this goroutine renews the bsm/redislock lock with Lock.Refresh \(line 58\)`
		_ = refreshLoop(ctx, lock)
	}()
	return rp.generate(ctx)
}

func refreshLoop(ctx context.Context, lock *redislock.Lock) error {
	for range time.Tick(3 * time.Second) {
		if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
			return err
		}
	}
	return nil
}

// refreshHelperCancels: the same helper, and the goroutine cancels the
// work when it returns an error.
func (rp *reporter) refreshHelperCancels(ctx context.Context) error {
	lock, err := rp.locker.Obtain(ctx, "report", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		if err := refreshLoop(ctx, lock); err != nil {
			cancel()
		}
	}()
	return rp.generate(ctx)
}

// refreshSetsFlag: a failed refresh sets an atomic flag the writer checks.
func (rp *reporter) refreshSetsFlag(ctx context.Context, lock *redislock.Lock) {
	go func() {
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				rp.lost.Store(true)
				return
			}
		}
	}()
}

// deferredCancel: every way out of the renewal goroutine cancels the work.
func (rp *reporter) deferredCancel(ctx context.Context, lock *redislock.Lock, cancel context.CancelFunc) {
	go func() {
		defer cancel()
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				log.Print(err)
				return
			}
		}
	}()
}

// handlerRenews: the goroutine that refreshes is the one that handles the
// messages, so returning on failure stops the handling.
func (rp *reporter) handlerRenews(ctx context.Context, lock *redislock.Lock, msgs <-chan string, h handler) {
	go func() {
		for msg := range msgs {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				return
			}
			h.Handle(ctx, msg)
		}
	}()
}

type handler interface {
	Handle(ctx context.Context, msg string)
}

// metricsOnly counts failures and gives up: counting is not telling.
func (rp *reporter) metricsOnly(ctx context.Context, lock *redislock.Lock, failures counter) {
	go func() { // want `this goroutine renews the bsm/redislock lock with Lock.Refresh`
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				failures.Inc()
				log.Print(err)
				return
			}
		}
	}()
}

type counter interface{ Inc() }

// trySend hands the failure to the worker without blocking.
func (rp *reporter) trySend(ctx context.Context, lock *redislock.Lock, errs chan error) {
	go func() {
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				select {
				case errs <- err:
				default:
				}
				return
			}
		}
	}()
}

func (rp *reporter) generate(ctx context.Context) error {
	_, err := rp.db.ExecContext(ctx, `INSERT INTO reports (day) VALUES (current_date)`)
	return err
}

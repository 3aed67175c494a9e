// Package ownlease is a semaphore whose lock is the application's own
// lease, as argo-workflows' database semaphore is: lock inserts a row into
// a lock table, and other controllers delete a controller's lock rows once
// its heartbeat row is older than a timeout. No catalog entry can know
// that lock; the application declares it (acquire and release on its lock
// methods, write on the store methods that record holders), and a holder
// paused past the timeout is then seen to record itself as a holder after
// another controller took the lock and admitted its own.
package ownlease

import (
	"context"
	"errors"
)

// Queries is the semaphore's store (an upper/db or ORM layer fencelint
// does not read).
type Queries interface {
	InsertLock(ctx context.Context, name, controller string) error
	DeleteLock(ctx context.Context, name string) error
	CurrentHolders(ctx context.Context, name string) ([]string, error)

	// UpdateStateToHeld marks a queued holder as holding the semaphore.
	//
	//fencelint:write
	UpdateStateToHeld(ctx context.Context, name, holder string) error

	// InsertHeldState records a new holder.
	//
	//fencelint:write
	InsertHeldState(ctx context.Context, name, holder string) error

	// ReleaseHeldFenced drops a holder's row only if the holder's lock row
	// still carries token: the store rejects a stale controller.
	//
	//fencelint:fenced
	ReleaseHeldFenced(ctx context.Context, name, holder string, token int64) error
}

var errFull = errors.New("semaphore full")

type semaphore struct {
	queries    Queries
	name       string
	controller string
	limit      int
}

// lock inserts the semaphore's lock row and reports whether this
// controller holds it. Other controllers delete the row when this one's
// heartbeat is older than their timeout: it is a lease.
//
//fencelint:acquire
func (s *semaphore) lock(ctx context.Context) bool {
	return s.queries.InsertLock(ctx, s.name, s.controller) == nil
}

// unlock deletes the lock row.
//
//fencelint:release
func (s *semaphore) unlock(ctx context.Context) {
	_ = s.queries.DeleteLock(ctx, s.name)
}

// tryAcquire admits holder if the semaphore has room, under the lock.
func (s *semaphore) tryAcquire(ctx context.Context, holder string, queued bool) error {
	if !s.lock(ctx) {
		return errors.New("locked")
	}
	defer s.unlock(ctx)
	holders, err := s.queries.CurrentHolders(ctx, s.name)
	if err != nil {
		return err
	}
	if len(holders) >= s.limit {
		return errFull
	}
	if queued {
		return s.queries.UpdateStateToHeld(ctx, s.name, holder) // want `Queries.UpdateStateToHeld writes to a shared store without a fencing token while the lease taken by semaphore.lock`
	}
	return s.queries.InsertHeldState(ctx, s.name, holder) // want `Queries.InsertHeldState writes to a shared store without a fencing token`
}

// release drops holder with the store's fence: nothing to report.
func (s *semaphore) release(ctx context.Context, holder string, token int64) error {
	if !s.lock(ctx) {
		return errors.New("locked")
	}
	defer s.unlock(ctx)
	return s.queries.ReleaseHeldFenced(ctx, s.name, holder, token)
}

// admitUnlocked writes before it takes the lock and after it gives it up:
// no lease is held there.
func (s *semaphore) admitUnlocked(ctx context.Context, holder string) error {
	if err := s.queries.InsertHeldState(ctx, s.name, holder); err != nil {
		return err
	}
	if s.lock(ctx) {
		s.unlock(ctx)
	}
	return s.queries.UpdateStateToHeld(ctx, s.name, holder)
}

// admitIfLocked writes only where the lock was not taken: the failed
// branch of the try-lock holds nothing.
func (s *semaphore) admitIfLocked(ctx context.Context, holder string) error {
	if s.lock(ctx) {
		defer s.unlock(ctx)
		return nil
	}
	return s.queries.InsertHeldState(ctx, s.name, holder)
}

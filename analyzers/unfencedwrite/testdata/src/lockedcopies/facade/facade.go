// Package facade runs the ledger's operations under the ledger lock: a
// helper takes it and hands the locked store to a callback, another helper
// hands that on to each operation's closure.
package facade

import (
	"context"

	"lockedcopies/ledgerstore"
)

type Facade struct {
	store *ledgerstore.Store
}

// withLock hands the locked copy to fn.
func withLock(ctx context.Context, s *ledgerstore.Store, fn func(*ledgerstore.Store) error) error {
	locked, release, err := s.Lock(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn(locked)
}

// withLockUnbound hands fn the store it was given, not the locked copy.
func withLockUnbound(ctx context.Context, s *ledgerstore.Store, fn func(*ledgerstore.Store) error) error {
	_, release, err := s.Lock(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn(s)
}

// handle runs fn under the lock, through another callback.
func (f *Facade) handle(ctx context.Context, fn func(*ledgerstore.Store) error) error {
	return withLock(ctx, f.store, func(locked *ledgerstore.Store) error {
		return fn(locked)
	})
}

// Append writes through the locked copy, two callbacks down: quiet.
func (f *Facade) Append(ctx context.Context, payload string) error {
	return f.handle(ctx, func(s *ledgerstore.Store) error {
		return s.InsertLog(ctx, payload)
	})
}

// Import writes through the locked copy directly: quiet.
func (f *Facade) Import(ctx context.Context, payloads []string) error {
	locked, release, err := f.store.Lock(ctx)
	if err != nil {
		return err
	}
	defer release()
	for _, p := range payloads {
		if err := locked.InsertLog(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// Close writes through the pool-bound store it captured, not the one the
// callback is handed: the lock's session does not carry it.
func (f *Facade) Close(ctx context.Context) error {
	return f.handle(ctx, func(*ledgerstore.Store) error {
		return f.store.SetState(ctx, "closed") // want `Store.SetState \(DB.ExecContext \(UPDATE ledgers\) at store.go:\d+\) writes to SQL database without a fencing token`
	})
}

// Reopen's helper hands the callback the unlocked store.
func (f *Facade) Reopen(ctx context.Context) error {
	return withLockUnbound(ctx, f.store, func(s *ledgerstore.Store) error {
		return s.SetState(ctx, "open") // want `Store.SetState \(DB.ExecContext \(UPDATE ledgers\) at store.go:\d+\) writes to SQL database without a fencing token`
	})
}

package redsyncrenew

import (
	"context"

	"redsyncrenew/keeper"
)

// otherPackageLoop starts another package's extension loop, which only
// logs when an extension fails.
func (im *importer) otherPackageLoop(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go keeper.KeepExtending(m) // want `this goroutine runs keeper.KeepExtending, which renews the redsync lock in a loop \(Mutex.Extend at keeper.go:16\) and tells nobody when renewal fails, so the work never hears when renewal fails and keeps writing after the lease expires`
	return im.insert(ctx, rows)
}

// otherPackageLoopCancels starts another package's loop that calls back
// with the failure, and the callback cancels the import.
func (im *importer) otherPackageLoopCancels(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go keeper.KeepExtendingOr(m, cancel)
	return im.insert(ctx, rows)
}

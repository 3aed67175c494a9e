// Package caridlockcheck asks go-chassis's dlock whether it still holds a
// lock before writing. IsHoldLock reads only the process's own map of the
// locks it took: it says nothing about the lease on etcd, which may have
// expired since.
package caridlockcheck

import (
	"context"
	"time"

	"github.com/go-chassis/cari/dlock"
	"github.com/little-cui/etcdadpt"
)

const compactLock = "/compact"

// compactOnce writes the compaction mark while the lock is "held".
func compactOnce(ctx context.Context, rev []byte) error {
	if err := dlock.TryLock(compactLock, 60); err != nil {
		return err
	}
	defer dlock.Unlock(compactLock)
	time.Sleep(time.Second)
	if !dlock.IsHoldLock(compactLock) { // want `dlock.IsHoldLock only tells that the lease was held when it ran, yet it guards the unfenced write etcdadpt.PutBytes at line 27`
		return nil
	}
	return etcdadpt.PutBytes(ctx, "/cse-sr/compacted", rev)
}

// reportHeld only reports the state: no write follows the check.
func reportHeld() bool {
	return dlock.Instance().IsHoldLock(compactLock)
}

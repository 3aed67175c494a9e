package renewals

import (
	"context"
	"log"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// KeepAliveDiscarded keeps the session's lease alive by hand and throws the
// KeepAlive channel away: one finding, at KeepAlive.
func (w *Worker) KeepAliveDiscarded(ctx context.Context, rows []string) error {
	lease, err := w.etcd.Grant(ctx, 10)
	if err != nil {
		return err
	}
	if _, err := w.etcd.KeepAlive(ctx, lease.ID); err != nil { // want detachedrenewal:"this discards the channel Lease.KeepAlive returns, so the work never hears"
		return err
	}
	s, err := concurrency.NewSession(w.etcd, concurrency.WithLease(lease.ID))
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/rows")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// KeepAliveCancels drains the KeepAlive channel and cancels the work when
// it closes.
func (w *Worker) KeepAliveCancels(ctx context.Context, rows []string) error {
	lease, err := w.etcd.Grant(ctx, 10)
	if err != nil {
		return err
	}
	ch, err := w.etcd.KeepAlive(ctx, lease.ID)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		for range ch {
		}
		cancel(errLost)
	}()
	s, err := concurrency.NewSession(w.etcd, concurrency.WithLease(lease.ID))
	if err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/rows")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// FencedLogs fences every write, but a failed extension is only logged:
// the import goes on and each of its writes is refused.
func (w *Worker) FencedLogs(ctx context.Context, token int64, rows []string) error {
	m := w.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	go func() { // want detachedrenewal:"never hears when renewal fails; its writes are fenced, so no data is lost"
		for range time.Tick(time.Second) {
			if _, err := m.ExtendContext(ctx); err != nil {
				log.Print(err)
			}
		}
	}()
	return w.updateFenced(ctx, token, rows)
}

// FencedCancels fences every write and stops the import when an extension
// fails.
func (w *Worker) FencedCancels(ctx context.Context, token int64, rows []string) error {
	m := w.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		for range time.Tick(time.Second) {
			if ok, err := m.ExtendContext(ctx); !ok || err != nil {
				cancel(errLost)
				return
			}
		}
	}()
	return w.updateFenced(ctx, token, rows)
}

func (w *Worker) updateFenced(ctx context.Context, token int64, rows []string) error {
	for _, row := range rows {
		res, err := w.db.ExecContext(ctx, `UPDATE items SET name = $1, fence = $2 WHERE id = 1 AND fence < $2`, row, token)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errLost
		}
	}
	return nil
}

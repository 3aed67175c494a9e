package renewals

import (
	"context"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// Services start goroutines through helpers of their own, and extend locks
// through interfaces of their own (jitsu's safego.RunWithRestart and
// LockExtender): the heartbeat below is a go statement all the same.

// execution is one func run in a goroutine under a panic handler: the func
// is kept in a field and called by the goroutine run starts.
type execution struct {
	f       func()
	restart time.Duration
}

// runWithRestart runs f in a new goroutine and restarts it after a panic.
func runWithRestart(f func()) *execution {
	exec := execution{f: f, restart: 2 * time.Second}
	return exec.run()
}

func (exec *execution) run() *execution {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				time.Sleep(exec.restart)
				exec.run()
			}
		}()
		exec.f()
	}()
	return exec
}

// guarded runs f in the caller's goroutine and logs a panic.
func guarded(f func()) {
	defer func() {
		if r := recover(); r != nil {
			log.Print(r)
		}
	}()
	f()
}

// A lockExtender extends a held lock.
type lockExtender interface {
	Extend() (bool, error)
}

// heldMutex is a held redsync mutex.
type heldMutex struct{ m *redsync.Mutex }

func (h heldMutex) Extend() (bool, error) { return h.m.Extend() }

// HeartbeatLogs extends the lock through the interface in a goroutine
// runWithRestart starts, and only logs a failed Extend.
func (w *Worker) HeartbeatLogs(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("rows")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	var ext lockExtender = heldMutex{m}
	done := make(chan struct{})
	defer close(done)
	runWithRestart(func() { // want detachedrenewal:"the goroutine runWithRestart starts here renews the redsync lock with lockExtender.Extend"
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Second):
				if _, err := ext.Extend(); err != nil {
					log.Printf("extend: %v", err)
				}
			}
		}
	})
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// HeartbeatCancels cancels the work's context when Extend fails.
func (w *Worker) HeartbeatCancels(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("rows")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	var ext lockExtender = heldMutex{m}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	runWithRestart(func() {
		for ctx.Err() == nil {
			time.Sleep(2 * time.Second)
			if ok, err := ext.Extend(); !ok || err != nil {
				cancel(errLost)
				return
			}
		}
	})
	return w.insert(ctx, rows) // want unfencedwrite:"without a fencing token"
}

// ExtendGuarded extends once, in the caller's goroutine: no goroutine.
func (w *Worker) ExtendGuarded(m *redsync.Mutex) {
	guarded(func() {
		if _, err := m.Extend(); err != nil {
			log.Print(err)
		}
	})
}

// Package locks wraps redsync: a Lock keeps its mutex extended by a
// heartbeat that a LockController runs through the application's safego
// helpers, calling Extend through the LockExtender interface.
package locks

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"

	"helperrenew/safego"
)

// A LockExtender extends a held lock.
type LockExtender interface {
	Extend() (bool, error)
}

// Lock is a redsync lock.
type Lock struct {
	mutex      *redsync.Mutex
	controller *LockController
}

// Extend extends the lock's expiry.
func (l *Lock) Extend() (bool, error) {
	return l.mutex.Extend()
}

// TryLock takes the lock and starts its heartbeat.
func (l *Lock) TryLock(ctx context.Context) (bool, error) {
	if err := l.mutex.LockContext(ctx); err != nil {
		return false, err
	}
	l.controller = &LockController{extender: l, period: 4 * time.Second, closed: make(chan struct{})}
	l.controller.StartHeartbeat()
	return true, nil
}

// LockController extends a lock every period until it is closed.
type LockController struct {
	extender LockExtender
	period   time.Duration
	closed   chan struct{}
	lost     chan struct{}
	cancel   context.CancelFunc
}

// StartHeartbeat extends the lock in a goroutine that only logs a failed
// Extend: the work under the lock never hears that it lost it.
func (c *LockController) StartHeartbeat() {
	ticker := time.NewTicker(c.period)
	safego.RunWithRestart(func() { // want `the goroutine safego.RunWithRestart starts here renews the redsync lock with LockExtender.Extend \(via \*locks.Lock.Extend\) \(line 63\), but the work never hears when renewal fails and keeps writing after the lease expires; when renewal fails, cancel the work's context or close a channel it selects on`
		for {
			select {
			case <-c.closed:
				ticker.Stop()
				return
			case <-ticker.C:
				if _, err := c.extender.Extend(); err != nil {
					log.Printf("extending: %v", err)
				}
			}
		}
	})
}

// StartNamedHeartbeat goes through two helpers, Named and Go, to the
// goroutine, and gives up on the first failure without telling anyone.
func (c *LockController) StartNamedHeartbeat() {
	safego.Named("heartbeat", func() { // want `the goroutine safego.Named starts here renews the redsync lock with LockExtender.Extend`
		for range time.Tick(c.period) {
			if ok, err := c.extender.Extend(); !ok || err != nil {
				log.Printf("extending: ok=%v err=%v", ok, err)
				return
			}
		}
	})
}

// StartLoggedHeartbeat starts the loop through a goroutine's closure that
// hands it to Guarded.
func (c *LockController) StartLoggedHeartbeat() {
	safego.GoLogged(c.beat) // want `the goroutine safego.GoLogged starts here renews the redsync lock with LockExtender.Extend \(via \*locks.Lock.Extend\) \(line 97\)`
}

// StartLocalHeartbeat starts the loop through a helper of this package.
func (c *LockController) StartLocalHeartbeat() {
	goSafely(c.beat) // want `the goroutine goSafely starts here renews the redsync lock with LockExtender.Extend`
}

func (c *LockController) beat() {
	for range time.Tick(c.period) {
		if _, err := c.extender.Extend(); err != nil {
			log.Print(err)
		}
	}
}

// goSafely runs f in a goroutine that logs a panic.
func goSafely(f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				log.Print(r)
			}
		}()
		f()
	}()
}

// StartCancelingHeartbeat cancels the work's context when Extend fails:
// the work hears.
func (c *LockController) StartCancelingHeartbeat() {
	safego.RunWithRestart(func() {
		for range time.Tick(c.period) {
			if _, err := c.extender.Extend(); err != nil {
				c.cancel()
				return
			}
		}
	})
}

// StartClosingHeartbeat closes the lost channel the work selects on.
func (c *LockController) StartClosingHeartbeat() {
	safego.Run(func() {
		for range time.Tick(c.period) {
			if _, err := c.extender.Extend(); err != nil {
				close(c.lost)
				return
			}
		}
	})
}

// ExtendInline renews in the caller's goroutine, through helpers that do
// not start one: it is no detached goroutine (the caller hears what it
// does, or not, in its own flow).
func (c *LockController) ExtendInline() {
	safego.Guarded(func() {
		if _, err := c.extender.Extend(); err != nil {
			log.Print(err)
		}
	})
	safego.Inline(func() {
		if _, err := c.extender.Extend(); err != nil {
			log.Print(err)
		}
	})
}

// ExtendWaiting renews in a goroutine that RunAndWait waits for: the
// caller does not go on beside it.
func (c *LockController) ExtendWaiting() {
	safego.RunAndWait(func() {
		for range time.Tick(c.period) {
			if _, err := c.extender.Extend(); err != nil {
				log.Print(err)
				return
			}
		}
	})
}

// Sync writes under the lock.
func Sync(ctx context.Context, l *Lock, db *sql.DB) error {
	if ok, err := l.TryLock(ctx); !ok || err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE sources SET synced_at = now() WHERE id = 1")
	return err
}

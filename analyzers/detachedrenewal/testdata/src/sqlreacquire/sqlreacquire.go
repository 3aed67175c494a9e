// Package sqlreacquire holds MySQL GET_LOCK and PostgreSQL advisory locks on
// connections of their own and keeps those sessions alive by taking the
// lock again on a timer, as schema-change and migration runners do.
package sqlreacquire

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

// An advisoryLock holds GET_LOCK on a one-connection pool.
type advisoryLock struct {
	db     *sql.DB
	name   string
	cancel context.CancelFunc
	lost   chan struct{}
	closed chan error
	err    error
	gone   atomic.Bool
}

// getLock takes (or takes again) the lock on the lock's session.
func (l *advisoryLock) getLock(ctx context.Context) error {
	var answer int
	if err := l.db.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", l.name).Scan(&answer); err != nil {
		return fmt.Errorf("could not acquire %s: %w", l.name, err)
	}
	if answer != 1 {
		return errors.New("lock is held by another connection")
	}
	return nil
}

func (l *advisoryLock) reconnect() (*sql.DB, error) { return sql.Open("mysql", "dsn") }

// newLock refreshes the lock every minute and, when that fails, logs,
// reconnects and tries again: the runner that holds the lock never hears.
func newLock(ctx context.Context, db *sql.DB, name string) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	var err error
	if err = l.getLock(ctx); err != nil {
		return nil, err
	}
	ctx, l.cancel = context.WithCancel(ctx)
	go func() { // want `this goroutine takes the MySQL lock again with advisoryLock.getLock \(line 63\) to keep its session alive, but when that fails \(the session died, and the lock with it\) the work never hears`
		ticker := time.NewTicker(time.Minute)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				select {
				case l.closed <- l.db.Close():
				default:
				}
				return
			case <-ticker.C:
				if err = l.getLock(ctx); err == nil {
					continue
				}
				log.Printf("could not refresh advisory lock: %v", err)
				_ = l.db.Close()
				if l.db, err = l.reconnect(); err != nil {
					continue
				}
				if err = l.getLock(ctx); err != nil {
					log.Printf("could not take the lock again: %v", err)
				}
			}
		}
	}()
	return l, nil
}

// keepOnConn takes GET_LOCK again on the connection itself every tick and
// logs a failure.
func keepOnConn(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	var got int
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK('orders', 0)").Scan(&got); err != nil || got != 1 {
		return errors.New("locked")
	}
	go func() { // want `this goroutine takes the MySQL lock again with GET_LOCK \(line 90\)`
		for range time.Tick(30 * time.Second) {
			var again int
			if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK('orders', 0)").Scan(&again); err != nil || again != 1 {
				log.Printf("orders lock: %v", err)
			}
		}
	}()
	return work(ctx)
}

// keepPostgres re-runs pg_advisory_lock on the session every few seconds
// and returns from the goroutine when it fails: nobody waits on it.
func keepPostgres(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)"); err != nil {
		return err
	}
	go func() { // want `this goroutine takes the PostgreSQL lock again with pg_advisory_lock \(line 107\)`
		for {
			time.Sleep(5 * time.Second)
			if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)"); err != nil {
				log.Print(err)
				return
			}
		}
	}()
	return work(ctx)
}

// newCancelling cancels the runner's context when the lock cannot be taken
// again.
func newCancelling(ctx context.Context, db *sql.DB, name string) (context.Context, *advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	if err := l.getLock(ctx); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		for range time.Tick(time.Minute) {
			if err := l.getLock(ctx); err != nil {
				cancel(err)
				return
			}
		}
	}()
	return ctx, l, nil
}

// newClosing closes the lock's lost channel, which the runner selects on.
func newClosing(ctx context.Context, db *sql.DB, name string) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name, lost: make(chan struct{})}
	var err error
	if err = l.getLock(ctx); err != nil {
		return nil, err
	}
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for range t.C {
			if err = l.getLock(ctx); err != nil {
				close(l.lost)
				return
			}
		}
	}()
	return l, nil
}

// newRecording keeps the failure where the runner checks it (Err) before
// each batch.
func newRecording(ctx context.Context, db *sql.DB, name string) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	if err := l.getLock(ctx); err != nil {
		return nil, err
	}
	go func() {
		for range time.Tick(time.Minute) {
			if err := l.getLock(ctx); err != nil {
				l.err = err
				return
			}
		}
	}()
	return l, nil
}

// newFlagging sets a flag the runner reads.
func newFlagging(ctx context.Context, db *sql.DB, name string) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	if err := l.getLock(ctx); err != nil {
		return nil, err
	}
	go func() {
		for range time.Tick(time.Minute) {
			if err := l.getLock(ctx); err != nil {
				l.gone.Store(true)
			}
		}
	}()
	return l, nil
}

// Err is what the runner checks between batches.
func (l *advisoryLock) Err() error { return l.err }

// waitForLock retries until the lock is taken, then works: the loop is how
// the lock is acquired, not a renewal.
func waitForLock(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	for {
		var got int
		if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK('orders', 0)").Scan(&got); err == nil && got == 1 {
			break
		}
		time.Sleep(time.Second)
	}
	return work(ctx)
}

// waitInBackground retries in a goroutine until the lock is taken and then
// works there: the lock is not held when the goroutine starts.
func waitInBackground(ctx context.Context, conn *sql.Conn, work func(context.Context) error) {
	go func() {
		for {
			var got int
			if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK('orders', 0)").Scan(&got); err == nil && got == 1 {
				break
			}
			time.Sleep(time.Second)
		}
		_ = work(ctx)
	}()
}

// pingSession keeps the lock's session from timing out with SELECT 1: it
// does not take the lock again, and is not read as a renewal.
func pingSession(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 10)"); err != nil {
		return err
	}
	go func() {
		for range time.Tick(time.Minute) {
			if _, err := conn.ExecContext(ctx, "SELECT 1"); err != nil {
				log.Print(err)
			}
			if err := conn.PingContext(ctx); err != nil {
				log.Print(err)
			}
		}
	}()
	return work(ctx)
}

// takeAnother takes a second lock in the background, a lock of its own.
func takeAnother(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 10)"); err != nil {
		return err
	}
	go func() {
		for range time.Tick(time.Minute) {
			if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('invoices', 0)"); err != nil {
				log.Print(err)
			}
		}
	}()
	return work(ctx)
}

// startedBefore starts the loop before it takes the lock.
func startedBefore(ctx context.Context, conn *sql.Conn, work func(context.Context) error) error {
	go func() {
		for range time.Tick(time.Minute) {
			if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 0)"); err != nil {
				log.Print(err)
			}
		}
	}()
	if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 10)"); err != nil {
		return err
	}
	return work(ctx)
}

// newCapturedCancel tests the captured error again after storing it, and
// cancels.
func newCapturedCancel(ctx context.Context, db *sql.DB, name string) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	var err error
	if err = l.getLock(ctx); err != nil {
		return nil, err
	}
	ctx, l.cancel = context.WithCancel(ctx)
	go func() {
		for range time.Tick(time.Minute) {
			if err = l.getLock(ctx); err != nil {
				l.cancel()
				return
			}
		}
	}()
	return l, nil
}

// workHere takes the lock again between batches in the goroutine that does
// the work, and stops working when it fails.
func workHere(ctx context.Context, conn *sql.Conn, batch func(context.Context) error) error {
	if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 10)"); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		for range time.Tick(time.Second) {
			if _, err := conn.ExecContext(ctx, "SELECT GET_LOCK('orders', 0)"); err != nil {
				done <- err
				return
			}
			if err := batch(ctx); err != nil {
				done <- err
				return
			}
		}
	}()
	return <-done
}

// keepAlive takes the lock again every minute and only logs a failure.
func (l *advisoryLock) keepAlive(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := l.getLock(ctx); err != nil {
				log.Printf("keepalive: %v", err)
			}
		}
	}
}

// runWithKeepAlive runs keepAlive beside the work until the work is done.
func runWithKeepAlive(ctx context.Context, db *sql.DB, name string, work func(context.Context) error) error {
	l := &advisoryLock{db: db, name: name}
	if err := l.getLock(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // want `this goroutine takes the MySQL lock again with advisoryLock.getLock \(line 320\)`
		defer wg.Done()
		l.keepAlive(ctx)
	}()
	err := work(ctx)
	cancel()
	wg.Wait()
	return err
}

// runOther keeps another lock object alive: not the one it holds.
func runOther(ctx context.Context, db *sql.DB, work func(context.Context) error) error {
	l := &advisoryLock{db: db, name: "orders"}
	if err := l.getLock(ctx); err != nil {
		return err
	}
	other := &advisoryLock{db: db, name: "invoices"}
	go other.keepAlive(ctx)
	return work(ctx)
}

// newDialing reconnects through a dial func it may be handed, on the
// failure path: a new connection tells the runner nothing.
func newDialing(ctx context.Context, db *sql.DB, name string, dialer func() (*sql.DB, error)) (*advisoryLock, error) {
	l := &advisoryLock{db: db, name: name}
	dial := l.reconnect
	if dialer != nil {
		dial = dialer
	}
	if err := l.getLock(ctx); err != nil {
		return nil, err
	}
	go func() { // want `this goroutine takes the MySQL lock again with advisoryLock.getLock \(line 373\)`
		for range time.Tick(time.Minute) {
			if l.db == nil {
				continue
			}
			if err := l.getLock(ctx); err != nil {
				log.Printf("could not refresh advisory lock: %v", err)
				_ = l.db.Close()
				db, err := dial()
				if err != nil {
					l.db = nil
					continue
				}
				l.db = db
			}
		}
	}()
	return l, nil
}

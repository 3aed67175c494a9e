// Package renewdirective keeps a hand-rolled PostgreSQL lease alive with a
// function marked //fencelint:renew.
package renewdirective

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"

	"renewdirective/leases"
)

type leaser struct {
	db *sql.DB
}

// extend pushes the lease row's expiry forward.
//
//fencelint:renew
func (l *leaser) extend(ctx context.Context, owner string) error {
	res, err := l.db.ExecContext(ctx, `UPDATE leases SET expires_at = now() + interval '10 seconds' WHERE name = 'jobs' AND owner = $1`, owner)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// heartbeatIgnored drops extend's error.
func (l *leaser) heartbeatIgnored(ctx context.Context, owner string) {
	go func() { // want `this goroutine renews a lease with leaser.extend \(line 37\), but the work never hears when renewal fails`
		for {
			time.Sleep(3 * time.Second)
			l.extend(ctx, owner)
		}
	}()
}

// heartbeatStops calls the stop callback it was given.
func (l *leaser) heartbeatStops(ctx context.Context, owner string, stop func(error)) {
	go func() {
		for {
			time.Sleep(3 * time.Second)
			if err := l.extend(ctx, owner); err != nil {
				log.Print(err)
				stop(err)
				return
			}
		}
	}()
}

// heartbeatLogs only logs extend's failure and goes on.
func (l *leaser) heartbeatLogs(ctx context.Context, owner string) {
	go func() { // want `this goroutine renews a lease with leaser.extend \(line 66\), but the work never hears when renewal fails`
		t := time.NewTicker(3 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := l.extend(ctx, owner); err != nil {
					log.Printf("extend: %v", err)
				}
			}
		}
	}()
}

// A worker renews through another package's renewals.
type worker struct {
	db     *sql.DB
	rs     *redsync.Redsync
	leaser *leases.Leaser
}

// heartbeatOtherPackage logs the failure of a renewal declared in another
// package with //fencelint:renew.
func (w *worker) heartbeatOtherPackage(ctx context.Context, owner string) {
	go func() { // want `this goroutine renews a lease with Leaser.Extend \(line 86\), but the work never hears when renewal fails`
		for range time.Tick(3 * time.Second) {
			if err := w.leaser.Extend(ctx, owner); err != nil {
				log.Printf("extend: %v", err)
			}
		}
	}()
}

// extendWrapperLogs extends through another package's wrapper of redsync
// and only logs when it fails, while the import goes on.
func (w *worker) extendWrapperLogs(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go func() { // want `this goroutine renews the redsync lock with leases.ExtendMutex \(line 103\), but the work never hears when renewal fails`
		for range time.Tick(2 * time.Second) {
			if err := leases.ExtendMutex(ctx, m); err != nil {
				log.Print(err)
			}
		}
	}()
	return w.insert(ctx, rows)
}

// extendWrapperCancels cancels the import when the wrapper fails.
func (w *worker) extendWrapperCancels(ctx context.Context, rows []string) error {
	m := w.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		for range time.Tick(2 * time.Second) {
			if err := leases.ExtendMutex(ctx, m); err != nil {
				cancel(err)
				return
			}
		}
	}()
	return w.insert(ctx, rows)
}

func (w *worker) insert(ctx context.Context, rows []string) error {
	for _, r := range rows {
		if _, err := w.db.ExecContext(ctx, `INSERT INTO items (name) VALUES ($1)`, r); err != nil {
			return err
		}
	}
	return nil
}

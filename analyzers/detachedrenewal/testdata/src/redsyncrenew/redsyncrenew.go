// Package redsyncrenew imports rows under a redsync lock that a goroutine
// keeps extending.
package redsyncrenew

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
)

var errLost = errors.New("lost the import lock")

type importer struct {
	rs *redsync.Redsync
	db *sql.DB
}

// logsAndGivesUp: when Extend fails the goroutine logs and returns, and
// the import loop, which never hears of it, keeps inserting.
func (im *importer) logsAndGivesUp(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go func() { // want `this goroutine renews the redsync lock with Mutex.Extend \(line 34\), but the work never hears when renewal fails and keeps writing after the lease expires; when renewal fails, cancel the work's context or close a channel it selects on`
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for range t.C {
			if ok, err := m.Extend(); !ok || err != nil {
				log.Printf("extend failed: %v", err)
				return
			}
		}
	}()
	return im.insert(ctx, rows)
}

// ignoresResult drops Extend's results altogether.
func (im *importer) ignoresResult(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go func() { // want `this goroutine renews the redsync lock with Mutex.ExtendContext`
		for {
			time.Sleep(2 * time.Second)
			m.ExtendContext(ctx)
		}
	}()
	return im.insert(ctx, rows)
}

// retriesForever: continue on failure is a retry, and the lease expires
// while it retries.
func (im *importer) retriesForever(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go keepExtending(m) // want `this goroutine renews the redsync lock with Mutex.Extend \(line 74\)`
	return im.insert(ctx, rows)
}

func keepExtending(m *redsync.Mutex) {
	for {
		time.Sleep(time.Second)
		if _, err := m.Extend(); err != nil {
			log.Print(err)
			continue
		}
	}
}

// throughClosure: the failure is handed back by a helper closure and then
// only logged.
func (im *importer) throughClosure(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	extend := func() error {
		_, err := m.ExtendContext(ctx)
		return err
	}
	go func() { // want `this goroutine renews the redsync lock with Mutex.ExtendContext`
		for range time.Tick(time.Second) {
			if err := extend(); err != nil {
				log.Print(err)
				return
			}
		}
	}()
	return im.insert(ctx, rows)
}

// cancelsWork: a failed renewal cancels the context the inserts run on.
func (im *importer) cancelsWork(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ok, err := m.ExtendContext(ctx); !ok || err != nil {
					cancel(errLost)
					return
				}
			}
		}
	}()
	return im.insert(ctx, rows)
}

// closesLost: the renewal goroutine closes a channel the import selects on.
func (im *importer) closesLost(ctx context.Context, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	lost := make(chan struct{})
	go func() {
		defer close(lost)
		for range time.Tick(time.Second) {
			if _, err := m.Extend(); err != nil {
				return
			}
		}
	}()
	for _, r := range rows {
		select {
		case <-lost:
			return errLost
		default:
		}
		if _, err := im.db.ExecContext(ctx, `INSERT INTO items (name) VALUES ($1)`, r); err != nil {
			return err
		}
	}
	return nil
}

// sendsError: the failure is sent to the worker.
func (im *importer) sendsError(ctx context.Context, m *redsync.Mutex, errs chan<- error) {
	go func() {
		for range time.Tick(time.Second) {
			if _, err := m.Extend(); err != nil {
				errs <- err
				return
			}
		}
	}()
}

// workerRenews: the goroutine that renews is the one that writes, so
// returning on failure stops the work.
func (im *importer) workerRenews(ctx context.Context, m *redsync.Mutex, rows []string) {
	go func() {
		for _, r := range rows {
			if ok, err := m.ExtendContext(ctx); !ok || err != nil {
				return
			}
			im.db.ExecContext(ctx, `INSERT INTO items (name) VALUES ($1)`, r)
		}
	}()
}

// fencedWork: every write the lease protects is fenced, so a lost lease
// cannot lose one; but the import goes on without the lease, and each of
// its writes is refused.
func (im *importer) fencedWork(ctx context.Context, token int64, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	go func() { // want `this goroutine renews the redsync lock with Mutex.Extend \(line 196\), but the work never hears when renewal fails; its writes are fenced, so no data is lost, but it keeps working after the lease is gone and every write it makes is refused`
		for range time.Tick(time.Second) {
			if _, err := m.Extend(); err != nil {
				log.Printf("extend: %v", err)
			}
		}
	}()
	return im.updateFenced(ctx, token, rows)
}

// fencedWorkCancelled: the writes are fenced and a failed renewal also
// stops the import.
func (im *importer) fencedWorkCancelled(ctx context.Context, token int64, rows []string) error {
	m := im.rs.NewMutex("import")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		for range time.Tick(time.Second) {
			if ok, err := m.Extend(); !ok || err != nil {
				cancel(errLost)
				return
			}
		}
	}()
	return im.updateFenced(ctx, token, rows)
}

func (im *importer) updateFenced(ctx context.Context, token int64, rows []string) error {
	for _, r := range rows {
		res, err := im.db.ExecContext(ctx, `UPDATE items SET name = $1, fence = $2 WHERE id = 1 AND fence < $2`, r, token)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errLost
		}
	}
	return nil
}

func (im *importer) insert(ctx context.Context, rows []string) error {
	for _, r := range rows {
		if _, err := im.db.ExecContext(ctx, `INSERT INTO items (name) VALUES ($1)`, r); err != nil {
			return err
		}
	}
	return nil
}

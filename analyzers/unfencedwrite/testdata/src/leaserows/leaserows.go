// Package leaserows runs cron jobs under leases kept as rows of task_lock
// (ente's mailers): a job that claims the lease and writes after it
// writes under the lease, with nothing to reject it once the lease ran out
// and another instance claimed the row.
package leaserows

import (
	"database/sql"
	"time"

	"leaserows/repo"
)

type Mailer struct {
	db    *sql.DB
	locks *repo.TaskLockRepository
	cache *repo.CacheRepository
	host  string
}

// SayHello records each greeting it sends: a holder paused past its lease
// greets the users the next holder already greeted.
func (m *Mailer) SayHello(users []int64) error {
	ok, err := m.locks.AcquireLock("hello_mail", time.Now().Add(time.Hour).UnixMicro(), m.host)
	if err != nil || !ok {
		return err
	}
	defer m.locks.ReleaseLock("hello_mail")
	for _, u := range users {
		if _, err := m.db.Exec(`INSERT INTO notification_history (user_id, template_id, sent_time) VALUES ($1, 'hello', now())`, u); err != nil { // want `Exec \(INSERT notification_history\) writes to SQL database without a fencing token while the SQL database lock taken by TaskLockRepository.AcquireLock`
			return err
		}
	}
	return nil
}

// Sweep extends its lease between batches and deletes expired sessions:
// the extension is the lease's own, and a delete by age is the next
// holder's too.
func (m *Mailer) Sweep(batches int) error {
	ok, err := m.locks.AcquireLock("sweep", time.Now().Add(time.Minute).UnixMicro(), m.host)
	if err != nil || !ok {
		return err
	}
	defer m.locks.ReleaseLock("sweep")
	for range batches {
		if _, err := m.locks.ExtendLock("sweep", time.Now().Add(time.Minute).UnixMicro(), m.host); err != nil {
			return err
		}
		if _, err := m.db.Exec(`DELETE FROM sessions WHERE expires_at < now()`); err != nil {
			return err
		}
	}
	return nil
}

// Report writes after it let the lease go: under no lease.
func (m *Mailer) Report(n int) error {
	ok, err := m.locks.AcquireLock("report", time.Now().Add(time.Minute).UnixMicro(), m.host)
	if err != nil || !ok {
		return err
	}
	if err := m.locks.ReleaseLock("report"); err != nil {
		return err
	}
	_, err = m.db.Exec(`INSERT INTO reports (n, at) VALUES ($1, now())`, n)
	return err
}

// Recompute replaces an expired cache entry and then records it: a cache
// entry's refresh is no lease.
func (m *Mailer) Recompute(key, value string) error {
	ok, err := m.cache.Refresh(key, value, time.Now().Add(time.Minute))
	if err != nil || !ok {
		return err
	}
	_, err = m.db.Exec(`INSERT INTO recomputes (key, at) VALUES ($1, now())`, key)
	return err
}

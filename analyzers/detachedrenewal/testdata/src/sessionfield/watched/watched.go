// Package watched locks with the session package store keeps, and runs the
// work on the session's ctx: it hears when the lease is gone.
package watched

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"

	"sessionfield/store"
)

type worker struct {
	db *sql.DB
	st *store.Store
}

// runJobs runs the jobs on the session's ctx.
func (w *worker) runJobs(jobs []string) error {
	ctx := w.st.Session.Ctx()
	m := concurrency.NewMutex(w.st.Session, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return w.update(ctx, jobs)
}

func (w *worker) update(ctx context.Context, jobs []string) error {
	for _, j := range jobs {
		if _, err := w.db.ExecContext(ctx, `UPDATE jobs SET done = true WHERE name = $1`, j); err != nil {
			return err
		}
	}
	return nil
}

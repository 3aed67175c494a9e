// Package fieldtoken carries fencing tokens in a field of a work item that
// a helper writes with: drawn after the lock, or in the statement that takes
// it.
package fieldtoken

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-redsync/redsync/v4"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

var errStale = errors.New("a newer holder wrote first")

// A job is one document to rewrite, with the fence it writes under.
type job struct {
	id    int64
	body  string
	fence int64
}

type worker struct {
	db *sql.DB
	rs *redsync.Redsync
}

// run locks, then draws the job's fence into the job: late.
func (w *worker) run(ctx context.Context, j *job) error {
	m := w.rs.NewMutex("docs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	if err := w.db.QueryRowContext(ctx, "SELECT nextval('docs_fence')").Scan(&j.fence); err != nil {
		return err
	}
	return w.save(ctx, j) // want `worker.save \(DB.ExecContext \(UPDATE docs\) at fieldtoken.go:\d+\) is fenced with the query "SELECT nextval\('docs_fence'\)" \(line 37\), which is not a fencing token: it is drawn in a separate step after the redsync lock taken by Mutex.LockContext \(line 33\) was taken`
}

// save writes a job with the fence it carries.
func (w *worker) save(ctx context.Context, j *job) error {
	res, err := w.db.ExecContext(ctx, update, j.body, j.fence, j.id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// A task is a job whose fence comes with the lock.
type task struct {
	id    int64
	body  string
	fence int64
}

// runTask takes a PostgreSQL advisory lock and draws the fence in the same
// statement: the fence is issued with the grant.
func (w *worker) runTask(ctx context.Context, t *task) error {
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var locked bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(42), nextval('docs_fence')").Scan(&locked, &t.fence); err != nil || !locked {
		return err
	}
	defer conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock(42)")
	return w.saveTask(ctx, t)
}

// saveTask writes a task with the fence it carries.
func (w *worker) saveTask(ctx context.Context, t *task) error {
	res, err := w.db.ExecContext(ctx, update, t.body, t.fence, t.id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

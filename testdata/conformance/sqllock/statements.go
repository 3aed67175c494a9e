package sqllock

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Dispatcher hands jobs out under a redsync mutex, through every statement
// form database/sql and pgx offer; none of them carries a fence.
type Dispatcher struct {
	rs   *redsync.Redsync
	db   *sql.DB
	pool *pgxpool.Pool
}

// Take claims the next job with UPDATE ... RETURNING through QueryRow.
func (d *Dispatcher) Take(ctx context.Context) (int64, error) {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return 0, err
	}
	defer m.UnlockContext(ctx)
	var id int64
	err := d.pool.QueryRow(ctx, `UPDATE jobs SET state = 'taken' WHERE id = (SELECT min(id) FROM jobs WHERE state = 'new') RETURNING id`).Scan(&id) // want unfencedwrite:"without a fencing token"
	return id, err
}

// Finish marks jobs done through a prepared statement.
func (d *Dispatcher) Finish(ctx context.Context, ids []int64) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	stmt, err := d.db.PrepareContext(ctx, `UPDATE jobs SET state = 'done' WHERE id = $1`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, id := range ids {
		if _, err := stmt.ExecContext(ctx, id); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	return nil
}

// Requeue moves every taken job back in a transaction: atomic, but a
// stale holder's transaction commits as well as anyone's, and moves back
// the jobs taken since it looked.
func (d *Dispatcher) Requeue(ctx context.Context) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'new' WHERE state = 'taken'`); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	return tx.Commit()
}

// RequeueStuck moves back only the jobs taken more than five minutes ago
// by the store's clock: what a stale holder's copy moves, the next
// holder's moves too, and a job taken since is younger.
func (d *Dispatcher) RequeueStuck(ctx context.Context) error {
	m := d.rs.NewMutex("dispatch")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := d.db.ExecContext(ctx, `UPDATE jobs SET state = 'new' WHERE state = 'taken' AND taken_at < now() - interval '5 minutes'`)
	return err
}

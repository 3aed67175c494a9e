// Package boilerstore writes through sqlboiler's generated models under a
// PostgreSQL advisory lock: UpdateAll and DeleteAll are read as UPDATE and
// DELETE of the constructor's table with the mods' conditions, and
// queries.Raw as its SQL text.
package boilerstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/aarondl/sqlboiler/v4/boil"
	"github.com/aarondl/sqlboiler/v4/queries"
	"github.com/aarondl/sqlboiler/v4/queries/qm"

	"boilerstore/models"
)

var errStale = errors.New("stale fence")

type Store struct {
	db   *sql.DB
	conn *sql.Conn
}

func (s *Store) lock(ctx context.Context, key int64) error {
	var ok bool
	if err := s.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	return nil
}

// Finish marks the job done by its id alone.
func (s *Store) Finish(ctx context.Context, id int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := models.Jobs(qm.Where("id = ?", id)).UpdateAll(ctx, s.db, models.M{"state": "done"}) // want `jobQuery.UpdateAll \(UPDATE jobs\) writes to SQL database without a fencing token`
	return err
}

// FinishFenced compares the fence and aborts when no row matched: fenced.
func (s *Store) FinishFenced(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	n, err := models.Jobs(qm.Where("id = ?", id), qm.And("fence < ?", tok)).UpdateAll(ctx, s.db, models.M{"state": "done", "fence": tok})
	if err != nil {
		return err
	}
	if n == 0 {
		return errStale
	}
	return nil
}

// FinishBlind compares the fence but never reads the count.
func (s *Store) FinishBlind(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := models.Jobs(qm.Where("id = ? AND fence < ?", id, tok)).UpdateAll(ctx, s.db, models.M{"state": "done", "fence": tok}) // want `jobQuery.UpdateAll \(UPDATE jobs\) is fenced but its rows-affected count is never read`
	return err
}

// FenceInOr puts the fence in one branch of an OR: a row matched by the
// other branch is written whatever its fence.
func (s *Store) FenceInOr(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	n, err := models.Jobs(qm.Where("fence < ?", tok), qm.Or("id = ?", id)).UpdateAll(ctx, s.db, models.M{"state": "done"}) // want `jobQuery.UpdateAll \(UPDATE jobs\) writes to SQL database without a fencing token`
	if err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Purge deletes the job's rows, unfenced.
func (s *Store) Purge(ctx context.Context, id int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := models.Jobs(qm.Where("id = ?", id), qm.Limit(1)).DeleteAll(ctx, s.db) // want `jobQuery.DeleteAll \(DELETE jobs\) writes to SQL database without a fencing token`
	return err
}

// FinishWith takes its mods from the caller: the WHERE clause is out of
// sight.
func (s *Store) FinishWith(ctx context.Context, id int64, mods []qm.QueryMod) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := models.Jobs(mods...).UpdateAll(ctx, s.db, models.M{"state": "done"}) // want `jobQuery.UpdateAll \(UPDATE jobs\) writes to SQL database while .* and fencelint could not see its WHERE clause`
	return err
}

// Reset writes raw SQL without a fence.
func (s *Store) Reset(ctx context.Context, id int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := queries.Raw("UPDATE jobs SET state = 'new' WHERE id = $1", id).Exec(s.db) // want `queries.Raw \(UPDATE jobs\) writes to SQL database without a fencing token`
	return err
}

// ResetFenced writes raw SQL with the fence in its WHERE clause.
func (s *Store) ResetFenced(ctx context.Context, id, tok int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	res, err := queries.Raw("UPDATE jobs SET state = 'new', fence = $2 WHERE id = $1 AND fence < $2", id, tok).Exec(s.db)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Pending reads: no write.
func (s *Store) Pending(ctx context.Context, id int64) ([]*models.Job, error) {
	if err := s.lock(ctx, id); err != nil {
		return nil, err
	}
	var n struct{ Count int }
	if err := queries.Raw("SELECT count(*) FROM jobs WHERE state = 'new'").Bind(ctx, s.db, &n); err != nil {
		return nil, err
	}
	return models.Jobs(qm.Where("state = ?", "new"), qm.OrderBy("id")).All(ctx, s.db)
}

// Drop deletes the job row by its primary key through the generated
// Delete: unfenced.
func (s *Store) Drop(ctx context.Context, job *models.Job) error {
	if err := s.lock(ctx, job.ID); err != nil {
		return err
	}
	_, err := job.Delete(ctx, s.db) // want `Job.Delete \(ContextExecutor.ExecContext \(DELETE jobs\).*writes to SQL database without a fencing token`
	return err
}

// Settle takes a transaction-scoped lock on tx and writes through tx: the
// writes commit with the lock or not at all.
func (s *Store) Settle(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	if _, err := models.Jobs(qm.Where("id = ?", id)).UpdateAll(ctx, tx, models.M{"state": "settled"}); err != nil {
		return err
	}
	_, err := queries.Raw("UPDATE jobs SET state = 'settled' WHERE id = $1", id).Exec(tx)
	return err
}

// SettleElsewhere takes the transaction-scoped lock on tx but writes
// through the pool, outside the transaction that holds it.
func (s *Store) SettleElsewhere(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	_, err := queries.Raw("UPDATE jobs SET state = 'settled' WHERE id = $1", id).Exec(s.db) // want `queries.Raw \(UPDATE jobs\) writes to SQL database without a fencing token`
	return err
}

// Save writes the job back through the generated Update, which updates
// by primary key alone: unfenced.
func (s *Store) Save(ctx context.Context, job *models.Job) error {
	if err := s.lock(ctx, job.ID); err != nil {
		return err
	}
	_, err := job.Update(ctx, s.db, boil.Infer()) // want `Job.Update \(ContextExecutor.ExecContext \(UPDATE jobs\).*writes to SQL database without a fencing token`
	return err
}

// Retry adds a job row through the generated Insert: a stale holder adds
// a duplicate of the next holder's job.
func (s *Store) Retry(ctx context.Context, id int64) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	job := &models.Job{State: "new"}
	return job.Insert(ctx, s.db, boil.Infer()) // want `Job.Insert \(ContextExecutor.(Exec|QueryRow)Context \(INSERT jobs\).*still adds its rows`
}

// Prune deletes the jobs it was handed by their primary keys: unfenced.
func (s *Store) Prune(ctx context.Context, id int64, jobs models.JobSlice) error {
	if err := s.lock(ctx, id); err != nil {
		return err
	}
	_, err := jobs.DeleteAll(ctx, s.db) // want `JobSlice.DeleteAll \(ContextExecutor.ExecContext \(DELETE jobs\).*writes to SQL database without a fencing token`
	return err
}

// Package bunstore writes through bun under a PostgreSQL advisory lock:
// NewUpdate/NewInsert/NewDelete chains are read as the SQL bun sends.
package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"
)

var errStale = errors.New("stale fence")

type Job struct {
	bun.BaseModel `bun:"table:jobs,alias:j"`

	ID    int64 `bun:",pk"`
	State string
	Fence int64
}

// Checkpoint has bun's default table name, checkpoints.
type Checkpoint struct {
	JobID int64 `bun:",pk"`
	Step  int
}

type Store struct {
	db   *bun.DB
	conn bun.Conn
}

func (s *Store) lock(ctx context.Context, key int64) error {
	var ok bool
	if err := s.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", key).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	return nil
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

func (s *Store) Finish(ctx context.Context, job *Job, tok int64) error {
	if err := s.lock(ctx, job.ID); err != nil {
		return err
	}
	if _, err := s.db.NewUpdate().Model(job).Set("state = ?", "done").WherePK().Exec(ctx); err != nil { // want `UpdateQuery.Exec \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.db.NewUpdate().Model(job).WherePK().Exec(ctx); err != nil { // want `UpdateQuery.Exec \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	if err := checked(s.db.NewUpdate().Model(job).Set("state = ?", "done").Set("fence = ?", tok).
		WherePK().Where("fence < ?", tok).Exec(ctx)); err != nil {
		return err
	}
	// A fence ORed with another condition rejects nothing.
	if err := checked(s.db.NewUpdate().Table("jobs").Set("state = ?", "done").
		Where("fence < ?", tok).WhereOr("id = ?", job.ID).Exec(ctx)); err != nil { // want `UpdateQuery.Exec \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	_, err := s.db.NewUpdate().Model(job).Set("state = ?", "done").Where("id = ? AND fence <= ?", job.ID, tok).Exec(ctx) // want `UpdateQuery.Exec \(UPDATE jobs\) is fenced but its rows-affected count is never read`
	return err
}

func (s *Store) Record(ctx context.Context, cp *Checkpoint, tok int64) error {
	if err := s.lock(ctx, cp.JobID); err != nil {
		return err
	}
	if _, err := s.db.NewInsert().Model(cp).Exec(ctx); err != nil { // want `InsertQuery.Exec \(INSERT checkpoints\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.db.NewInsert().Model(cp).On("CONFLICT (job_id) DO UPDATE").Set("step = EXCLUDED.step").Exec(ctx); err != nil { // want `InsertQuery.Exec \(INSERT checkpoints\) writes to SQL database without a fencing token`
		return err
	}
	// Insert-if-absent: a stale holder's copy changes nothing.
	if _, err := s.db.NewInsert().Model(cp).On("CONFLICT (job_id) DO NOTHING").Exec(ctx); err != nil {
		return err
	}
	_, err := s.db.NewInsert().Model(cp).Ignore().Exec(ctx)
	return err
}

func (s *Store) Drop(ctx context.Context, job *Job, tok int64) error {
	if err := s.lock(ctx, job.ID); err != nil {
		return err
	}
	if _, err := s.db.NewDelete().Model(job).WherePK().Exec(ctx); err != nil { // want `DeleteQuery.Exec \(DELETE jobs\) writes to SQL database without a fencing token`
		return err
	}
	if err := checked(s.db.NewDelete().Model(job).WherePK().Where("fence <= ?", tok).Exec(ctx)); err != nil {
		return err
	}
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'dropped' WHERE id = ?", job.ID); err != nil { // want `Tx.ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
			return err
		}
		return checked(tx.NewUpdate().Model(job).Set("state = ?", "dropped").WherePK().Where("fence < ?", tok).Exec(ctx))
	})
}

// Scoped adds conditions out of sight.
func (s *Store) Scoped(ctx context.Context, job *Job, where func(*bun.UpdateQuery) *bun.UpdateQuery) error {
	if err := s.lock(ctx, job.ID); err != nil {
		return err
	}
	return checked(s.db.NewUpdate().Model(job).Set("state = ?", "done").Apply(where).Exec(ctx)) // want `UpdateQuery.Exec \(UPDATE jobs\) writes to SQL database while .* could not see its WHERE clause`
}

// Run is soft-deleted: bun sends a delete of it as UPDATE runs SET
// deleted_at = <now> WHERE ... AND deleted_at IS NULL, unless forced.
type Run struct {
	bun.BaseModel `bun:"table:runs"`

	ID         int64 `bun:",pk"`
	FinishedAt time.Time
	Fence      int64
	DeletedAt  time.Time `bun:",soft_delete,nullzero"`
}

// Artifact names its stamp column.
type Artifact struct {
	ID      int64     `bun:",pk"`
	Removed time.Time `bun:"removed_at,soft_delete"`
}

func (s *Store) Purge(ctx context.Context, run *Run, cutoff time.Time, tok int64) error {
	if err := s.lock(ctx, run.ID); err != nil {
		return err
	}
	// A soft delete by age: stamping what has expired twice stamps it once.
	if _, err := s.db.NewDelete().Model((*Run)(nil)).Where("finished_at < ?", cutoff).Exec(ctx); err != nil {
		return err
	}
	if _, err := s.db.NewDelete().Model((*Artifact)(nil)).Where("created_at < ?", cutoff).Exec(ctx); err != nil {
		return err
	}
	// Forced, it is a real DELETE by age: idempotent too.
	if _, err := s.db.NewDelete().Model((*Run)(nil)).Where("finished_at < ?", cutoff).ForceDelete().Exec(ctx); err != nil {
		return err
	}
	if _, err := s.db.NewDelete().Model((*Run)(nil)).Where("finished_at < now() - interval '7 days'").Exec(ctx); err != nil {
		return err
	}
	// Over stamped rows too, it restamps them.
	if _, err := s.db.NewDelete().Model((*Run)(nil)).Where("finished_at < now() - interval '7 days'").WhereAllWithDeleted().Exec(ctx); err != nil { // want `DeleteQuery.Exec \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	// By key, soft or forced, it is not idempotent.
	if _, err := s.db.NewDelete().Model(run).WherePK().Exec(ctx); err != nil { // want `DeleteQuery.Exec \(UPDATE runs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.db.NewDelete().Model(run).WherePK().ForceDelete().Exec(ctx); err != nil { // want `DeleteQuery.Exec \(DELETE runs\) writes to SQL database without a fencing token`
		return err
	}
	// Table alone names no model: a real DELETE.
	if _, err := s.db.NewDelete().Table("runs").Where("id = ?", run.ID).Exec(ctx); err != nil { // want `DeleteQuery.Exec \(DELETE runs\) writes to SQL database without a fencing token`
		return err
	}
	// A fenced soft delete.
	return checked(s.db.NewDelete().Model(run).WherePK().Where("fence < ?", tok).Exec(ctx))
}

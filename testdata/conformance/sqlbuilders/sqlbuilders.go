// Package sqlbuilders writes through the real squirrel and sqlx under a
// PostgreSQL advisory lock, and through SQL the application assembles at run
// time and sends through a helper of its own.
package sqlbuilders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	sq "github.com/Masterminds/squirrel"
	"github.com/jmoiron/sqlx"
)

var errStale = errors.New("stale fence")

// Run is one job run.
type Run struct {
	ID    int64  `db:"id"`
	State string `db:"state"`
	Fence int64  `db:"fence"`
}

// Runner marks runs done while it holds the job's advisory lock.
type Runner struct {
	db   *sqlx.DB
	conn *sql.Conn
}

// lock takes the job's lock with the key formatted into the text.
func (r *Runner) lock(ctx context.Context, job int64) error {
	var ok bool
	if err := r.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock("+strconv.FormatInt(job, 10)+")").Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	return nil
}

// exec is the application's own helper: every statement goes through it.
func (r *Runner) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return r.db.ExecContext(ctx, q, args...)
}

// Squirrel marks the run done with squirrel: unfenced, then fenced.
func (r *Runner) Squirrel(ctx context.Context, run Run) error {
	if err := r.lock(ctx, run.ID); err != nil {
		return err
	}
	if _, err := sq.Update("runs").Set("state", "done").Where(sq.Eq{"id": run.ID}).RunWith(r.db).ExecContext(ctx); err != nil { // want unfencedwrite:"UpdateBuilder.ExecContext \\(UPDATE runs\\) writes to SQL database without a fencing token"
		return err
	}
	res, err := sq.Update("runs").Set("state", "done").Set("fence", run.Fence).
		Where(sq.Eq{"id": run.ID}).Where(sq.LtOrEq{"fence": run.Fence}).
		PlaceholderFormat(sq.Dollar).RunWith(r.db).ExecContext(ctx)
	return checked(res, err)
}

// Sqlx marks the run done with sqlx's named statements.
func (r *Runner) Sqlx(ctx context.Context, run Run) error {
	if err := r.lock(ctx, run.ID); err != nil {
		return err
	}
	if _, err := r.db.NamedExecContext(ctx, `UPDATE runs SET state = :state WHERE id = :id`, run); err != nil { // want unfencedwrite:"NamedExecContext \\(UPDATE runs\\) writes to SQL database without a fencing token"
		return err
	}
	q, args, err := r.db.BindNamed(`UPDATE runs SET state = :state, fence = :fence WHERE id = :id AND fence < :fence`, run)
	if err != nil {
		return err
	}
	return checked(r.db.ExecContext(ctx, q, args...))
}

// SquirrelReturning records a run's step with an INSERT ... RETURNING sent
// by QueryRowContext: a write like Exec's. Creating the step only if it is
// not there is idempotent.
func (r *Runner) SquirrelReturning(ctx context.Context, run Run) (int64, error) {
	if err := r.lock(ctx, run.ID); err != nil {
		return 0, err
	}
	var id int64
	if err := sq.Insert("steps").Columns("run_id", "name").Values(run.ID, "build").
		Suffix("RETURNING id").PlaceholderFormat(sq.Dollar).RunWith(r.db).QueryRowContext(ctx).Scan(&id); err != nil { // want unfencedwrite:"InsertBuilder.QueryRowContext \\(INSERT steps\\) writes to SQL database without a fencing token"
		return 0, err
	}
	err := sq.Insert("steps").Columns("run_id", "name").Values(run.ID, "test").
		Suffix("ON CONFLICT DO NOTHING RETURNING id").PlaceholderFormat(sq.Dollar).RunWith(r.db).QueryRowContext(ctx).Scan(&id)
	return id, err
}

// Sprintf marks the run done with SQL assembled around constant fragments
// and sent through the helper.
func (r *Runner) Sprintf(ctx context.Context, table string, run Run) error {
	if err := r.lock(ctx, run.ID); err != nil {
		return err
	}
	if _, err := r.exec(ctx, fmt.Sprintf("UPDATE %s SET state = 'done' WHERE id = $1", table), run.ID); err != nil { // want unfencedwrite:"Runner.exec \\(UPDATE <run-time name>\\) writes to SQL database without a fencing token"
		return err
	}
	return checked(r.exec(ctx, fmt.Sprintf("UPDATE %s SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", table), run.ID, run.Fence))
}

// checked turns a write that changed nothing into errStale.
func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStale
	}
	return nil
}

// Package transitions holds a worker that moves volumes and jobs through
// their states under a PostgreSQL advisory lock (Concourse's volumes and
// containers). An UPDATE that sets a state only where the row is in the
// states it moves from, with the rows checked, is a compare-and-set on the
// row's state: once another holder moved the row on, a stale holder's
// transition matches nothing.
package transitions

import (
	"context"
	"database/sql"
	"errors"

	sq "github.com/Masterminds/squirrel"
)

var errTransition = errors.New("state transition failed")

type VolumeState string

const (
	VolumeCreating VolumeState = "creating"
	VolumeCreated  VolumeState = "created"
	VolumeFailed   VolumeState = "failed"
)

// volumeTransition moves a volume from one state to another, as Concourse
// writes it: the target state is allowed too, so a second creator's
// transition is a no-op.
func volumeTransition(db *sql.DB, id int, from, to VolumeState) error {
	res, err := sq.Update("volumes").
		Set("state", string(to)).
		Where(sq.And{
			sq.Eq{"id": id},
			sq.Or{sq.Eq{"state": string(from)}, sq.Eq{"state": string(to)}},
		}).
		PlaceholderFormat(sq.Dollar).
		RunWith(db).
		Exec()
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return errTransition
	}
	return nil
}

type Worker struct {
	db *sql.DB
}

func (w *Worker) lock(ctx context.Context, key int64) error {
	var ok bool
	if err := w.db.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil || !ok {
		return errors.New("not acquired")
	}
	return nil
}

// CreateVolume marks the volume created and its container running, each
// only from the state it was in.
func (w *Worker) CreateVolume(ctx context.Context, id int) error {
	if err := w.lock(ctx, 1); err != nil {
		return err
	}
	if err := volumeTransition(w.db, id, VolumeCreating, VolumeCreated); err != nil {
		return err
	}
	res, err := w.db.ExecContext(ctx, "UPDATE containers SET state = 'created' WHERE id = $1 AND state IN ('creating', 'created')", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errTransition
	}
	res, err = w.db.ExecContext(ctx, "UPDATE jobs SET state = $2, worker = $3 WHERE id = $1 AND state = $4", id, "running", "w1", "pending")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errTransition
	}
	return nil
}

// Near misses: no state condition, a re-claim that overwrites the owner of
// a row already in the target state, an open-ended condition and a
// condition on a column that is not set. A transition whose result is not
// read is safe by itself (a holder that lost matches nothing), but it
// fences nothing after it.
func (w *Worker) Reclaim(ctx context.Context, id int, owner string) error {
	if err := w.lock(ctx, 1); err != nil {
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE containers SET state = 'created' WHERE id = $1", id); err != nil { // want `ExecContext \(UPDATE containers\) writes to SQL database without a fencing token`
		return err
	}
	res, err := w.db.ExecContext(ctx, "UPDATE jobs SET state = 'running', worker = $2 WHERE id = $1 AND state IN ('pending', 'running')", id, owner) // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	if _, err := res.RowsAffected(); err != nil {
		return err
	}
	res, err = w.db.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = $1 AND state <> 'done'", id) // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	if _, err := res.RowsAffected(); err != nil {
		return err
	}
	res, err = w.db.ExecContext(ctx, "UPDATE jobs SET result = $2 WHERE id = $1 AND state = 'running'", id, owner) // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	if _, err := res.RowsAffected(); err != nil {
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE containers SET state = 'failed' WHERE id = $1 AND state = 'creating'", id); err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx, "INSERT INTO container_events (container_id, state) VALUES ($1, 'failed')", id) // want `ExecContext \(INSERT container_events\) writes to SQL database without a fencing token`
	return err
}

// FailContainer records the failure only after its transition won: the
// event is appended once, by the holder whose transition matched.
func (w *Worker) FailContainer(ctx context.Context, id int) error {
	if err := w.lock(ctx, 1); err != nil {
		return err
	}
	res, err := w.db.ExecContext(ctx, "UPDATE containers SET state = 'failed' WHERE id = $1 AND state = 'creating'", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errTransition
	}
	_, err = w.db.ExecContext(ctx, "INSERT INTO container_events (container_id, state) VALUES ($1, 'failed')", id)
	return err
}

// SendApproved moves every approved payout: also the ones approved after a
// stale holder looked, which it never checked.
func (w *Worker) SendApproved(ctx context.Context) error {
	if err := w.lock(ctx, 2); err != nil {
		return err
	}
	res, err := w.db.ExecContext(ctx, "UPDATE payouts SET state = 'sent' WHERE state = 'approved'") // want `ExecContext \(UPDATE payouts\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

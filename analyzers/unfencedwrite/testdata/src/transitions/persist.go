package transitions

import (
	"context"
	"time"
)

type ServiceStatus string

const (
	StatusPendingDelete ServiceStatus = "PENDING_DELETE"
	StatusAvailable     ServiceStatus = "AVAILABLE"
)

type Service struct {
	ID     string
	Status ServiceStatus
	Note   string
}

// Persist is a reconciler's final transaction (the F5 agent's, archer):
// after the I/O of its run it moves each service from the state it read,
// and deletes the ones marked for deletion, without reading the counts: a
// row the API or another holder moved meanwhile matches nothing, which
// needs no action.
func (w *Worker) Persist(ctx context.Context, services []*Service) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range services {
		if s.Status == StatusPendingDelete {
			if _, err := tx.ExecContext(ctx, "DELETE FROM service WHERE id = $1 AND status = 'PENDING_DELETE'", s.ID); err != nil {
				return err
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE service SET status = 'AVAILABLE', updated_at = NOW() WHERE id = $1 AND status = $2", s.ID, s.Status); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE service SET status = $3, updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND status = $2", s.ID, s.Status, StatusAvailable); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM service WHERE status = $2 AND id = $1", s.ID, StatusPendingDelete); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// PersistStale writes what the holder decided before its pause: near
// misses of Persist's writes.
func (w *Worker) PersistStale(ctx context.Context, s *Service, status ServiceStatus, at time.Time) error {
	if err := w.lock(ctx, 3); err != nil {
		return err
	}
	// No state pinned: the decision lands on whatever the row became.
	if _, err := w.db.ExecContext(ctx, "UPDATE service SET status = 'ERROR_QUOTA', updated_at = NOW() WHERE id = $1 AND status <> 'PENDING_DELETE'", s.ID); err != nil { // want `ExecContext \(UPDATE service\) writes to SQL database without a fencing token`
		return err
	}
	// The row read may already be AVAILABLE: the note lands on it.
	if _, err := w.db.ExecContext(ctx, "UPDATE service SET status = 'AVAILABLE', note = $3 WHERE id = $1 AND status = $2", s.ID, s.Status, s.Note); err != nil { // want `ExecContext \(UPDATE service\) writes to SQL database without a fencing token`
		return err
	}
	// A time of the holder's clock, not the store's.
	if _, err := w.db.ExecContext(ctx, "UPDATE service SET status = 'AVAILABLE', updated_at = $3 WHERE id = $1 AND status = $2", s.ID, s.Status, at); err != nil { // want `ExecContext \(UPDATE service\) writes to SQL database without a fencing token`
		return err
	}
	// The state set is the holder's decision, not a constant.
	if _, err := w.db.ExecContext(ctx, "UPDATE service SET status = $3, updated_at = NOW() WHERE id = $1 AND status = $2", s.ID, s.Status, status); err != nil { // want `ExecContext \(UPDATE service\) writes to SQL database without a fencing token`
		return err
	}
	// Every row in the state: also those that entered it after the holder looked.
	if _, err := w.db.ExecContext(ctx, "UPDATE service SET status = 'AVAILABLE', updated_at = NOW() WHERE status = $1", s.Status); err != nil { // want `ExecContext \(UPDATE service\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "DELETE FROM service WHERE status = 'PENDING_DELETE'"); err != nil { // want `ExecContext \(DELETE service\) writes to SQL database without a fencing token`
		return err
	}
	// A state the holder holds, not a constant one: a delete of whatever it read.
	if _, err := w.db.ExecContext(ctx, "DELETE FROM service WHERE id = $1 AND status = $2", s.ID, s.Status); err != nil { // want `ExecContext \(DELETE service\) writes to SQL database without a fencing token`
		return err
	}
	// A live state or a category is the holder's own judgement, not a row
	// every holder deletes.
	if _, err := w.db.ExecContext(ctx, "DELETE FROM service WHERE id = $1 AND status = 'ACTIVE'", s.ID); err != nil { // want `ExecContext \(DELETE service\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "DELETE FROM service WHERE id = $1 AND kind = 'loadbalancer'", s.ID); err != nil { // want `ExecContext \(DELETE service\) writes to SQL database without a fencing token`
		return err
	}
	_, err := w.db.ExecContext(ctx, "DELETE FROM service WHERE id = $1 AND status = 'PENDING_DELETE' AND owner = 'agent-1' OR id = $1", s.ID) // want `ExecContext \(DELETE service\) writes to SQL database without a fencing token`
	return err
}

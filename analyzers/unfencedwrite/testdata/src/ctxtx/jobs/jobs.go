// Package jobs runs each job under a transaction-scoped advisory lock
// taken on the transaction its context carries.
package jobs

import (
	"context"
	"time"

	"ctxtx/db"
)

type Locks struct{ db db.Client }

// TryJob takes the job's lock for as long as the context's transaction.
func (l *Locks) TryJob(ctx context.Context, name string) (bool, error) {
	var ok bool
	err := l.db.Querier(ctx).QueryRowContext(ctx, "SELECT pg_try_advisory_xact_lock(hashtext($1))", name).Scan(&ok)
	return ok, err
}

// LockSession takes a session-level lock through the querier. Without a
// transaction in the context that is whichever pooled connection runs it,
// while the writes go to others: the context stands for no session here.
func (l *Locks) LockSession(ctx context.Context, name string) error {
	_, err := l.db.Querier(ctx).ExecContext(ctx, "SELECT pg_advisory_lock(hashtext($1))", name)
	return err
}

type Runs struct{ db db.Client }

// Note appends a note to the run inside a savepoint, so that a failed
// insert leaves the caller's transaction usable: it still runs on the
// transaction the context carries.
func (r *Runs) Note(ctx context.Context, id, text string) error {
	return r.db.WithSavepoint(ctx, "note", func(ctx context.Context) error {
		_, err := r.db.Querier(ctx).ExecContext(ctx, "UPDATE runs SET note = $2 WHERE id = $1", id, text)
		return err
	})
}

// NoteDetached writes from a callback handed a context of its own.
func (r *Runs) NoteDetached(ctx context.Context, id, text string) error {
	return r.db.Detached(ctx, func(ctx context.Context) error {
		_, err := r.db.Querier(ctx).ExecContext(ctx, "UPDATE runs SET note = $2 WHERE id = $1", id, text)
		return err
	})
}

// Claim marks the run claimed through the context's session.
func (r *Runs) Claim(ctx context.Context, id string) error {
	_, err := r.db.Querier(ctx).ExecContext(ctx, "UPDATE runs SET claimed = true WHERE id = $1", id)
	return err
}

// Touch writes through the pool whatever the context carries.
func (r *Runs) Touch(ctx context.Context, id string) error {
	_, err := r.db.DB.ExecContext(ctx, "UPDATE runs SET touched_at = now() WHERE id = $1", id)
	return err
}

// Locker and RunStore are the stores as the service sees them; main wires
// *Locks and *Runs in.
type Locker interface {
	TryJob(ctx context.Context, name string) (bool, error)
	LockSession(ctx context.Context, name string) error
}

type RunStore interface {
	Claim(ctx context.Context, id string) error
	Touch(ctx context.Context, id string) error
	Note(ctx context.Context, id, text string) error
	NoteDetached(ctx context.Context, id, text string) error
}

type Service struct {
	db    db.Client
	locks Locker
	runs  RunStore
}

// Advance claims the run in the transaction that holds the job's lock: if
// the session dies, the lock goes with it and so does the claim.
func (s *Service) Advance(ctx context.Context, id string) error {
	return s.db.WithTx(ctx, func(ctx context.Context) error {
		ok, err := s.locks.TryJob(ctx, "advance")
		if err != nil || !ok {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if err := s.runs.Claim(ctx, id); err != nil {
			return err
		}
		if err := s.runs.Note(ctx, id, "advanced"); err != nil {
			return err
		}
		if err := s.runs.NoteDetached(ctx, id, "advanced"); err != nil { // want `RunStore.NoteDetached \(Querier.ExecContext \(UPDATE runs\) at jobs.go:\d+, via \*jobs.Runs.NoteDetached\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Locker.TryJob`
			return err
		}
		if err := s.runs.Touch(ctx, id); err != nil { // want `RunStore.Touch \(DB.ExecContext \(UPDATE runs\) at jobs.go:\d+, via \*jobs.Runs.Touch\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Locker.TryJob`
			return err
		}
		return s.runs.Claim(context.Background(), id) // want `RunStore.Claim \(Querier.ExecContext \(UPDATE runs\) at jobs.go:\d+, via \*jobs.Runs.Claim\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Locker.TryJob`
	})
}

// Sweep holds a session-level lock taken through the querier: the claim
// through the same context is not fenced by it.
func (s *Service) Sweep(ctx context.Context, id string) error {
	if err := s.locks.LockSession(ctx, "sweep"); err != nil {
		return err
	}
	return s.runs.Claim(ctx, id) // want `RunStore.Claim \(Querier.ExecContext \(UPDATE runs\) at jobs.go:\d+, via \*jobs.Runs.Claim\) writes to SQL database without a fencing token while the PostgreSQL lock taken by Locker.LockSession`
}

// Package optimistic holds a merge queue that edits its entries under a
// redsync lock through a store that writes each row only over the version
// its caller read (Harness's merge queue): UPDATE ... SET version =
// :version WHERE ... AND version = :version - 1, with the rows checked. A
// holder paused past the lock's expiry reaches the row with the version it
// read before the pause; once another holder wrote, that version matches
// no row and the write fails, so it clobbers nothing.
package optimistic

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-redsync/redsync/v4"
	"github.com/jmoiron/sqlx"
)

var errVersionConflict = errors.New("version conflict")

type Entry struct {
	PullReqID int64
	Version   int64
	State     string
}

type entryRow struct {
	PullReqID int64  `db:"entry_pullreq_id"`
	Version   int64  `db:"entry_version"`
	State     string `db:"entry_state"`
}

func mapInternal(e *Entry) *entryRow {
	return &entryRow{PullReqID: e.PullReqID, Version: e.Version, State: e.State}
}

type Store struct {
	db *sqlx.DB
}

// Find reads an entry.
func (s *Store) Find(ctx context.Context, id int64) (*Entry, error) {
	var e Entry
	err := s.db.GetContext(ctx, &e, "SELECT entry_pullreq_id, entry_version, entry_state FROM entries WHERE entry_pullreq_id = $1", id)
	return &e, err
}

// Update writes the entry over the version its caller read.
func (s *Store) Update(ctx context.Context, e *Entry) error {
	const q = `UPDATE entries SET entry_version = :entry_version, entry_state = :entry_state
	WHERE entry_pullreq_id = :entry_pullreq_id AND entry_version = :entry_version - 1`
	row := mapInternal(e)
	row.Version++
	query, args, err := s.db.BindNamed(q, row)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errVersionConflict
	}
	e.Version = row.Version
	return nil
}

// UpdateOptLock applies mutate to the entry and writes it, reading the
// entry again and re-applying mutate when another writer got there first.
func (s *Store) UpdateOptLock(ctx context.Context, e *Entry, mutate func(*Entry)) (*Entry, error) {
	for {
		dup := *e
		mutate(&dup)
		err := s.Update(ctx, &dup)
		if err == nil {
			return &dup, nil
		}
		if !errors.Is(err, errVersionConflict) {
			return nil, err
		}
		if e, err = s.Find(ctx, e.PullReqID); err != nil {
			return nil, err
		}
	}
}

// SetState writes through sqlx's NamedExec with the version passed in.
func (s *Store) SetState(ctx context.Context, e Entry) error {
	res, err := s.db.NamedExecContext(ctx, `UPDATE entries SET entry_state = :entry_state, entry_version = entry_version + 1
	WHERE entry_pullreq_id = :entry_pullreq_id AND entry_version = :entry_version`, mapInternal(&e))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errVersionConflict
	}
	return nil
}

// UpdateBlind compares the version but never learns that the update
// matched nothing: the holder goes on as if it wrote.
func (s *Store) UpdateBlind(ctx context.Context, e *Entry) error {
	const q = `UPDATE entries SET entry_version = :entry_version, entry_state = :entry_state
	WHERE entry_pullreq_id = :entry_pullreq_id AND entry_version = :entry_version - 1`
	row := mapInternal(e)
	row.Version++
	query, args, err := s.db.BindNamed(q, row)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, query, args...)
	return err
}

// UpdateSameVersion passes the version in but writes it back unchanged:
// the next writer's check still matches, so a stale holder overwrites it.
func (s *Store) UpdateSameVersion(ctx context.Context, e *Entry) error {
	query, args, err := s.db.BindNamed(`UPDATE entries SET entry_version = :entry_version, entry_state = :entry_state
	WHERE entry_pullreq_id = :entry_pullreq_id AND entry_version = :entry_version`, mapInternal(e))
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// Queue processes the merge queue under one redsync mutex.
type Queue struct {
	rs    *redsync.Redsync
	store *Store
}

func (q *Queue) lock(ctx context.Context) (*redsync.Mutex, error) {
	m := q.rs.NewMutex("merge-queue")
	return m, m.LockContext(ctx)
}

// Advance moves the head entry on: every write is version-checked.
func (q *Queue) Advance(ctx context.Context, id int64) error {
	m, err := q.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	e, err := q.store.Find(ctx, id)
	if err != nil {
		return err
	}
	e.State = "checks"
	if err := q.store.Update(ctx, e); err != nil {
		return err
	}
	if _, err := q.store.UpdateOptLock(ctx, e, func(e *Entry) { e.State = "merging" }); err != nil {
		return err
	}
	return q.store.SetState(ctx, *e)
}

// AdvanceBlind writes through the unchecked and the unmoved versions.
func (q *Queue) AdvanceBlind(ctx context.Context, id int64) error {
	m, err := q.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	e, err := q.store.Find(ctx, id)
	if err != nil {
		return err
	}
	if err := q.store.UpdateBlind(ctx, e); err != nil { // want `Store.UpdateBlind \(DB.ExecContext \(UPDATE entries\) at optimistic.go:\d+\) writes to SQL database without a fencing token`
		return err
	}
	return q.store.UpdateSameVersion(ctx, e) // want `Store.UpdateSameVersion \(DB.ExecContext \(UPDATE entries\) at optimistic.go:\d+\) writes to SQL database without a fencing token`
}

var _ = sql.ErrNoRows

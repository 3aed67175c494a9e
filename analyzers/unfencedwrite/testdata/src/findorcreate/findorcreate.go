// Package findorcreate is reduced from Harness's merge queue: under a
// redsync lock, a row is created with a plain INSERT whose unique-key
// conflict the caller handles (another creator won: read its row). The
// INSERT creates the one row with that key or fails, as INSERT ... ON
// CONFLICT DO NOTHING does, so a stale holder adds no second row and
// overwrites nothing. Writes whose conflict nobody expects stay reported.
package findorcreate

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-redsync/redsync/v4"
)

var (
	ErrDuplicate = errors.New("duplicate")
	ErrNotFound  = errors.New("not found")
)

// driverError stands for a driver's error type (pgconn.PgError, pq.Error).
type driverError struct {
	Code    string
	Message string
}

func (e *driverError) Error() string { return e.Message }

type Store struct {
	db *sql.DB
}

// Create inserts a queue row; the table's unique key is (repo_id, branch).
func (s *Store) Create(ctx context.Context, repoID int64, branch string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch) VALUES ($1, $2)`, repoID, branch)
	return err
}

// Save upserts the queue row: a stale holder's copy overwrites the row.
func (s *Store) Save(ctx context.Context, repoID int64, branch string, seq int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch, seq) VALUES ($1, $2, $3) ON CONFLICT (repo_id, branch) DO UPDATE SET seq = EXCLUDED.seq`, repoID, branch, seq)
	return err
}

func (s *Store) find(ctx context.Context, repoID int64, branch string) error {
	return s.db.QueryRowContext(ctx, `SELECT id FROM merge_queues WHERE repo_id = $1 AND branch = $2`, repoID, branch).Err()
}

func isUniqueViolation(err error) bool {
	var de *driverError
	return errors.As(err, &de) && de.Code == "23505"
}

type Service struct {
	rs    *redsync.Redsync
	store *Store
	db    *sql.DB
}

func (s *Service) lock(ctx context.Context, branch string) (*redsync.Mutex, error) {
	m := s.rs.NewMutex("branch:" + branch)
	return m, m.LockContext(ctx)
}

// findOrCreate re-reads the row another creator made.
func (s *Service) findOrCreate(ctx context.Context, repoID int64, branch string) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	err = s.store.Create(ctx, repoID, branch)
	if errors.Is(err, ErrDuplicate) {
		return s.store.find(ctx, repoID, branch)
	}
	return err
}

// createOnce tests the driver's error with a predicate of its own.
func (s *Service) createOnce(ctx context.Context, repoID int64, branch string) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	_, err = s.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch) VALUES ($1, $2)`, repoID, branch)
	if isUniqueViolation(err) {
		return nil
	}
	return err
}

// createAsserted reads the SQLSTATE of the driver's error itself.
func (s *Service) createAsserted(ctx context.Context, repoID int64, branch string) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	_, err = s.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch) VALUES ($1, $2)`, repoID, branch)
	if de, ok := err.(*driverError); ok && de.Code == "23505" {
		return nil
	}
	return err
}

// createBlind expects no conflict: nothing says a second row is refused.
func (s *Service) createBlind(ctx context.Context, repoID int64, branch string) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return s.store.Create(ctx, repoID, branch) // want `Store.Create \(DB.ExecContext \(INSERT merge_queues\) at findorcreate.go:\d+\) writes to SQL database without a fencing token`
}

// saveOrFind handles a conflict of an upsert, which overwrites the row.
func (s *Service) saveOrFind(ctx context.Context, repoID int64, branch string, seq int64) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	err = s.store.Save(ctx, repoID, branch, seq) // want `Store.Save \(DB.ExecContext \(INSERT merge_queues\) at findorcreate.go:\d+\) writes to SQL database without a fencing token`
	if errors.Is(err, ErrDuplicate) {
		return s.store.find(ctx, repoID, branch)
	}
	return err
}

// createMissing tests for another error: a foreign-key violation, or a
// missing row, says nothing about a unique key.
func (s *Service) createMissing(ctx context.Context, repoID int64, branch string) error {
	m, err := s.lock(ctx, branch)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	_, err = s.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch) VALUES ($1, $2)`, repoID, branch) // want `DB.ExecContext \(INSERT merge_queues\) writes to SQL database without a fencing token`
	if de, ok := err.(*driverError); ok && de.Code == "23503" {
		return nil
	}
	err = s.store.Create(ctx, repoID, branch) // want `Store.Create \(DB.ExecContext \(INSERT merge_queues\) at findorcreate.go:\d+\) writes to SQL database without a fencing token`
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

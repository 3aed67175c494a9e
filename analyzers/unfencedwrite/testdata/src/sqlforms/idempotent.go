package sqlforms

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Writes that need no fencing token by unfencedwrite's documented rules,
// each with an unsafe twin.

// createRun inserts only if the run is not there yet: a stale holder's
// copy changes nothing.
func (s *Store) createRun(ctx context.Context, job int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO runs (id, state) VALUES ($1, 'new') ON CONFLICT (id) DO NOTHING", job); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO runs (id, state) VALUES ($1, 'new') ON CONFLICT (id) DO UPDATE SET state = 'new'", job) // want `ExecContext \(INSERT runs\) writes to SQL database without a fencing token`
	return err
}

// createRunIfAbsent inserts unless a run with the same key exists.
func (s *Store) createRunIfAbsent(ctx context.Context, job int64, owner string) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO runs (id, owner) SELECT $1, $2
		WHERE NOT EXISTS (SELECT 1 FROM runs WHERE id = $1)`, job, owner); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO runs (id, owner) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM runs WHERE state = 'running')`, job, owner) // want `ExecContext \(INSERT runs\) writes to SQL database without a fencing token`
	return err
}

// renameOptimistic reads the version under the lock and writes only if
// nobody changed the row since: a compare-and-set.
func (s *Store) renameOptimistic(ctx context.Context, job int64, name string) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	var version int64
	if err := s.db.QueryRowContext(ctx, "SELECT version FROM runs WHERE id = $1", job).Scan(&version); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, "UPDATE runs SET name = $3, version = version + 1 WHERE id = $1 AND version = $2", job, version, name)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

// renameOptimisticUnchecked compares the version but never learns that the
// update matched nothing.
func (s *Store) renameOptimisticUnchecked(ctx context.Context, job int64, name string) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	var version int64
	if err := s.db.QueryRowContext(ctx, "SELECT version FROM runs WHERE id = $1", job).Scan(&version); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "UPDATE runs SET name = $3, version = version + 1 WHERE id = $1 AND version = $2", job, version, name) // want `ExecContext \(UPDATE runs\) is fenced but its rows-affected count is never read`
	return err
}

// renameWithCallersVersion compares the version its caller read: however
// long before, once another holder wrote the row that version matches
// nothing, so a stale holder's write fails.
func (s *Store) renameWithCallersVersion(ctx context.Context, job, version int64, name string) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, "UPDATE runs SET name = $3, version = version + 1 WHERE id = $1 AND version = $2", job, version, name)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// renameWithCachedVersion compares a version kept in the holder's memory,
// which no read in sight vouches for.
func (s *Store) renameWithCachedVersion(ctx context.Context, job int64, name string) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, "UPDATE runs SET name = $3, version = version + 1 WHERE id = $1 AND version = $2", job, s.lastVersion, name) // want `ExecContext \(UPDATE runs\) writes to SQL database without a fencing token`
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// purgeExpired deletes rows selected only by age, or by age among the
// rows a key pins: what expired stays expired, so a stale holder's delete
// removes nothing the next holder kept. A range of other values is the
// holder's own choice of rows, not their age.
func (s *Store) purgeExpired(ctx context.Context, job int64, ttl time.Duration) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at < now()"); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, fmt.Sprintf("DELETE FROM events WHERE created_at < now() - interval '%d seconds'", int(ttl.Seconds()))); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM runs WHERE finished_at < $1", time.Now().Add(-ttl)); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM runs WHERE job_id = $1 AND finished_at IS NOT NULL AND finished_at < now()", job); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "DELETE FROM runs WHERE finished_at < now() AND attempts > $1", 3) // want `ExecContext \(DELETE runs\) writes to SQL database without a fencing token`
	return err
}

// purgeInBatches takes the rows to delete from a WITH query or a subquery,
// a batch at a time: by age, what expired stays expired; by owner or by a
// number, the next holder's rows go too.
func (s *Store) purgeInBatches(ctx context.Context, job int64, ttl time.Duration) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	cutoff := time.Now().Add(-ttl)
	if _, err := s.db.ExecContext(ctx, `WITH rows AS (SELECT id FROM sessions WHERE expires_at < $1 LIMIT 1000)
		DELETE FROM sessions WHERE (id) IN (SELECT id FROM rows)`, cutoff); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 1000)"); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `WITH rows AS (SELECT id FROM sessions WHERE owner = $1 LIMIT 1000) DELETE FROM sessions WHERE (id) IN (SELECT id FROM rows)`, "me"); err != nil { // want `ExecContext \(DELETE sessions\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := s.db.ExecContext(ctx, `WITH rows AS (SELECT id FROM sessions WHERE expires_at < $1 LIMIT 1000) DELETE FROM sessions WHERE (id) IN (SELECT id FROM rows)`, job); err != nil { // want `ExecContext \(DELETE sessions\) writes to SQL database without a fencing token`
		return err
	}
	_, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE id NOT IN (SELECT id FROM sessions WHERE expires_at < now())") // want `ExecContext \(DELETE sessions\) writes to SQL database without a fencing token`
	return err
}

// purgeWhere deletes the rows a condition of its caller's selects.
func (s *Store) purgeWhere(ctx context.Context, table, cond string, args ...any) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+cond, args...)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// purgeVia passes SQL conditions to purgeWhere: read with each call's
// condition.
func (s *Store) purgeVia(ctx context.Context, job int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if err := s.purgeWhere(ctx, "sessions", "expires_at < now() - interval '1 day'"); err != nil {
		return err
	}
	return s.purgeWhere(ctx, "sessions", "owner = $1", "me") // want `Store.purgeWhere \(DELETE sessions\) .*writes to SQL database without a fencing token`
}

var _ = sql.ErrNoRows

// enableInstrument turns on a MySQL performance_schema instrument under the
// lock (gh-ost's metadata lock check): server set-up, not guarded data. The
// application table of the same name is data.
func (s *Store) enableInstrument(ctx context.Context, job int64) error {
	if err := s.lock(ctx, job); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl'"); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "UPDATE app.setup_instruments SET enabled = 'YES' WHERE name = 'mdl'") // want `ExecContext \(UPDATE app.setup_instruments\) writes to SQL database without a fencing token`
	return err
}

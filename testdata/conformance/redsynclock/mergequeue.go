package redsynclock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/go-redsync/redsync/v4"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
)

// A merge queue in the style of Harness's: a redsync branch lock, a
// pull request store whose Update writes over the version its caller read
// and returns errVersionConflict when no row matched (a compare-and-set),
// writes that commit in the same transaction after it, and a queue row
// created once, its unique-key conflict handled.

var errVersionConflict = errors.New("version conflict")

type pullReq struct {
	ID       int64  `db:"pullreq_id"`
	SubState string `db:"pullreq_sub_state"`
	Version  int64  `db:"pullreq_version"`
}

type prStore struct {
	db *sqlx.DB
}

func wrapSQL(err error, msg string) error {
	return fmt.Errorf("%s: %w", msg, err)
}

func (s *prStore) update(ctx context.Context, pr *pullReq) error {
	pr.Version++
	query, args, err := s.db.BindNamed(`UPDATE pullreqs SET pullreq_sub_state = :pullreq_sub_state, pullreq_version = :pullreq_version
	WHERE pullreq_id = :pullreq_id AND pullreq_version = :pullreq_version - 1`, pr)
	if err != nil {
		return wrapSQL(err, "bind")
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return wrapSQL(err, "update pull request")
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrapSQL(err, "rows affected")
	}
	if n == 0 {
		return errVersionConflict
	}
	return nil
}

type mergeQueue struct {
	rs  *redsync.Redsync
	db  *sqlx.DB
	prs *prStore
}

func (q *mergeQueue) withTx(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) error {
	tx, err := q.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// disableAutoMerge deletes the auto-merge row in the transaction whose
// version-checked update must win: a holder paused past the lock's expiry
// loses the update, and its delete rolls back with it.
func (q *mergeQueue) disableAutoMerge(ctx context.Context, branch string, pr *pullReq) error {
	m := q.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return q.withTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		pr.SubState = ""
		if err := q.prs.update(ctx, pr); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM auto_merges WHERE pullreq_id = $1`, pr.ID)
		return err
	})
}

// dequeue logs a lost update and deletes anyway.
func (q *mergeQueue) dequeue(ctx context.Context, branch string, pr *pullReq) error {
	m := q.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	return q.withTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		if err := q.prs.update(ctx, pr); err != nil {
			fmt.Println("update:", err)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM merge_queue_entries WHERE pullreq_id = $1`, pr.ID) // want unfencedwrite:"without a fencing token"
		return err
	})
}

// findOrCreate creates the branch's queue row once: the table's unique key
// on (repo_id, branch) refuses a second one, and the conflict is handled.
func (q *mergeQueue) findOrCreate(ctx context.Context, repoID int64, branch string) (int64, error) {
	m := q.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return 0, err
	}
	defer m.UnlockContext(ctx)

	_, err := q.db.ExecContext(ctx, `INSERT INTO merge_queues (repo_id, branch) VALUES ($1, $2)`, repoID, branch)
	var pgErr *pgconn.PgError
	if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "23505") {
		return 0, err
	}
	var id int64
	err = q.db.GetContext(ctx, &id, `SELECT id FROM merge_queues WHERE repo_id = $1 AND branch = $2`, repoID, branch)
	return id, err
}

// addEntry inserts an entry with no conflict expected.
func (q *mergeQueue) addEntry(ctx context.Context, branch string, prID int64) error {
	m := q.rs.NewMutex("branch:" + branch)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)

	_, err := q.db.ExecContext(ctx, `INSERT INTO merge_queue_entries (pullreq_id, branch) VALUES ($1, $2)`, prID, branch) // want unfencedwrite:"without a fencing token"
	return err
}

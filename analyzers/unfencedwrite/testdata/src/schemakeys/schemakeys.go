// Package schemakeys is reduced from magicpool's chart rollups: a cron job
// under a redsync lock inserts each interval's row under its natural
// primary key first in a transaction, then adds to running totals. The
// schema comes from the migrations this package and its migrate
// dependency embed. A stale holder's duplicate INSERT fails on the key and
// its transaction rolls back, so neither it nor the relative add that
// commits with it is reported. Keys that do not stop a second row for the
// same thing (an auto-increment or random ID, the current time, a column
// the INSERT leaves out, a nullable or unreadable one) are still reported.
package schemakeys

import (
	"context"
	"database/sql"
	"embed"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"

	"schemakeys/migrate"
)

//go:embed sql/*.sql
var schema embed.FS

type Job struct {
	rs *redsync.Redsync
	db *sql.DB
}

func Open(db *sql.DB, rs *redsync.Redsync) (*Job, error) {
	if err := migrate.Apply(db); err != nil {
		return nil, err
	}
	return &Job{rs: rs, db: db}, nil
}

func (j *Job) lock(ctx context.Context) (*redsync.Mutex, error) {
	m := j.rs.NewMutex("cron:chart")
	return m, m.LockContext(ctx)
}

// withTx runs fn in a transaction, committed only if fn returns nil.
func (j *Job) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Rollup inserts the interval's row first, then adds to the totals in the
// same transaction: a duplicate rollup fails on (end_time, chain_id,
// period) and rolls both back.
func (j *Job) Rollup(ctx context.Context, chain string, period int, start, end time.Time, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return j.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO `rollups` (`chain_id`, `period`, `start_time`, `end_time`, `total`) VALUES (?, ?, ?, ?, ?)", chain, period, start, end, n); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO totals (chain_id, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = n + VALUES(n)`, chain, n)
		return err
	})
}

// AddTotal is the relative add alone: a stale holder adds twice.
func (j *Job) AddTotal(ctx context.Context, chain string, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO totals (chain_id, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = n + VALUES(n)`, chain, n) // want `without a fencing token`
	return err
}

// RollupWithoutPeriod leaves a key column to its default: the INSERT does
// not name the whole key, so it is not trusted to.
func (j *Job) RollupWithoutPeriod(ctx context.Context, chain string, start, end time.Time, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO rollups (chain_id, start_time, end_time, total) VALUES (?, ?, ?, ?)`, chain, start, end, n) // want `without a fencing token`
	return err
}

// Price inserts under the primary key (chain_id, ts) this package's own
// migrations give prices.
func (j *Job) Price(ctx context.Context, chain string, ts time.Time, usd float64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO prices (chain_id, ts, usd) VALUES (?, ?, ?)`, chain, ts, usd)
	return err
}

// PriceNow stamps the key with the current time: every holder's row is new.
func (j *Job) PriceNow(ctx context.Context, chain string, usd float64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO prices (chain_id, ts, usd) VALUES (?, ?, ?)`, chain, time.Now().UTC(), usd) // want `without a fencing token`
	return err
}

// PriceIgnored drops the INSERT's error: a failed create carries on.
func (j *Job) PriceIgnored(ctx context.Context, chain string, ts time.Time, usd float64) {
	m, err := j.lock(ctx)
	if err != nil {
		return
	}
	defer m.UnlockContext(ctx)
	j.db.ExecContext(ctx, `INSERT INTO prices (chain_id, ts, usd) VALUES (?, ?, ?)`, chain, ts, usd) // want `without a fencing token`
}

// Block inserts under an AUTO_INCREMENT id: a stale holder's copy is a
// second row.
func (j *Job) Block(ctx context.Context, chain string, height uint64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO raw_blocks (chain_id, height) VALUES (?, ?)`, chain, height) // want `without a fencing token`
	return err
}

// Payout inserts under a fresh UUID: the key is new for every holder, so
// a stale holder pays again.
func (j *Job) Payout(ctx context.Context, miner uint32, amount int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO payouts (id, miner_id, amount) VALUES (?, ?, ?)`, uuid.New().String(), miner, amount) // want `without a fencing token`
	return err
}

// PayoutID takes the ID from its caller: a char(36) key may hold a random
// ID, which the caller may draw anew each time.
func (j *Job) PayoutID(ctx context.Context, id string, miner uint32, amount int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO payouts (id, miner_id, amount) VALUES (?, ?, ?)`, id, miner, amount) // want `without a fencing token`
	return err
}

// Event's unique column is nullable: NULLs never collide.
func (j *Job) Event(ctx context.Context, kind string, at time.Time) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO events (kind, at) VALUES (?, ?)`, kind, at) // want `without a fencing token`
	return err
}

// Note's unique column was made NOT NULL by a later migration (10, after 2).
func (j *Job) Note(ctx context.Context, kind, body string) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO notes (kind, body) VALUES (?, ?)`, kind, body)
	return err
}

// Weird's table was altered in a way fencelint does not read: unknown.
func (j *Job) Weird(ctx context.Context, chain string, v int32) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO weird (chain_id, v) VALUES (?, ?)`, chain, v) // want `without a fencing token`
	return err
}

// Computed lets the database fill a key column: not supplied.
func (j *Job) Computed(ctx context.Context, chain string, usd float64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err = j.db.ExecContext(ctx, `INSERT INTO prices (chain_id, ts, usd) VALUES (?, now(), ?)`, chain, usd) // want `without a fencing token`
	return err
}

// RollupAndStamp also overwrites the chain's cursor in the transaction:
// the next holder, past its own INSERT of a later interval, may have moved
// the cursor on while this transaction was open, and this one moves it
// back. An overwrite is not gated by the key.
func (j *Job) RollupAndStamp(ctx context.Context, chain string, period int, start, end time.Time, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return j.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rollups (chain_id, period, start_time, end_time, total) VALUES (?, ?, ?, ?, ?)`, chain, period, start, end, n); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE totals SET n = ? WHERE chain_id = ?`, n, chain) // want `without a fencing token`
		return err
	})
}

// insertRollup is the store's create: it fails on a duplicate interval.
func insertRollup(ctx context.Context, db *sql.DB, chain string, period int, start, end time.Time, n int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO rollups (chain_id, period, start_time, end_time, total) VALUES (?, ?, ?, ?, ?)`, chain, period, start, end, n)
	return err
}

// RollupViaStore adds to the totals only after the store's create
// succeeded, without a transaction: only the interval's creator adds.
func (j *Job) RollupViaStore(ctx context.Context, chain string, period int, start, end time.Time, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := insertRollup(ctx, j.db, chain, period, start, end, n); err != nil {
		return err
	}
	_, err = j.db.ExecContext(ctx, `UPDATE totals SET n = n + ? WHERE chain_id = ?`, n, chain)
	return err
}

// RollupLogged logs a failed create and carries on: the add is not gated.
func (j *Job) RollupLogged(ctx context.Context, chain string, period int, start, end time.Time, n int64) error {
	m, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := insertRollup(ctx, j.db, chain, period, start, end, n); err != nil {
		println(err.Error())
	}
	_, err = j.db.ExecContext(ctx, `UPDATE totals SET n = n + ? WHERE chain_id = ?`, n, chain) // want `without a fencing token`
	return err
}

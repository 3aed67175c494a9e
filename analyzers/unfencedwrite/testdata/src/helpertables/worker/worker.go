// Package worker runs magicpool-like rollups under bsm/redislock: each
// interval's row is inserted first in its transaction under the table's
// natural key, so a stale holder's duplicate fails and rolls back with the
// relative adds after it. Writes whose statement the call does not pin
// down are still reported.
package worker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bsm/redislock"
	"github.com/jmoiron/sqlx"

	"helpertables/tsdb"
)

type Job struct {
	locker *redislock.Client
	db     *sqlx.DB
}

func (j *Job) lock(ctx context.Context) (*redislock.Lock, error) {
	return j.locker.Obtain(ctx, "cron:chart", 5*time.Minute, nil)
}

// rollup inserts the interval first, then adds to the longer periods.
func (j *Job) rollup(b *tsdb.Block) error {
	tx, err := j.db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tsdb.InsertBlocks(tx, b); err != nil {
		return err
	}
	if err := tsdb.InsertPartialBlocks(tx, b); err != nil {
		return err
	}
	return tx.Commit()
}

func (j *Job) Rollup(ctx context.Context, b *tsdb.Block) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return j.rollup(b)
}

// RollupLogged inserts the interval through a helper that drops the
// error: a stale holder's duplicate is not noticed, and it adds again.
func (j *Job) RollupLogged(ctx context.Context, b *tsdb.Block) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := j.db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tsdb.InsertBlockLogged(tx, b); err != nil { // want `tsdb.InsertBlockLogged \(.*via dbcl.ExecInsertLogged \(INSERT blocks\)\) writes`
		return err
	}
	if err := tsdb.InsertPartialBlocks(tx, b); err != nil { // want `tsdb.InsertPartialBlocks \(.*\) writes to SQL database without a fencing token`
		return err
	}
	return tx.Commit()
}

// insertSQL is a helper of the package itself: a call is read with its
// arguments in place of the parameters.
func insertSQL(table string, cols []string) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = ":" + c
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.Join(names, ", "))
}

// RollupLocal inserts the interval through the package's own helper.
func (j *Job) RollupLocal(ctx context.Context, b *tsdb.Block) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	tx, err := j.db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.NamedExec(insertSQL("blocks", []string{"chain_id", "period", "end_time", "value", "count"}), b); err != nil {
		return err
	}
	if err := tsdb.InsertPartialBlocks(tx, b); err != nil {
		return err
	}
	return tx.Commit()
}

// RollupLocalNoPeriod leaves the period out: not the whole key.
func (j *Job) RollupLocalNoPeriod(ctx context.Context, b *tsdb.Block) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = j.db.NamedExec(insertSQL("blocks", []string{"chain_id", "end_time", "value", "count"}), b) // want `NamedExec \(INSERT blocks\) writes to SQL database without a fencing token`
	return err
}

// AddPartial is the relative add alone: a stale holder adds twice.
func (j *Job) AddPartial(ctx context.Context, b *tsdb.Block) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return tsdb.InsertPartialBlocks(j.db, b) // want `tsdb.InsertPartialBlocks \(dbcl.execBulk \(INSERT <run-time name>\) at dbcl.go:\d+, via dbcl.ExecBulkInsertUpdateAdd \(INSERT blocks\)\) writes to SQL database without a fencing token`
}

// Others are not pinned down by a natural key, or not seen whole.
func (j *Job) Others(ctx context.Context, b *tsdb.Block, table string, cols []string) error {
	lock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := tsdb.InsertBlockNoPeriod(j.db, b); err != nil { // want `tsdb.InsertBlockNoPeriod \(Querier.NamedExec \(INSERT <run-time name>\) at dbcl.go:\d+, via dbcl.ExecInsert \(INSERT blocks\)\) writes to SQL database without a fencing token`
		return err
	}
	if err := tsdb.InsertRawBlocks(j.db, b); err != nil { // want `tsdb.InsertRawBlocks \(.*via dbcl.ExecBulkInsert \(INSERT raw_blocks\)\) writes`
		return err
	}
	if err := tsdb.InsertInto(j.db, table, b); err != nil { // want `tsdb.InsertInto \(INSERT <run-time name>\) \(.*via dbcl.ExecInsert \(INSERT <run-time name>\)\) writes`
		return err
	}
	if err := tsdb.InsertBlockCols(j.db, cols, b); err != nil { // want `tsdb.InsertBlockCols \(INSERT blocks\) \(.*via dbcl.ExecInsert \(INSERT blocks\)\) writes`
		return err
	}
	if err := tsdb.InsertBlockFirst(j.db, b); err != nil { // want `tsdb.InsertBlockFirst \(.*via dbcl.ExecInsertFirst \(INSERT blocks\)\) writes`
		return err
	}
	if err := tsdb.InsertBlockAudited(j.db, b); err != nil { // want `tsdb.InsertBlockAudited \(.*via dbcl.ExecInsertAudited; it reaches 2 unfenced writes: Querier.NamedExec \(INSERT <run-time name>\) at dbcl.go:\d+, Querier.NamedExec \(INSERT audit\) at dbcl.go:\d+\) writes`
		return err
	}
	// Missed, as before: dbcl chooses the WHERE clause at run time, and a
	// helper's write with a condition it builds itself out of sight is
	// not passed on to its callers (README, Missed).
	return tsdb.UpdateBlock(j.db, b)
}

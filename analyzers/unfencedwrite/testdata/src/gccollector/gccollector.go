// Package gccollector is reduced from SpiceDB's garbage collection: one
// GarbageCollector interface with a PostgreSQL and a MySQL implementation,
// each taking its own database's lock. The lock and the deletes are calls
// on the same interface value, so they run on the same implementation: the
// lock a write is under is the writing implementation's.
package gccollector

import (
	"context"
	"database/sql"
	"errors"
)

// GarbageCollector is what a datastore offers to the GC worker.
type GarbageCollector interface {
	LockForGCRun(ctx context.Context) (bool, error)
	UnlockAfterGCRun() error
	DeleteBeforeTx(ctx context.Context, txID uint64) (int64, error)
}

// mysqlGC locks with GET_LOCK; its delete is built at run time.
type mysqlGC struct {
	db    *sql.DB
	table string
}

func (g *mysqlGC) LockForGCRun(ctx context.Context) (bool, error) {
	var ok bool
	err := g.db.QueryRowContext(ctx, `SELECT GET_LOCK('gc', 0)`).Scan(&ok)
	return ok, err
}

func (g *mysqlGC) UnlockAfterGCRun() error {
	_, err := g.db.Exec(`SELECT RELEASE_LOCK('gc')`)
	return err
}

func (g *mysqlGC) DeleteBeforeTx(ctx context.Context, txID uint64) (int64, error) {
	res, err := g.db.ExecContext(ctx, g.table, txID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// pgGC locks with a session advisory lock and deletes with no fence.
type pgGC struct{ db *sql.DB }

func (g *pgGC) LockForGCRun(ctx context.Context) (bool, error) {
	var ok bool
	err := g.db.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(1)`).Scan(&ok)
	return ok, err
}

func (g *pgGC) UnlockAfterGCRun() error {
	_, err := g.db.Exec(`SELECT pg_advisory_unlock(1)`)
	return err
}

func (g *pgGC) DeleteBeforeTx(ctx context.Context, txID uint64) (int64, error) {
	res, err := g.db.ExecContext(ctx, `UPDATE gc_state SET last_tx = $1 WHERE id = 1`, txID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RunGC deletes under the collector's lock: the delete is PostgreSQL's, so
// the lock named is PostgreSQL's too.
func RunGC(ctx context.Context, gc GarbageCollector, txID uint64) error {
	ok, err := gc.LockForGCRun(ctx)
	if err != nil || !ok {
		return err
	}
	defer gc.UnlockAfterGCRun()
	_, err = gc.DeleteBeforeTx(ctx, txID) // want `GarbageCollector.DeleteBeforeTx \(DB.ExecContext \(UPDATE gc_state\) at gccollector.go:\d+, via \*gccollector.pgGC.DeleteBeforeTx\) writes to SQL database without a fencing token while the PostgreSQL lock taken by GarbageCollector.LockForGCRun \(via \*gccollector.pgGC.LockForGCRun\) \(line 71\) is held`
	return err
}

// Pruner is implemented by a type that locks but writes nothing, and by
// one that writes but locks nothing.
type Pruner interface {
	Lock(ctx context.Context) (bool, error)
	Prune(ctx context.Context) error
}

// lockingPruner takes the lock; its Prune only reads.
type lockingPruner struct{ db *sql.DB }

func (p *lockingPruner) Lock(ctx context.Context) (bool, error) {
	var ok bool
	err := p.db.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(2)`).Scan(&ok)
	return ok, err
}

func (p *lockingPruner) Prune(ctx context.Context) error {
	var n int
	return p.db.QueryRowContext(ctx, `SELECT count(*) FROM old_rows`).Scan(&n)
}

// localPruner deletes without any lock: it is the single-node collector.
type localPruner struct{ db *sql.DB }

func (p *localPruner) Lock(ctx context.Context) (bool, error) { return true, nil }

func (p *localPruner) Prune(ctx context.Context) error {
	_, err := p.db.ExecContext(ctx, `DELETE FROM old_rows`)
	return err
}

var errBusy = errors.New("another pruner runs")

// RunPruner: the only implementation that writes takes no lock, and the
// one that locks writes nothing; a call on one value runs one of them, so
// no write happens under the lock.
func RunPruner(ctx context.Context, p Pruner) error {
	ok, err := p.Lock(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return p.Prune(ctx)
}

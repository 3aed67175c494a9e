// Command revapp applies migrations under a distributed lock, wiring the
// revision store into the executor.
package main

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"

	"revapp/dryrun"
	"revapp/entrev"
	"revapp/migrate"
)

// apply records revisions in the database under the lock: entrev's
// WriteRevision, reached from Execute through the interface.
func apply(ctx context.Context, rs *redsync.Redsync, db *sql.DB, stmts []string) error {
	m := rs.NewMutex("migrate")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	ex, err := migrate.NewExecutor(entrev.New(db))
	if err != nil {
		return err
	}
	return ex.Execute(ctx, "1", stmts) // want `Executor.Execute \(DB.ExecContext \(UPDATE revisions\) at entrev.go:\d+, via \*entrev.Revisions.WriteRevision, via RevisionReadWriter.WriteRevision, via Executor.writeRevision\) writes to SQL database without a fencing token`
}

// dryRunRevisions reads the recorded revisions but records nothing.
type dryRunRevisions struct{ migrate.RevisionReadWriter }

func (dryRunRevisions) WriteRevision(context.Context, *migrate.Revision) error { return nil }

// applyOpened runs the executor on the store another package opens, or
// on this package's dry-run wrapper of it: that this package has an
// implementation of its own that writes nothing does not hide the store
// it was handed.
func applyOpened(ctx context.Context, rs *redsync.Redsync, db *sql.DB, stmts []string, dry bool) error {
	m := rs.NewMutex("migrate")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	rrw, err := entrev.Open(db)
	if err != nil {
		return err
	}
	if dry {
		rrw = dryRunRevisions{rrw}
	}
	ex, err := migrate.NewExecutor(rrw)
	if err != nil {
		return err
	}
	return ex.Execute(ctx, "1", stmts) // want `Executor.Execute \(.*via \*entrev.Revisions.WriteRevision.*\) writes to SQL database without a fencing token`
}

// check replays the statements under the lock, on executors built to
// record nothing (here and in migrate.Replay): the object carries the
// store it was built with.
func check(ctx context.Context, rs *redsync.Redsync, stmts []string) error {
	m := rs.NewMutex("migrate")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	ex, err := migrate.NewExecutor(migrate.NopRevisionReadWriter{})
	if err != nil {
		return err
	}
	if err := ex.Execute(ctx, "check", stmts); err != nil {
		return err
	}
	return migrate.Replay(ctx, stmts)
}

func main() {
	db, _ := sql.Open("pgx", "")
	rs := redsync.New()
	_ = apply(context.Background(), rs, db, nil)
	_ = applyOpened(context.Background(), rs, db, nil, false)
	_ = dryrun.Plan(context.Background(), rs, nil)
	_ = check(context.Background(), rs, nil)
}

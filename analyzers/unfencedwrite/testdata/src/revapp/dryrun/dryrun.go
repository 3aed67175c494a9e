// Package dryrun plans migrations under the lock without recording them:
// the executor runs only this package's own revision store, which writes
// nothing, so the write Execute makes through other stores is not made
// here.
package dryrun

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"revapp/migrate"
)

type revisions struct{ applied map[string]int }

func (r *revisions) ReadRevision(_ context.Context, version string) (*migrate.Revision, error) {
	return &migrate.Revision{Version: version, Applied: r.applied[version]}, nil
}

func (r *revisions) WriteRevision(_ context.Context, rev *migrate.Revision) error {
	r.applied[rev.Version] = rev.Applied
	return nil
}

func Plan(ctx context.Context, rs *redsync.Redsync, stmts []string) error {
	m := rs.NewMutex("migrate")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	ex, err := migrate.NewExecutor(&revisions{applied: map[string]int{}})
	if err != nil {
		return err
	}
	return ex.Execute(ctx, "1", stmts)
}

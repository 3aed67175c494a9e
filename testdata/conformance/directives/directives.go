// Package directives exercises fencelint's directives on real code: a
// justified ignore, nolint, and malformed directives.
package directives

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
)

// Purger deletes expired rows under a redsync mutex.
type Purger struct {
	rs *redsync.Redsync
	db *sql.DB
}

// Purge deletes idempotently: a stale holder deleting the same expired
// rows again does no harm, and the team says so.
func (p *Purger) Purge(ctx context.Context) error {
	m := p.rs.NewMutex("purge")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	//fencelint:ignore revoked sessions stay revoked: deleting them twice is harmless
	if _, err := p.db.ExecContext(ctx, `DELETE FROM sessions WHERE revoked`); err != nil {
		return err
	}
	_, err := p.db.ExecContext(ctx, `DELETE FROM tokens WHERE revoked`) //nolint:unfencedwrite // idempotent delete
	return err
}

// PurgeBadDirectives carries directives fencelint must reject.
func (p *Purger) PurgeBadDirectives(ctx context.Context) error {
	m := p.rs.NewMutex("purge")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	/* want fencedirective:"fencelint" */                                 //fencelint:ignore
	_, err := p.db.ExecContext(ctx, `DELETE FROM sessions WHERE revoked`) // want unfencedwrite:"without a fencing token"
	/* want fencedirective:"fencelint" */ //fencelint:aquire
	return err
}

// Unused carries an ignore that covers nothing fencelint looks at.
func Unused() int {
	/* want fencedirective:"fencelint" */ //fencelint:ignore nothing here writes
	return 1
}

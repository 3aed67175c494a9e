// Package leases keeps leases alive for other packages: one renewal is
// marked //fencelint:renew, the other wraps redsync's ExtendContext. Their
// callers know them as renewals through facts.
package leases

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-redsync/redsync/v4"
)

var errLost = errors.New("the lease row belongs to someone else")

// A Leaser keeps a lease row in PostgreSQL.
type Leaser struct {
	DB *sql.DB
}

// Extend pushes the lease row's expiry forward.
//
//fencelint:renew
func (l *Leaser) Extend(ctx context.Context, owner string) error {
	res, err := l.DB.ExecContext(ctx, `UPDATE leases SET expires_at = now() + interval '10 seconds' WHERE name = 'jobs' AND owner = $1`, owner)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errLost
	}
	return nil
}

// ExtendMutex extends a redsync mutex, failing when it is no longer held.
func ExtendMutex(ctx context.Context, m *redsync.Mutex) error {
	ok, err := m.ExtendContext(ctx)
	if err == nil && !ok {
		err = errLost
	}
	return err
}

// Package renewdirective keeps a hand-rolled PostgreSQL lease alive with a
// function marked //fencelint:renew.
package renewdirective

import (
	"context"
	"database/sql"
	"log"
	"time"
)

type leaser struct {
	db *sql.DB
}

// extend pushes the lease row's expiry forward.
//
//fencelint:renew
func (l *leaser) extend(ctx context.Context, owner string) error {
	res, err := l.db.ExecContext(ctx, `UPDATE leases SET expires_at = now() + interval '10 seconds' WHERE name = 'jobs' AND owner = $1`, owner)
	if err != nil {
		return err
	}
	_, err = res.RowsAffected()
	return err
}

// heartbeatIgnored drops extend's error.
func (l *leaser) heartbeatIgnored(ctx context.Context, owner string) {
	go func() { // want `this goroutine renews a lease with leaser.extend \(line 33\), but the work never hears when renewal fails`
		for {
			time.Sleep(3 * time.Second)
			l.extend(ctx, owner)
		}
	}()
}

// heartbeatStops calls the stop callback it was given.
func (l *leaser) heartbeatStops(ctx context.Context, owner string, stop func(error)) {
	go func() {
		for {
			time.Sleep(3 * time.Second)
			if err := l.extend(ctx, owner); err != nil {
				log.Print(err)
				stop(err)
				return
			}
		}
	}()
}

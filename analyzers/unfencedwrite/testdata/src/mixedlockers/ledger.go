// Package mixedlockers credits accounts under a lease whose interface has
// a Redis implementation, which fencelint reads as a lock, and a
// PostgreSQL one, which it does not: a call of a method named for taking
// or letting go a lock is that role all the same.
package mixedlockers

import (
	"context"
	"database/sql"
	"time"

	"mixedlockers/locks"
)

type Ledger struct {
	locks locks.Locker
	db    *sql.DB
	id    string
}

// Credit reads the balance and writes it back under the account's lease,
// which it lets go before recording the request: that insert is made
// under no lease.
func (g *Ledger) Credit(ctx context.Context, account string, cents int64) error {
	if err := g.locks.Acquire(ctx, account, g.id, time.Minute); err != nil {
		return err
	}
	var balance int64
	if err := g.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, account).Scan(&balance); err != nil {
		g.locks.Release(ctx, account, g.id)
		return err
	}
	_, err := g.db.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, balance+cents, account) // want `ExecContext \(UPDATE accounts\) writes to SQL database without a fencing token while the Redis lock taken by Locker.Acquire`
	if rerr := g.locks.Release(ctx, account, g.id); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	_, err = g.db.ExecContext(ctx, `UPDATE requests SET done = true WHERE account = $1`, account)
	return err
}

// RunJobs runs the periodic tasks and counts the runs: Run is no acquire.
func RunJobs(ctx context.Context, db *sql.DB, jobs []locks.Job) error {
	for _, j := range jobs {
		if err := j.Run(ctx); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `UPDATE stats SET runs = runs + 1`); err != nil {
			return err
		}
	}
	return nil
}

// Package redislockcheck asks a bsm/redislock lock for its TTL before
// writing. TTL returns 0 and no error once the lock is lost.
package redislockcheck

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
)

var errLost = errors.New("lost the lock")

// ttlPositive writes while the TTL says the lock is ours.
func ttlPositive(ctx context.Context, lock *redislock.Lock, db *sql.DB) error {
	ttl, err := lock.TTL(ctx) // want `Lock.TTL only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE accounts\) at line 26`
	if err != nil {
		return err
	}
	if ttl <= 0 {
		return errLost
	}
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 10 WHERE id = 1")
	return err
}

// ttlSeconds compares a conversion of the TTL.
func ttlSeconds(ctx context.Context, lock *redislock.Lock, db *sql.DB) {
	if ttl, _ := lock.TTL(ctx); ttl.Seconds() > 1 { // want `Lock.TTL only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(INSERT ledger\)`
		db.ExecContext(ctx, "INSERT INTO ledger (account, amount) VALUES (1, -10)")
	}
}

// ttlLogged only logs the TTL, and the write after it runs either way;
// with no lease held there is nothing here for heldcheck.
func ttlLogged(ctx context.Context, lock *redislock.Lock, db *sql.DB) {
	ttl, _ := lock.TTL(ctx)
	log.Printf("lock ttl %s", ttl)
	db.ExecContext(ctx, "UPDATE accounts SET seen = now() WHERE id = 1")
}

// refreshWhenLow renews when the TTL is low: the branch taken when the
// lease is running out holds no write.
func refreshWhenLow(ctx context.Context, lock *redislock.Lock) error {
	ttl, err := lock.TTL(ctx)
	if err != nil {
		return err
	}
	if ttl < time.Second {
		return lock.Refresh(ctx, 10*time.Second, nil)
	}
	return nil
}

// markExpiring writes when the lock is about to go: past the error check,
// but on the branch where the TTL says the lock is (nearly) lost.
func markExpiring(ctx context.Context, lock *redislock.Lock, db *sql.DB) error {
	ttl, err := lock.TTL(ctx)
	if err != nil {
		return err
	}
	if ttl < time.Second {
		_, err = db.ExecContext(ctx, "UPDATE workers SET state = 'expiring' WHERE id = 1")
		return err
	}
	return nil
}

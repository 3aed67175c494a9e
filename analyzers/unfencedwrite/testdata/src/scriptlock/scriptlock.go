// Package scriptlock takes Redis locks inside Lua scripts run with Eval and
// Script.Run: SET KEYS[1] ARGV[1] NX with an expiry claims the lock, as
// SetNX does, and the region runs from the claim (once its result says it
// was won) to the compare-and-delete script that releases it.
package scriptlock

import (
	"context"
	"database/sql"
	"errors"

	"github.com/redis/go-redis/v9"

	"scriptlock/scripts"
)

const lockScript = `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`

const claimScript = `
if redis.call("SET", KEYS[1], ARGV[1], "NX", "EX", ARGV[2]) then
	return 1
end
return 0`

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

var errBusy = errors.New("coupon is locked")

// UseCoupon claims the coupon's lock in the embedded script, checks the
// returned code and marks the coupon used by the order: an UPDATE that
// does not require the coupon to be unused, so a holder paused past the
// 300 s lock after another order took and used the coupon overwrites it.
func UseCoupon(ctx context.Context, rdb *redis.Client, db *sql.DB, coupon, user, order string) error {
	res, err := rdb.Eval(ctx, scripts.LockCoupon, []string{"coupon:lock:" + coupon, "coupon:status:" + coupon}, user, 300).Result()
	if err != nil {
		return err
	}
	if res.(int64) != scripts.Success {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE user_coupons SET order_sn = $1, status = 2 WHERE id = $2`, order, coupon) // want `DB.ExecContext \(UPDATE user_coupons\) writes to SQL database without a fencing token while the Redis lock taken by Eval \(SET NX in its Lua script\)`
	return err
}

// Settle claims with a script that returns SET's own reply: a taken key
// comes back as redis.Nil. The CAS-delete script releases the lock, and
// the write after it is under no lock.
func Settle(ctx context.Context, rdb *redis.Client, db *sql.DB, id, owner string) error {
	_, err := rdb.Eval(ctx, lockScript, []string{"settle:" + id}, owner, 30000).Result()
	if err == redis.Nil {
		_, err := db.ExecContext(ctx, `UPDATE settlements SET skipped = skipped + 1 WHERE id = $1`, id) // the claim failed: no lock held
		return err
	}
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `UPDATE settlements SET state = 'done' WHERE id = $1`, id); err != nil { // want `DB.ExecContext \(UPDATE settlements\) writes to SQL database without a fencing token while the Redis lock taken by Eval \(SET NX in its Lua script\)`
		return err
	}
	if err := unlock.Run(ctx, rdb, []string{"settle:" + id}, owner).Err(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE settlements SET audited = true WHERE id = $1`, id) // released: no lock held
	return err
}

// Renew claims through Script.Run with a 1-or-0 script and checks Int64.
func Renew(ctx context.Context, rdb *redis.Client, db *sql.DB, id, owner string) error {
	n, err := redis.NewScript(claimScript).Run(ctx, rdb, []string{"renew:" + id}, owner, 60).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		_, err := db.ExecContext(ctx, `UPDATE subscriptions SET note = 'busy' WHERE id = $1`, id) // not claimed: no lock held
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE subscriptions SET renewed_at = now() WHERE id = $1`, id) // want `DB.ExecContext \(UPDATE subscriptions\) writes to SQL database without a fencing token while the Redis lock taken by Script.Run \(SET NX in its Lua script\)`
	return err
}

// Reserve runs an atomic check-and-decrement script (no SET NX): it takes
// no lock, and the order written after it is under none.
func Reserve(ctx context.Context, rdb *redis.Client, db *sql.DB, sale, user string) error {
	code, err := rdb.Eval(ctx, scripts.ReserveStock, []string{"stock:" + sale, "bought:" + sale + ":" + user}).Int64()
	if err != nil || code != 1 {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE flash_sales SET sold = $1 WHERE id = $2`, code, sale)
	return err
}

// Seed claims with SET NX and then writes another key in the same script:
// an atomic check-and-write, not a lock the caller goes on to hold.
func Seed(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	const seed = `if redis.call("SET", KEYS[1], "1", "NX", "EX", 60) then
	redis.call("INCR", KEYS[2])
	return 1
end
return 0`
	n, err := rdb.Eval(ctx, seed, []string{"seeded:" + id, "seeds"}).Int64()
	if err != nil || n != 1 {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE tenants SET seeded = true WHERE id = $1`, id)
	return err
}

// Mark sets a key with no NX in its script: no lock either.
func Mark(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	if err := rdb.Eval(ctx, `return redis.call("SET", KEYS[1], ARGV[1], "EX", 60)`, []string{"mark:" + id}, "x").Err(); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE marks SET at = now() WHERE id = $1`, id)
	return err
}

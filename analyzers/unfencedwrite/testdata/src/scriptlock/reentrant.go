package scriptlock

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
)

// A RedisLock is go-zero's lock as applications copy it: its script
// extends the lock when the caller's value holds it, and claims it with
// SET NX PX otherwise.
type RedisLock struct {
	rdb     *redis.Client
	key, id string
	seconds int
}

var reentrantLock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`)

// A script that resets another key when it claims is no lock claim.
var claimAndReset = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[2], "0", "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`)

// Acquire takes or extends the lock.
func (rl *RedisLock) Acquire(ctx context.Context) (bool, error) {
	resp, err := reentrantLock.Run(ctx, rl.rdb, []string{rl.key}, rl.id, rl.seconds*1000+500).Result()
	if err == redis.Nil {
		return false, nil
	} else if err != nil {
		return false, err
	}
	reply, ok := resp.(string)
	return ok && reply == "OK", nil
}

// Release lets the lock go if the caller still holds it.
func (rl *RedisLock) Release(ctx context.Context) (bool, error) {
	n, err := unlock.Run(ctx, rl.rdb, []string{rl.key}, rl.id).Int64()
	return n == 1, err
}

// Upgrade moves a user to the pro plan under the copied lock.
func Upgrade(ctx context.Context, rdb *redis.Client, db *sql.DB, user string) error {
	rl := &RedisLock{rdb: rdb, key: "plan:" + user, id: "worker-1", seconds: 5}
	ok, err := rl.Acquire(ctx)
	if err != nil || !ok {
		return err
	}
	defer rl.Release(ctx)
	_, err = db.ExecContext(ctx, `UPDATE users SET plan = 'pro' WHERE id = $1`, user) // want `DB.ExecContext \(UPDATE users\) writes to SQL database without a fencing token while the Redis lock taken by RedisLock.Acquire`
	return err
}

// Reset runs the claim-and-reset script: no lock is taken.
func Reset(ctx context.Context, rdb *redis.Client, db *sql.DB, user string) error {
	if err := claimAndReset.Run(ctx, rdb, []string{"plan:" + user, "quota:" + user}, "worker-1", 5000).Err(); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE users SET plan = 'free' WHERE id = $1`, user)
	return err
}

// claimOrOwn takes the lock when the key is absent, or extends it when it
// holds the caller's value: a claim, as SET NX is.
var claimOrOwn = redis.NewScript(`
local current = redis.call("GET", KEYS[1])
if current == false or current == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
  return 1
end
return 0`)

// Downgrade moves a user to the free plan under the claim-or-own lock.
func Downgrade(ctx context.Context, rdb *redis.Client, db *sql.DB, user string) error {
	n, err := claimOrOwn.Run(ctx, rdb, []string{"plan:" + user}, "worker-1", 5000).Int64()
	if err != nil || n == 0 {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE users SET plan = 'free' WHERE id = $1`, user) // want `DB.ExecContext \(UPDATE users\) writes to SQL database without a fencing token while the Redis lock taken by Script.Run \(SET NX in its Lua script\)`
	return err
}

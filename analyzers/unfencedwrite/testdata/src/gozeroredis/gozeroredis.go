// Package gozeroredis holds a go-zero service's wallet logic: balances
// kept in go-zero's Redis store under its RedisLock, or under a SET NX
// the service takes itself.
package gozeroredis

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

type svcCtx struct {
	Redis *redis.Redis
	DB    *sql.DB
}

// Credit adds to a user's balance under a per-user RedisLock.
func Credit(ctx context.Context, svc *svcCtx, uid int64, amount int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("wallet:lock:%d", uid))
	lock.SetExpire(5)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return svc.Redis.HsetCtx(ctx, "wallet:busy", strconv.FormatInt(uid, 10), "1") // not held here
	}
	defer lock.ReleaseCtx(ctx)
	bal, err := svc.Redis.HgetCtx(ctx, "wallet", strconv.FormatInt(uid, 10))
	if err != nil {
		return err
	}
	n, _ := strconv.ParseInt(bal, 10, 64)
	if err := svc.Redis.HsetCtx(ctx, "wallet", strconv.FormatInt(uid, 10), strconv.FormatInt(n+amount, 10)); err != nil { // want `Redis.HsetCtx writes to Redis without a fencing token while the go-zero lock taken by RedisLock.AcquireCtx .*fence it: write with a Lua script \(Redis.EvalCtx, Redis.ScriptRunCtx\)`
		return err
	}
	_, err = svc.DB.ExecContext(ctx, "UPDATE wallets SET balance = $1 WHERE uid = $2", n+amount, uid) // want "without a fencing token while the go-zero lock"
	return err
}

// Debit releases the lock before it logs the debit: the log is written
// under no lease.
func Debit(svc *svcCtx, uid int64, amount int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("wallet:lock:%d", uid))
	lock.SetExpire(5)
	if ok, err := lock.Acquire(); err != nil || !ok {
		return fmt.Errorf("wallet %d is busy", uid)
	}
	_, err := svc.Redis.Incrby(fmt.Sprintf("wallet:%d", uid), -amount) // want "Redis.Incrby writes to Redis without a fencing token"
	if _, rerr := lock.Release(); rerr != nil {
		return rerr
	}
	if err != nil {
		return err
	}
	_, err = svc.Redis.Zadd("wallet:debits", amount, strconv.FormatInt(uid, 10))
	return err
}

// fenceScript sets the balance only for a fence above the stored one.
var fenceScript = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1`)

// Settle writes through a script that compares the stored fence, and
// publishes the result: a message, not a write.
func Settle(ctx context.Context, svc *svcCtx, uid, fence, balance int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("wallet:lock:%d", uid))
	lock.SetExpire(5)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	keys := []string{fmt.Sprintf("wallet:fence:%d", uid), fmt.Sprintf("wallet:%d", uid)}
	if _, err := svc.Redis.ScriptRunCtx(ctx, fenceScript, keys, fence, balance); err != nil {
		return err
	}
	_, err = svc.Redis.PublishCtx(ctx, "wallet:settled", uid)
	return err
}

// Sweep takes a lock of its own with SETNX and an expiry, and lets it
// go with a DEL of the same key.
func Sweep(ctx context.Context, svc *svcCtx, day string) error {
	key := "wallet:sweep:" + day
	ok, err := svc.Redis.SetnxExCtx(ctx, key, "1", 60)
	if err != nil || !ok {
		return err
	}
	if err := svc.Redis.SetexCtx(ctx, "wallet:swept:"+day, "running", 3600); err != nil { // want "Redis.SetexCtx writes to Redis without a fencing token while the Redis lock taken by Redis.SetnxExCtx"
		return err
	}
	if _, err := svc.Redis.DelCtx(ctx, key); err != nil {
		return err
	}
	return svc.Redis.SetCtx(ctx, "wallet:swept:"+day, "done") // after the DEL: no lease
}

// Seed sets a user's first balance once: SETNX with no expiry is a
// create-only write, not a lock.
func Seed(svc *svcCtx, uid int64) error {
	ok, err := svc.Redis.Setnx(fmt.Sprintf("wallet:%d", uid), "0")
	if err != nil || !ok {
		return err
	}
	return svc.Redis.Set(fmt.Sprintf("wallet:seeded:%d", uid), "1")
}

// A refresher asks a fetcher to refresh a user's wallet and waits until
// the fetcher signals on the user's wake-up list.
type refresher struct {
	svc *svcCtx
}

func wakeKey(kind string, uid int64) string { return fmt.Sprintf("wake:%s:%d", kind, uid) }

// Refresh clears stale wake-ups from the list it then waits on (a
// message, not data), but resets the user's refresh count (data).
func (r *refresher) Refresh(ctx context.Context, uid int64) error {
	lock := redis.NewRedisLock(r.svc.Redis, fmt.Sprintf("wallet:refresh:%d", uid))
	lock.SetExpire(30)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	if _, err := r.svc.Redis.DelCtx(ctx, wakeKey("wallet", uid)); err != nil {
		return err
	}
	if _, err := r.svc.Redis.DelCtx(ctx, wakeKey("refreshes", uid)); err != nil { // want "Redis.DelCtx writes to Redis without a fencing token while the go-zero lock"
		return err
	}
	return r.wait(ctx, uid)
}

func (r *refresher) wait(ctx context.Context, uid int64) error {
	_, err := r.svc.Redis.BlpopWithTimeoutCtx(ctx, nil, time.Minute, wakeKey("wallet", uid))
	return err
}

// setScript sets the balance with no compare: a write like any other.
var setScript = redis.NewScript(`redis.call('SET', KEYS[1], ARGV[1])
return 1`)

// Overwrite runs the compare-free script under the lock: its text is read
// from the Script the call is handed.
func Overwrite(ctx context.Context, svc *svcCtx, uid, balance int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("wallet:lock:%d", uid))
	lock.SetExpire(5)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	_, err := svc.Redis.ScriptRunCtx(ctx, setScript, []string{fmt.Sprintf("wallet:%d", uid)}, balance) // want "Redis.ScriptRunCtx writes to Redis without a fencing token while the go-zero lock"
	return err
}

// Package gozerolock is a go-zero service's points logic: balances in
// go-zero's Redis store and in SQL, kept under its RedisLock or a SETNX
// lock the service takes itself.
package gozerolock

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

// ServiceContext is what go-zero hands every logic.
type ServiceContext struct {
	Redis *redis.Redis
	DB    *sql.DB
}

// AddPoints adds to a user's points under a per-user RedisLock.
func AddPoints(ctx context.Context, svc *ServiceContext, uid, points int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("points:lock:%d", uid))
	lock.SetExpire(3)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("points of %d are being changed", uid)
	}
	defer lock.ReleaseCtx(ctx)
	cur, err := svc.Redis.HgetCtx(ctx, "points", strconv.FormatInt(uid, 10))
	if err != nil && err != redis.Nil {
		return err
	}
	n, _ := strconv.ParseInt(cur, 10, 64)
	if err := svc.Redis.HsetCtx(ctx, "points", strconv.FormatInt(uid, 10), strconv.FormatInt(n+points, 10)); err != nil { // want unfencedwrite:"Redis.HsetCtx writes to Redis without a fencing token while the go-zero lock taken by RedisLock.AcquireCtx"
		return err
	}
	_, err = svc.DB.ExecContext(ctx, "UPDATE users SET points = ? WHERE id = ?", n+points, uid) // want unfencedwrite:"without a fencing token while the go-zero lock"
	return err
}

// fenceScript stores the points only for a fence above the stored one.
var fenceScript = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'points', ARGV[2])
return 1`)

// SetPoints writes through the fence-comparing script: a stale holder's
// write is refused.
func SetPoints(ctx context.Context, svc *ServiceContext, uid, fence, points int64) error {
	lock := redis.NewRedisLock(svc.Redis, fmt.Sprintf("points:lock:%d", uid))
	lock.SetExpire(3)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return fmt.Errorf("points of %d are busy: %v", uid, err)
	}
	defer lock.ReleaseCtx(ctx)
	keys := []string{fmt.Sprintf("points:fence:%d", uid), fmt.Sprintf("user:%d", uid)}
	_, err := svc.Redis.ScriptRunCtx(ctx, fenceScript, keys, fence, points)
	return err
}

// Expire takes a lock of its own with SETNX and an expiry, writes, lets
// it go with DEL, and marks the day done under no lease.
func Expire(ctx context.Context, svc *ServiceContext, day string) error {
	key := "points:expire:" + day
	ok, err := svc.Redis.SetnxExCtx(ctx, key, "1", 60)
	if err != nil || !ok {
		return err
	}
	if _, err := svc.Redis.DelCtx(ctx, "points:pending:"+day); err != nil { // want unfencedwrite:"Redis.DelCtx writes to Redis without a fencing token while the Redis lock taken by Redis.SetnxExCtx"
		return err
	}
	if _, err := svc.Redis.DelCtx(ctx, key); err != nil {
		return err
	}
	return svc.Redis.SetexCtx(ctx, "points:expired:"+day, "1", 86400)
}

// A Syncer asks the fetcher to sync a user's points and waits until the
// fetcher pushes onto the user's done list.
type Syncer struct {
	svc *ServiceContext
}

func doneKey(kind string, uid int64) string { return fmt.Sprintf("sync:%s:%d", kind, uid) }

// Sync clears stale signals from the done list it then waits on (no
// fence needed: a message, not data), and the user's sync count (data).
func (s *Syncer) Sync(ctx context.Context, uid int64) error {
	lock := redis.NewRedisLock(s.svc.Redis, fmt.Sprintf("sync:lock:%d", uid))
	lock.SetExpire(30)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(ctx)
	if _, err := s.svc.Redis.DelCtx(ctx, doneKey("points", uid)); err != nil {
		return err
	}
	if _, err := s.svc.Redis.DelCtx(ctx, doneKey("count", uid)); err != nil { // want unfencedwrite:"Redis.DelCtx writes to Redis without a fencing token while the go-zero lock"
		return err
	}
	return s.waitDone(ctx, uid)
}

func (s *Syncer) waitDone(ctx context.Context, uid int64) error {
	node, err := redis.CreateBlockingNode(s.svc.Redis)
	if err != nil {
		return err
	}
	defer node.Close()
	_, err = s.svc.Redis.BlpopWithTimeoutCtx(ctx, node, time.Minute, doneKey("points", uid))
	return err
}

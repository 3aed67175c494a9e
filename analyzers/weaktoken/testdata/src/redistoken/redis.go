// Package redistoken fences SQL writes made under Redis locks.
package redistoken

import (
	"context"
	"database/sql"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// redsyncValue uses the mutex's random value as a fence.
func redsyncValue(ctx context.Context, db *sql.DB, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	res, err := db.ExecContext(ctx, update, "body", m.Value(), 1) // want `ExecContext \(UPDATE docs\) is fenced with Mutex.Value\(\) \(line 25\), which is not a fencing token: redsync's value is 16 random bytes.*; use a token issued with the grant: a Lua script that sets the lock key and INCRs a fence key in one step`
	return checked(res, err)
}

// redislockToken uses the lock's random token, through a variable.
func redislockToken(ctx context.Context, db *sql.DB, rdb *redis.Client) error {
	l, err := redislock.Obtain(ctx, rdb, "docs", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	tok := l.Token()
	res, err := db.ExecContext(ctx, update, "body", tok, 1) // want `is fenced with Lock.Token\(\) \(line 36\), which is not a fencing token: redislock's token is random bytes`
	return checked(res, err)
}

// clockFence stamps the write with the time: clocks disagree, and a paused
// holder carries the time it read before its pause.
func clockFence(ctx context.Context, db *sql.DB, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	stamp := time.Now().UnixNano()
	res, err := db.ExecContext(ctx, update, "body", stamp, 1) // want `is fenced with time.Now\(\).UnixNano\(\) \(line 49\), which is not a fencing token: clocks of different holders disagree`
	return checked(res, err)
}

// lateIncr draws the fence with INCR in a separate step after SET NX.
func lateIncr(ctx context.Context, db *sql.DB, rdb *redis.Client) error {
	owner := uuid.NewString()
	ok, err := rdb.SetNX(ctx, "lock:docs", owner, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, []string{"lock:docs"}, owner)
	fence, err := rdb.Incr(ctx, "fence:docs").Result()
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, update, "body", fence, 1) // want `is fenced with Incr\(\).Result\(\) \(line 62\), which is not a fencing token: it is drawn in a separate step after the Redis lock .*\(line 57\) was taken: a holder that pauses in between draws a larger token than its successor`
	return checked(res, err)
}

const acquireLua = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`

// atomicFence takes the lock and increments the fence in one script: a
// real token. The uuid is only the lock's value, for a safe release, and
// the time is only logged.
func atomicFence(ctx context.Context, db *sql.DB, rdb *redis.Client) error {
	owner := uuid.NewString()
	fence, err := redis.NewScript(acquireLua).Run(ctx, rdb, []string{"lock:docs", "fence:docs"}, owner, 10000).Int64()
	if err != nil || fence == 0 {
		return err
	}
	log.Printf("acquired at %v", time.Now())
	res, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $2, updated_at = $4 WHERE id = $3 AND fence < $2",
		"body", fence, 1, time.Now())
	return checked(res, err)
}

// lastWriterWins compares timestamps with no lease at all: a design
// choice, not a lease bug.
func lastWriterWins(ctx context.Context, db *sql.DB) error {
	res, err := db.ExecContext(ctx, update, "body", time.Now().UnixNano(), 1)
	return checked(res, err)
}

// viaHelper passes the random value to a helper that fences with it: the
// finding is at the call in the lease region.
func viaHelper(ctx context.Context, db *sql.DB, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return save(ctx, db, m.Value()) // want `save \(.*ExecContext \(UPDATE docs\) at redis.go:\d+\) is fenced with Mutex.Value\(\) \(line 106\)`
}

func save(ctx context.Context, db *sql.DB, fence string) error {
	res, err := db.ExecContext(ctx, update, "body", fence, 1)
	return checked(res, err)
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

var fenceScript = redis.NewScript(`
if tonumber(ARGV[1]) <= tonumber(redis.call('GET', KEYS[1]) or '0') then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1`)

// scriptFence compares a stored fence in Lua, but feeds it a random value.
func scriptFence(ctx context.Context, rdb *redis.Client, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	ok, err := fenceScript.Run(ctx, rdb, []string{"fence:docs", "docs"}, m.Value(), "body").Int() // want `Script.Run is fenced with Mutex.Value\(\) \(line 137\), which is not a fencing token`
	if err == nil && ok == 0 {
		return sql.ErrNoRows
	}
	return err
}

// A ledger stamps its own writes with the clock.
type ledger struct{ db *sql.DB }

func (l *ledger) record(ctx context.Context, body string) error {
	res, err := l.db.ExecContext(ctx, update, body, time.Now().UnixMilli(), 1) // want `is fenced with time.Now\(\).UnixMilli\(\) \(line 148\), which is not a fencing token: clocks of different holders disagree`
	return checked(res, err)
}

// underLock calls the ledger while holding the mutex.
func underLock(ctx context.Context, l *ledger, rs *redsync.Redsync) error {
	m := rs.NewMutex("docs")
	if err := m.Lock(); err != nil {
		return err
	}
	err := l.record(ctx, "body")
	m.Unlock()
	return err
}

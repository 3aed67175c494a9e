// Package redislocks holds workers guarded by Redis locks: redsync,
// bsm/redislock and a hand-rolled SET NX lock.
package redislocks

import (
	"context"
	"database/sql"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

const lockKey = "lock:report"

// handRolled takes a SET NX lock; its own DEL is not a protected write, the
// report write is.
func handRolled(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, lockKey, token, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	rdb.PExpire(ctx, lockKey, 10*time.Second)
	return rdb.Set(ctx, "report:latest", "...", 0).Err() // want `Set writes to Redis without a fencing token while the Redis lock taken by SetNX \(line 20\) is held`
}

// letGo deletes its SET NX key once the report is written: the mark
// after it is made under no lease.
func letGo(ctx context.Context, rdb *redis.Client, day string) error {
	key := "lock:report:" + day
	ok, err := rdb.SetNX(ctx, key, "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	if err := rdb.Set(ctx, "report:"+day, "...", 0).Err(); err != nil { // want `Set writes to Redis without a fencing token while the Redis lock taken by SetNX`
		return err
	}
	if err := rdb.Del(ctx, "report:pending:"+day).Err(); err != nil { // want `Del writes to Redis without a fencing token`
		return err
	}
	if err := rdb.Del(ctx, key).Err(); err != nil {
		return err
	}
	return rdb.Set(ctx, "report:done:"+day, "1", 0).Err()
}

// notAcquired writes only where SET NX failed.
func notAcquired(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, lockKey, "me", 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return rdb.Incr(ctx, "report:skipped").Err()
	}
	defer rdb.Del(ctx, lockKey)
	return nil
}

var fenceScript = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1`)

// fencedScript writes through a script that compares the stored fence.
func fencedScript(ctx context.Context, rdb *redis.Client, rs *redsync.Redsync, fence int64) error {
	m := rs.NewMutex("report")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return fenceScript.Run(ctx, rdb, []string{"report:fence", "report:latest"}, fence, "...").Err()
}

// watched writes in WATCH/MULTI, which aborts when the fence key moved.
func watched(ctx context.Context, rdb *redis.Client, rs *redsync.Redsync) error {
	m := rs.NewMutex("report")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "report:latest", "...", 0)
			return nil
		})
		return err
	}, "report:fence")
}

// redsyncToSQL writes SQL with no fence under a redsync mutex.
func redsyncToSQL(ctx context.Context, db *sql.DB, rs *redsync.Redsync) error {
	m := rs.NewMutex("invoices")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := db.ExecContext(ctx, `DELETE FROM invoices WHERE state = 'draft'`) // want `DB.ExecContext \(DELETE invoices\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock`
	return err
}

// obtained writes under bsm/redislock through a UniversalClient.
func obtained(ctx context.Context, rdb redis.UniversalClient, locker *redislock.Client) error {
	lock, err := locker.Obtain(ctx, "export", 30*time.Second, nil)
	if err == redislock.ErrNotObtained {
		return nil
	} else if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return rdb.HSet(ctx, "export:state", "phase", "done").Err() // want `HSet writes to Redis without a fencing token while the bsm/redislock lock taken by Client.Obtain`
}

// setArgsNX takes the lock with SET ... NX through SetArgs.
func setArgsNX(ctx context.Context, rdb *redis.Client, seat, user string) error {
	err := rdb.SetArgs(ctx, "lock:seat:"+seat, "me", redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err()
	if err != nil {
		return err
	}
	defer rdb.Del(ctx, "lock:seat:"+seat)
	return rdb.Set(ctx, "seat:"+seat, user, 0).Err() // want `Set writes to Redis without a fencing token while the Redis lock taken by SetArgs`
}

// setArgsPlain is an ordinary write with SetArgs: no lock.
func setArgsPlain(ctx context.Context, rdb *redis.Client) error {
	return rdb.SetArgs(ctx, "greeting", "hi", redis.SetArgs{TTL: time.Minute}).Err()
}

// fakeLostLock overwrites the lock's own key, as tests do to simulate a
// lost lock: that is the lock, not data it protects.
func fakeLostLock(ctx context.Context, rdb *redis.Client, locker *redislock.Client) error {
	lock, err := locker.Obtain(ctx, "lock:export", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return rdb.Set(ctx, "lock:export", "someone-else", 0).Err()
}

// drain takes the whole analytics list in one MULTI/EXEC (LRANGE 0 -1,
// then DEL): every record goes to exactly one pump, lease or not, so the
// DEL needs no fence (hard negatives, a list, a set and a hash).
func drain(ctx context.Context, rdb redis.UniversalClient, rs *redsync.Redsync, key string) ([]string, error) {
	m := rs.NewMutex("lock:pump")
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	defer m.UnlockContext(ctx)
	var vals *redis.StringSliceCmd
	if _, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		vals = pipe.LRange(ctx, key, 0, -1)
		pipe.Del(ctx, key)
		return nil
	}); err != nil {
		return nil, err
	}
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SMembers(ctx, key+":seen")
		pipe.HGetAll(ctx, key+":meta")
		pipe.Unlink(ctx, key+":seen")
		return nil
	})
	return vals.Val(), err
}

// drainLoosely deletes more than its transaction read, or outside one:
// what the DEL removes depends on what a stale holder read (reported).
func drainLoosely(ctx context.Context, rdb redis.UniversalClient, rs *redsync.Redsync, key string) error {
	m := rs.NewMutex("lock:pump")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LRange(ctx, key, 0, 99)
		pipe.Del(ctx, key) // want `Del writes to Redis without a fencing token`
		return nil
	}); err != nil {
		return err
	}
	if _, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LRange(ctx, key, 0, -1)
		pipe.Del(ctx, key) // want `Del writes to Redis without a fencing token`
		return nil
	}); err != nil {
		return err
	}
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LRange(ctx, key, 0, -1)
		pipe.Del(ctx, key+":other") // want `Del writes to Redis without a fencing token`
		return nil
	})
	return err
}

// browse records a visit under the user's lock: the list is judged, the
// TTL it re-arms after it is not (every holder sets the same one), but an
// EXPIRE of 0 deletes the list and is.
func browse(ctx context.Context, rdb *redis.Client, locker *redislock.Client, user, item string) error {
	lock, err := locker.Obtain(ctx, "browse:"+user, 5*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := rdb.LPush(ctx, "history:"+user, item).Err(); err != nil { // want `LPush writes to Redis without a fencing token`
		return err
	}
	if err := rdb.Expire(ctx, "history:"+user, 24*time.Hour).Err(); err != nil {
		return err
	}
	rdb.ExpireAt(ctx, "seen:"+user, time.Now().Add(time.Hour))
	return rdb.Expire(ctx, "recent:"+user, 0).Err() // want `Expire writes to Redis without a fencing token`
}

// Package redismarkers holds SET NX calls that are not locks: markers that
// every caller refreshes whether or not its SET NX won (a "seen recently"
// flag with a sliding TTL), next to hand-rolled locks whose keys are
// rebuilt where they are renewed and released.
package redismarkers

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type userID [12]byte

func (id userID) Hex() string { return fmt.Sprintf("%x", id[:]) }

// seenOnline dedupes the login log to one row per session per 10 minutes.
// The SET NX key is extended by every request, also by those whose SET NX
// found it there: nobody holds it exclusively, so it guards nothing and
// the writes after it are not made under a lease.
func seenOnline(ctx context.Context, rdb *redis.Client, db *sql.DB, id userID, token string) bool {
	set, err := rdb.SetNX(ctx, "ONLINE"+id.Hex()+token, true, 10*time.Minute).Result()
	if err != nil {
		return false
	}
	rdb.Expire(ctx, "ONLINE"+id.Hex()+token, 10*time.Minute)
	if set {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM users WHERE id = $1", id.Hex()).Scan(&n); err != nil || n == 0 {
			rdb.Del(ctx, "LOGIN"+token)
			return false
		}
		rdb.Expire(ctx, "LOGIN"+token, 30*24*time.Hour)
		db.ExecContext(ctx, "INSERT INTO login_log (user_id, at) VALUES ($1, now())", id.Hex())
	}
	return true
}

// throttled is the same marker read through Val.
func throttled(ctx context.Context, rdb *redis.Client, key string) error {
	first := rdb.SetNX(ctx, fmt.Sprintf("seen:%s", key), 1, time.Minute).Val()
	rdb.Expire(ctx, fmt.Sprintf("seen:%s", key), time.Minute)
	if !first {
		return nil
	}
	return rdb.Set(ctx, "last:"+key, time.Now().Unix(), 0).Err()
}

// rebuiltKey is a lock: only the winner touches the key again. Its release
// rebuilds the key with the same Sprintf, which is still the lock's own
// key, not a protected write; the report write is.
func rebuiltKey(ctx context.Context, rdb *redis.Client, job string) error {
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("lock:%s", job), 1, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, fmt.Sprintf("lock:%s", job))
	return rdb.Set(ctx, "report:"+job, "...", 0).Err() // want `Set writes to Redis without a fencing token while the Redis lock taken by SetNX \(line 57\) is held`
}

// renewedByWinner is a lock that its winner extends: the Expire of its key
// is on the path where SET NX succeeded only.
func renewedByWinner(ctx context.Context, rdb *redis.Client, id userID) error {
	ok, err := rdb.SetNX(ctx, "job:"+id.Hex(), 1, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	rdb.Expire(ctx, "job:"+id.Hex(), time.Minute)
	defer rdb.Del(ctx, "job:"+id.Hex())
	return rdb.HSet(ctx, "jobs", id.Hex(), "done").Err() // want `HSet writes to Redis without a fencing token while the Redis lock taken by SetNX \(line 68\) is held`
}

// otherKeyRefreshed is a lock: what every caller extends is another key
// (the job's heartbeat), not the lock's. Re-arming that key's TTL writes
// no data, and is not judged.
func otherKeyRefreshed(ctx context.Context, rdb *redis.Client, job string) error {
	ok, err := rdb.SetNX(ctx, "lock:"+job, 1, 10*time.Second).Result()
	if err != nil {
		return err
	}
	rdb.Expire(ctx, "heartbeat:"+job, time.Minute)
	if !ok {
		return nil
	}
	defer rdb.Del(ctx, "lock:"+job)
	return rdb.Set(ctx, "result:"+job, "...", 0).Err() // want `Set writes to Redis without a fencing token while the Redis lock taken by SetNX \(line 84\) is held`
}

// queueStore is the application's own Redis wrapper.
type queueStore struct{ rdb *redis.Client }

func (s *queueStore) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, key, value, ttl).Result()
}

// joinQueue records the player's match parameters once (SET NX of the
// encoded parameters, which the matchmaker reads back): a record created
// if absent, not a lock, so the queue push after it is no write under a
// lease.
func joinQueue(ctx context.Context, s *queueStore, player string, params map[string]string) error {
	doc, err := json.Marshal(params)
	if err != nil {
		return err
	}
	inserted, err := s.SetNX(ctx, "queue:params:"+player, string(doc), 5*time.Minute)
	if err != nil || !inserted {
		return err
	}
	return s.rdb.RPush(ctx, "queue:players", player).Err()
}

// joinLocked takes a lock on the player through the same wrapper first:
// its value is an owner's token, so the push is made under the lock.
func joinLocked(ctx context.Context, s *queueStore, player, owner string) error {
	ok, err := s.SetNX(ctx, "queue:lock:"+player, owner, 5*time.Second)
	if err != nil || !ok {
		return err
	}
	return s.rdb.RPush(ctx, "queue:players", player).Err() // want `writes to Redis without a fencing token`
}

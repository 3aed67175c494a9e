package redislocks

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

// keepNewer stores an order's state only when its version is newer than
// the stored one; the version is compared only where one is stored.
var keepNewer = redis.NewScript(`
local stored = redis.call('HGET', KEYS[1], 'version')
if stored then
	if tonumber(ARGV[1]) <= tonumber(stored) then
		return 0
	end
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'state', ARGV[2])
redis.call('EXPIRE', KEYS[1], 86400)
return 1`)

// touchLater stamps the order only where no stamp is stored, or where the
// stored one is older; otherwise it refreshes a different key.
var touchLater = redis.NewScript(`
local stamp = redis.call('GET', KEYS[1])
if stamp then
	if tonumber(ARGV[1]) <= tonumber(stamp) then
		redis.call('INCR', KEYS[2])
	end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

// applyOrderEvent applies a webhook's order event under the order's lock.
// The state write is fenced by the event's version in the script; the
// stamp is written whatever the stored one says.
func applyOrderEvent(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, order string, version int64, state string) error {
	m := rs.NewMutex("order:"+order, redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if err := keepNewer.Run(ctx, rdb, []string{"order:" + order}, version, state).Err(); err != nil {
		return err
	}
	return touchLater.Run(ctx, rdb, []string{"order:stamp:" + order, "order:stale:" + order}, version).Err() // want `Script.Run writes to Redis without a fencing token`
}

package tokenflow

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// lateIncr draws the fence with INCR after SET NX.
func lateIncr(ctx context.Context, rdb *redis.Client) {
	ok, err := rdb.SetNX(ctx, "lock:r", "me", 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Del(ctx, "lock:r")
	tok := rdb.Incr(ctx, "fence:r").Val() // want "draws a token"
	probe(tok)                            // want `late-drawn Incr\(\).Val\(\)`
	rdb.Incr(ctx, "runs").Err()
}

var acquire = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`)

// atomicFence sets the lock and increments the fence in one script.
func atomicFence(ctx context.Context, rdb *redis.Client) { // the script is the lock itself: no write fact
	tok, err := acquire.Run(ctx, rdb, []string{"lock:r", "fence:r"}, "me", 10000).Int64()
	if err != nil || tok == 0 {
		return
	}
	probe(tok) // want `monotonic the Lua script`
}

// lateScriptIncr increments the fence in a script of its own after SET NX.
func lateScriptIncr(ctx context.Context, rdb *redis.Client) {
	ok, err := rdb.SetNX(ctx, "lock:r", "me", 10*time.Second).Result()
	if err != nil || !ok {
		return
	}
	tok, err := rdb.Eval(ctx, "return redis.call('INCR', KEYS[1])", []string{"fence:r"}).Int64() // want "draws a token"
	if err == nil {
		probe(tok) // want `late-drawn the Lua script's INCR`
	}
	rdb.Del(ctx, "lock:r")
}

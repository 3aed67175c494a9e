// Package redis is a stub of github.com/zeromicro/go-zero/core/stores/redis
// v1.7.3 for analysistest fixtures: real signatures (the writes the
// catalog names, a few reads), no behaviour.
package redis

import (
	"context"
	"time"

	red "github.com/redis/go-redis/v9"
)

// Script is go-redis's Script.
type Script = red.Script

// NewScript returns a Script of the given Lua source.
func NewScript(script string) *Script { return red.NewScript(script) }

// A Pair is a member of a sorted set with its score.
type Pair struct {
	Key   string
	Score int64
}

// A RedisNode is a node the blocking commands run on.
type RedisNode interface{}

// A Redis is a Redis node or cluster.
type Redis struct{ Addr string }

// A RedisLock is a lock held in Redis under a random value.
type RedisLock struct {
	store   *Redis
	seconds uint32
	key     string
	id      string
}

// NewRedisLock returns a RedisLock on key.
func NewRedisLock(store *Redis, key string) *RedisLock { return &RedisLock{store: store, key: key} }

func (rl *RedisLock) Acquire() (_ bool, _ error)                       { return }
func (rl *RedisLock) AcquireCtx(ctx context.Context) (_ bool, _ error) { return }
func (rl *RedisLock) Release() (_ bool, _ error)                       { return }
func (rl *RedisLock) ReleaseCtx(ctx context.Context) (_ bool, _ error) { return }
func (rl *RedisLock) SetExpire(seconds int)                            { rl.seconds = uint32(seconds) }

func (s *Redis) BitOpAnd(destKey string, keys ...string) (_ int64, _ error) { return }

func (s *Redis) BitOpAndCtx(ctx context.Context, destKey string, keys ...string) (_ int64, _ error) {
	return
}

func (s *Redis) BitOpNot(destKey, key string) (_ int64, _ error) { return }

func (s *Redis) BitOpNotCtx(ctx context.Context, destKey, key string) (_ int64, _ error) { return }

func (s *Redis) BitOpOr(destKey string, keys ...string) (_ int64, _ error) { return }

func (s *Redis) BitOpOrCtx(ctx context.Context, destKey string, keys ...string) (_ int64, _ error) {
	return
}

func (s *Redis) BitOpXor(destKey string, keys ...string) (_ int64, _ error) { return }

func (s *Redis) BitOpXorCtx(ctx context.Context, destKey string, keys ...string) (_ int64, _ error) {
	return
}

func (s *Redis) BlpopWithTimeout(node RedisNode, timeout time.Duration, key string) (_ string, _ error) {
	return
}

func (s *Redis) BlpopWithTimeoutCtx(ctx context.Context, node RedisNode, timeout time.Duration,
	key string) (_ string, _ error) {
	return
}

func (s *Redis) Decr(key string) (_ int64, _ error) { return }

func (s *Redis) DecrCtx(ctx context.Context, key string) (_ int64, _ error) { return }

func (s *Redis) Decrby(key string, decrement int64) (_ int64, _ error) { return }

func (s *Redis) DecrbyCtx(ctx context.Context, key string, decrement int64) (_ int64, _ error) {
	return
}

func (s *Redis) Del(keys ...string) (_ int, _ error) { return }

func (s *Redis) DelCtx(ctx context.Context, keys ...string) (_ int, _ error) { return }

func (s *Redis) Eval(script string, keys []string, args ...any) (_ any, _ error) { return }

func (s *Redis) EvalCtx(ctx context.Context, script string, keys []string,
	args ...any) (_ any, _ error) {
	return
}

func (s *Redis) EvalSha(sha string, keys []string, args ...any) (_ any, _ error) { return }

func (s *Redis) EvalShaCtx(ctx context.Context, sha string, keys []string,
	args ...any) (_ any, _ error) {
	return
}

func (s *Redis) Expire(key string, seconds int) (_ error) { return }

func (s *Redis) ExpireCtx(ctx context.Context, key string, seconds int) (_ error) { return }

func (s *Redis) Expireat(key string, expireTime int64) (_ error) { return }

func (s *Redis) ExpireatCtx(ctx context.Context, key string, expireTime int64) (_ error) { return }

func (s *Redis) Get(key string) (_ string, _ error) { return }

func (s *Redis) GetCtx(ctx context.Context, key string) (_ string, _ error) { return }

func (s *Redis) GetSet(key, value string) (_ string, _ error) { return }

func (s *Redis) GetSetCtx(ctx context.Context, key, value string) (_ string, _ error) { return }

func (s *Redis) Hdel(key string, fields ...string) (_ bool, _ error) { return }

func (s *Redis) HdelCtx(ctx context.Context, key string, fields ...string) (_ bool, _ error) { return }

func (s *Redis) Hget(key, field string) (_ string, _ error) { return }

func (s *Redis) HgetCtx(ctx context.Context, key, field string) (_ string, _ error) { return }

func (s *Redis) Hincrby(key, field string, increment int) (_ int, _ error) { return }

func (s *Redis) HincrbyCtx(ctx context.Context, key, field string, increment int) (_ int, _ error) {
	return
}

func (s *Redis) HincrbyFloat(key, field string, increment float64) (_ float64, _ error) { return }

func (s *Redis) HincrbyFloatCtx(ctx context.Context, key, field string, increment float64) (_ float64, _ error) {
	return
}

func (s *Redis) Hset(key, field, value string) (_ error) { return }

func (s *Redis) HsetCtx(ctx context.Context, key, field, value string) (_ error) { return }

func (s *Redis) Hsetnx(key, field, value string) (_ bool, _ error) { return }

func (s *Redis) HsetnxCtx(ctx context.Context, key, field, value string) (_ bool, _ error) { return }

func (s *Redis) Hmset(key string, fieldsAndValues map[string]string) (_ error) { return }

func (s *Redis) HmsetCtx(ctx context.Context, key string, fieldsAndValues map[string]string) (_ error) {
	return
}

func (s *Redis) Incr(key string) (_ int64, _ error) { return }

func (s *Redis) IncrCtx(ctx context.Context, key string) (_ int64, _ error) { return }

func (s *Redis) Incrby(key string, increment int64) (_ int64, _ error) { return }

func (s *Redis) IncrbyCtx(ctx context.Context, key string, increment int64) (_ int64, _ error) {
	return
}

func (s *Redis) IncrbyFloat(key string, increment float64) (_ float64, _ error) { return }

func (s *Redis) IncrbyFloatCtx(ctx context.Context, key string, increment float64) (_ float64, _ error) {
	return
}

func (s *Redis) Lpop(key string) (_ string, _ error) { return }

func (s *Redis) LpopCtx(ctx context.Context, key string) (_ string, _ error) { return }

func (s *Redis) LpopCount(key string, count int) (_ []string, _ error) { return }

func (s *Redis) LpopCountCtx(ctx context.Context, key string, count int) (_ []string, _ error) {
	return
}

func (s *Redis) Lpush(key string, values ...any) (_ int, _ error) { return }

func (s *Redis) LpushCtx(ctx context.Context, key string, values ...any) (_ int, _ error) { return }

func (s *Redis) Lrem(key string, count int, value string) (_ int, _ error) { return }

func (s *Redis) LremCtx(ctx context.Context, key string, count int, value string) (_ int, _ error) {
	return
}

func (s *Redis) Ltrim(key string, start, stop int64) (_ error) { return }

func (s *Redis) LtrimCtx(ctx context.Context, key string, start, stop int64) (_ error) { return }

func (s *Redis) Mset(fieldsAndValues ...any) (_ string, _ error) { return }

func (s *Redis) MsetCtx(ctx context.Context, fieldsAndValues ...any) (_ string, _ error) { return }

func (s *Redis) Persist(key string) (_ bool, _ error) { return }

func (s *Redis) PersistCtx(ctx context.Context, key string) (_ bool, _ error) { return }

func (s *Redis) Pfadd(key string, values ...any) (_ bool, _ error) { return }

func (s *Redis) PfaddCtx(ctx context.Context, key string, values ...any) (_ bool, _ error) { return }

func (s *Redis) Pfmerge(dest string, keys ...string) (_ error) { return }

func (s *Redis) PfmergeCtx(ctx context.Context, dest string, keys ...string) (_ error) { return }

func (s *Redis) Publish(channel string, message interface{}) (_ int64, _ error) { return }

func (s *Redis) PublishCtx(ctx context.Context, channel string, message interface{}) (_ int64, _ error) {
	return
}

func (s *Redis) Rpop(key string) (_ string, _ error) { return }

func (s *Redis) RpopCtx(ctx context.Context, key string) (_ string, _ error) { return }

func (s *Redis) RpopCount(key string, count int) (_ []string, _ error) { return }

func (s *Redis) RpopCountCtx(ctx context.Context, key string, count int) (_ []string, _ error) {
	return
}

func (s *Redis) Rpush(key string, values ...any) (_ int, _ error) { return }

func (s *Redis) RpushCtx(ctx context.Context, key string, values ...any) (_ int, _ error) { return }

func (s *Redis) RPopLPush(source string, destination string) (_ string, _ error) { return }

func (s *Redis) RPopLPushCtx(ctx context.Context, source string, destination string) (_ string, _ error) {
	return
}

func (s *Redis) Sadd(key string, values ...any) (_ int, _ error) { return }

func (s *Redis) SaddCtx(ctx context.Context, key string, values ...any) (_ int, _ error) { return }

func (s *Redis) SetBit(key string, offset int64, value int) (_ int, _ error) { return }

func (s *Redis) SetBitCtx(ctx context.Context, key string, offset int64, value int) (_ int, _ error) {
	return
}

func (s *Redis) ScriptRun(script *Script, keys []string, args ...any) (_ any, _ error) { return }

func (s *Redis) ScriptRunCtx(ctx context.Context, script *Script, keys []string,
	args ...any) (_ any, _ error) {
	return
}

func (s *Redis) Set(key, value string) (_ error) { return }

func (s *Redis) SetCtx(ctx context.Context, key, value string) (_ error) { return }

func (s *Redis) Setex(key, value string, seconds int) (_ error) { return }

func (s *Redis) SetexCtx(ctx context.Context, key, value string, seconds int) (_ error) { return }

func (s *Redis) Setnx(key, value string) (_ bool, _ error) { return }

func (s *Redis) SetnxCtx(ctx context.Context, key, value string) (_ bool, _ error) { return }

func (s *Redis) SetnxEx(key, value string, seconds int) (_ bool, _ error) { return }

func (s *Redis) SetnxExCtx(ctx context.Context, key, value string, seconds int) (_ bool, _ error) {
	return
}

func (s *Redis) Spop(key string) (_ string, _ error) { return }

func (s *Redis) SpopCtx(ctx context.Context, key string) (_ string, _ error) { return }

func (s *Redis) Srem(key string, values ...any) (_ int, _ error) { return }

func (s *Redis) SremCtx(ctx context.Context, key string, values ...any) (_ int, _ error) { return }

func (s *Redis) Sunionstore(destination string, keys ...string) (_ int, _ error) { return }

func (s *Redis) SunionstoreCtx(ctx context.Context, destination string, keys ...string) (_ int, _ error) {
	return
}

func (s *Redis) Sdiffstore(destination string, keys ...string) (_ int, _ error) { return }

func (s *Redis) SdiffstoreCtx(ctx context.Context, destination string, keys ...string) (_ int, _ error) {
	return
}

func (s *Redis) Sinterstore(destination string, keys ...string) (_ int, _ error) { return }

func (s *Redis) SinterstoreCtx(ctx context.Context, destination string, keys ...string) (_ int, _ error) {
	return
}

func (s *Redis) Ttl(key string) (_ int, _ error) { return }

func (s *Redis) TtlCtx(ctx context.Context, key string) (_ int, _ error) { return }

func (s *Redis) Unlink(keys ...string) (_ int64, _ error) { return }

func (s *Redis) UnlinkCtx(ctx context.Context, keys ...string) (_ int64, _ error) { return }

func (s *Redis) Zadd(key string, score int64, value string) (_ bool, _ error) { return }

func (s *Redis) ZaddCtx(ctx context.Context, key string, score int64, value string) (_ bool, _ error) {
	return
}

func (s *Redis) ZaddFloat(key string, score float64, value string) (_ bool, _ error) { return }

func (s *Redis) ZaddFloatCtx(ctx context.Context, key string, score float64, value string) (_ bool, _ error) {
	return
}

func (s *Redis) Zadds(key string, ps ...Pair) (_ int64, _ error) { return }

func (s *Redis) ZaddsCtx(ctx context.Context, key string, ps ...Pair) (_ int64, _ error) { return }

func (s *Redis) Zincrby(key string, increment int64, field string) (_ int64, _ error) { return }

func (s *Redis) ZincrbyCtx(ctx context.Context, key string, increment int64, field string) (_ int64, _ error) {
	return
}

func (s *Redis) Zrem(key string, values ...any) (_ int, _ error) { return }

func (s *Redis) ZremCtx(ctx context.Context, key string, values ...any) (_ int, _ error) { return }

func (s *Redis) Zremrangebyscore(key string, start, stop int64) (_ int, _ error) { return }

func (s *Redis) ZremrangebyscoreCtx(ctx context.Context, key string, start, stop int64) (_ int, _ error) {
	return
}

func (s *Redis) Zremrangebyrank(key string, start, stop int64) (_ int, _ error) { return }

func (s *Redis) ZremrangebyrankCtx(ctx context.Context, key string, start, stop int64) (_ int, _ error) {
	return
}

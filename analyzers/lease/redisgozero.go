package lease

import (
	"slices"
	"strings"
)

// go-zero's Redis store (github.com/zeromicro/go-zero/core/stores/redis)
// wraps go-redis in a *Redis whose methods name the commands in their own
// spelling (Hset, Setex, Zadd) and come in pairs, with and without a
// leading context (Hset and HsetCtx). Its RedisLock is the lock go-zero
// services take:
//
//	lock := redis.NewRedisLock(svcCtx.Redis, key)
//	lock.SetExpire(10)
//	ok, err := lock.AcquireCtx(ctx) // SET key id NX PX, or PEXPIRE if id holds it
//	...
//	defer lock.ReleaseCtx(ctx) // DEL if the value is still id
//
// Its value is a random string, compared only by its own release, and it
// expires after SetExpire's seconds (half a second when SetExpire is never
// called): a lease with no token, the same as a SET NX. Acquire called
// again while held extends it, which the catalog does not call a renewal:
// the region it opens is the same.
//
// The writes are go-redis's commands: the rows below say which, and
// redisMethod gives each its go-redis name, so that what the model knows
// of a command (a DEL that lets a SET NX lock go, a key built from a fresh
// identifier, an EXPIRE that only rearms a TTL) holds for both clients.
// go-zero has no WATCH: its writes are fenced only by a Lua script that
// compares a stored fence (Eval, ScriptRun, as for go-redis).

// pkgGoZeroRedis is go-zero's Redis store.
const pkgGoZeroRedis = "github.com/zeromicro/go-zero/core/stores/redis"

// goZeroRedisCatalog returns the catalog rows of go-zero's Redis store
// and its RedisLock.
func goZeroRedisCatalog() []API {
	c := []API{
		{Pkg: pkgGoZeroRedis, Recv: "RedisLock", Name: "Acquire", Role: RoleTryAcquire, System: GoZero},
		{Pkg: pkgGoZeroRedis, Recv: "RedisLock", Name: "AcquireCtx", Role: RoleTryAcquire, System: GoZero},
		{Pkg: pkgGoZeroRedis, Recv: "RedisLock", Name: "Release", Role: RoleRelease, System: GoZero},
		{Pkg: pkgGoZeroRedis, Recv: "RedisLock", Name: "ReleaseCtx", Role: RoleRelease, System: GoZero},
	}
	// Arg counts the context, as on go-redis's rows: apiArg reads the
	// form without one a place to the left (redisArg).
	both := func(name string, api API) {
		api.Pkg, api.Recv, api.System = pkgGoZeroRedis, "Redis", Redis
		api.Name = name
		c = append(c, api)
		api.Name = name + "Ctx"
		c = append(c, api)
	}
	for _, w := range goZeroRedisWrites() {
		role := RoleWrite
		if w.redis == "Incr" || w.redis == "IncrBy" {
			role |= RoleCounter
		}
		if slices.Contains(redisRefreshes(), w.redis) {
			role |= RoleRefresh
		}
		both(w.zero, API{Role: role})
	}
	both("Publish", API{Role: RoleMessage})
	// SETNX with no expiry seeds a value once; with one, it claims a lock.
	both("Setnx", API{Role: RoleFenced})
	both("SetnxEx", API{Role: RoleTryAcquire})
	both("Eval", API{Role: RoleWrite, Fence: RedisScript, Arg: 1})
	both("EvalSha", API{Role: RoleWrite, Fence: RedisScript, Arg: 1})
	both("ScriptRun", API{Role: RoleWrite, Fence: RedisScript, Arg: 1})
	both("Ttl", API{Role: RoleCheck, Held: LockKeyAt, Arg: 1})
	return c
}

// A goZeroWrite is one of go-zero's Redis writes: its method's name (the
// Ctx form adds the suffix) and go-redis's for the same command.
type goZeroWrite struct{ zero, redis string }

// goZeroRedisWrites lists the go-zero Redis methods that change data, as
// redisWrites does for go-redis. Left out: GetDel (v1.8 on), and GeoAdd
// and Zunionstore, which take go-redis's types.
func goZeroRedisWrites() []goZeroWrite {
	return []goZeroWrite{
		{"Set", "Set"}, {"Setex", "SetEx"}, {"GetSet", "GetSet"}, {"Mset", "MSet"},
		{"Incr", "Incr"}, {"Incrby", "IncrBy"}, {"IncrbyFloat", "IncrByFloat"}, {"Decr", "Decr"},
		{"Decrby", "DecrBy"}, {"Del", "Del"}, {"Unlink", "Unlink"}, {"Expire", "Expire"},
		{"Expireat", "ExpireAt"}, {"Persist", "Persist"}, {"Hset", "HSet"}, {"Hmset", "HMSet"},
		{"Hsetnx", "HSetNX"}, {"Hdel", "HDel"}, {"Hincrby", "HIncrBy"}, {"HincrbyFloat", "HIncrByFloat"},
		{"Lpush", "LPush"}, {"Rpush", "RPush"}, {"Lpop", "LPop"}, {"LpopCount", "LPopCount"},
		{"Rpop", "RPop"}, {"RpopCount", "RPopCount"}, {"Lrem", "LRem"}, {"Ltrim", "LTrim"},
		{"RPopLPush", "RPopLPush"}, {"Sadd", "SAdd"}, {"Srem", "SRem"}, {"Spop", "SPop"},
		{"Sunionstore", "SUnionStore"}, {"Sdiffstore", "SDiffStore"}, {"Sinterstore", "SInterStore"},
		{"Zadd", "ZAdd"}, {"ZaddFloat", "ZAdd"}, {"Zadds", "ZAdd"}, {"Zincrby", "ZIncrBy"},
		{"Zrem", "ZRem"}, {"Zremrangebyscore", "ZRemRangeByScore"}, {"Zremrangebyrank", "ZRemRangeByRank"},
		{"SetBit", "SetBit"}, {"BitOpAnd", "BitOpAnd"},
		{"BitOpOr", "BitOpOr"}, {"BitOpXor", "BitOpXor"}, {"BitOpNot", "BitOpNot"}, {"Pfadd", "PFAdd"},
		{"Pfmerge", "PFMerge"},
	}
}

// goZeroMethod returns the go-redis name of one of go-zero's Redis
// methods: Hset and HsetCtx are HSet; a method with no go-redis twin in
// goZeroRedisWrites keeps its name, less Ctx.
func goZeroMethod(name string) string {
	name = strings.TrimSuffix(name, "Ctx")
	for _, w := range goZeroRedisWrites() {
		if w.zero == name {
			return w.redis
		}
	}
	return name
}

// goZeroCommand returns the Redis command a go-zero Redis method sends, in
// upper case (Blpop, BlpopWithTimeoutCtx: BLPOP).
func goZeroCommand(method string) string {
	name := goZeroMethod(method)
	if strings.HasPrefix(name, "Blpop") {
		return "BLPOP"
	}
	return strings.ToUpper(name)
}

// redisMethod returns the go-redis name of the command a catalogued Redis
// row sends: go-zero's Hset and HsetCtx are go-redis's HSet.
func redisMethod(api *API) string {
	if api.Pkg != pkgGoZeroRedis {
		return api.Name
	}
	return goZeroMethod(api.Name)
}

package redis

import (
	"context"
	"time"
)

// KeepTTL is a Redis KEEPTTL option to keep existing TTL.
const KeepTTL = -1

type Cmdable interface {
	Pipeline() Pipeliner
	Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)

	TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	TxPipeline() Pipeliner

	Ping(ctx context.Context) *StatusCmd
	Unlink(ctx context.Context, keys ...string) *IntCmd
	FlushDB(ctx context.Context) *StatusCmd
	FlushAll(ctx context.Context) *StatusCmd

	GenericCmdable
	HashCmdable
	ListCmdable
	PubSubCmdable
	ScriptingFunctionsCmdable
	SetCmdable
	SortedSetCmdable
	StringCmdable
	StreamCmdable
	BitMapCmdable
	HyperLogLogCmdable
}

type StatefulCmdable interface {
	Cmdable
	Select(ctx context.Context, index int) *StatusCmd
}

type cmdable func(ctx context.Context, cmd Cmder) error

type statefulCmdable func(ctx context.Context, cmd Cmder) error

func (c statefulCmdable) Select(ctx context.Context, index int) (_ *StatusCmd) { return }

func (c cmdable) Do(ctx context.Context, args ...interface{}) (_ *Cmd)   { return }
func (c cmdable) Ping(ctx context.Context) (_ *StatusCmd)                { return }
func (c cmdable) FlushDB(ctx context.Context) (_ *StatusCmd)             { return }
func (c cmdable) Unlink(ctx context.Context, keys ...string) (_ *IntCmd) { return }

type GenericCmdable interface {
	RenameNX(ctx context.Context, key, newkey string) *BoolCmd
	Rename(ctx context.Context, key, newkey string) *StatusCmd
	Persist(ctx context.Context, key string) *BoolCmd
	PExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Exists(ctx context.Context, keys ...string) *IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	ExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd
	PExpire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	PTTL(ctx context.Context, key string) *DurationCmd
	TTL(ctx context.Context, key string) *DurationCmd
}

func (c cmdable) Del(ctx context.Context, keys ...string) (_ *IntCmd)    { return }
func (c cmdable) Exists(ctx context.Context, keys ...string) (_ *IntCmd) { return }
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) (_ *BoolCmd) {
	return
}
func (c cmdable) ExpireAt(ctx context.Context, key string, tm time.Time) (_ *BoolCmd) { return }
func (c cmdable) PExpire(ctx context.Context, key string, expiration time.Duration) (_ *BoolCmd) {
	return
}
func (c cmdable) PTTL(ctx context.Context, key string) (_ *DurationCmd) { return }
func (c cmdable) TTL(ctx context.Context, key string) (_ *DurationCmd)  { return }

type HashCmdable interface {
	HIncrByFloat(ctx context.Context, key, field string, incr float64) *FloatCmd
	HMSet(ctx context.Context, key string, values ...interface{}) *BoolCmd
	HDel(ctx context.Context, key string, fields ...string) *IntCmd
	HGet(ctx context.Context, key, field string) *StringCmd
	HGetAll(ctx context.Context, key string) *MapStringStringCmd
	HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd
	HSet(ctx context.Context, key string, values ...interface{}) *IntCmd
	HSetNX(ctx context.Context, key, field string, value interface{}) *BoolCmd
}

func (c cmdable) HDel(ctx context.Context, key string, fields ...string) (_ *IntCmd)      { return }
func (c cmdable) HGet(ctx context.Context, key, field string) (_ *StringCmd)              { return }
func (c cmdable) HGetAll(ctx context.Context, key string) (_ *MapStringStringCmd)         { return }
func (c cmdable) HIncrBy(ctx context.Context, key, field string, incr int64) (_ *IntCmd)  { return }
func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) (_ *IntCmd) { return }
func (c cmdable) HSetNX(ctx context.Context, key, field string, value interface{}) (_ *BoolCmd) {
	return
}

type ListCmdable interface {
	LTrim(ctx context.Context, key string, start, stop int64) *StatusCmd
	LRem(ctx context.Context, key string, count int64, value interface{}) *IntCmd
	LSet(ctx context.Context, key string, index int64, value interface{}) *StatusCmd
	RPop(ctx context.Context, key string) *StringCmd
	LPop(ctx context.Context, key string) *StringCmd
	LPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	LRange(ctx context.Context, key string, start, stop int64) *StringSliceCmd
	RPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	BLPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd
	BRPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd
}

func (c cmdable) LPush(ctx context.Context, key string, values ...interface{}) (_ *IntCmd) { return }
func (c cmdable) BLPop(ctx context.Context, timeout time.Duration, keys ...string) (_ *StringSliceCmd) {
	return
}
func (c cmdable) BRPop(ctx context.Context, timeout time.Duration, keys ...string) (_ *StringSliceCmd) {
	return
}
func (c cmdable) LRange(ctx context.Context, key string, start, stop int64) (_ *StringSliceCmd) {
	return
}
func (c cmdable) RPush(ctx context.Context, key string, values ...interface{}) (_ *IntCmd) { return }

type PubSubCmdable interface {
	Publish(ctx context.Context, channel string, message interface{}) *IntCmd
	SPublish(ctx context.Context, channel string, message interface{}) *IntCmd
}

func (c cmdable) Publish(ctx context.Context, channel string, message interface{}) (_ *IntCmd) {
	return
}
func (c cmdable) SPublish(ctx context.Context, channel string, message interface{}) (_ *IntCmd) {
	return
}

type ScriptingFunctionsCmdable interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptExists(ctx context.Context, hashes ...string) *BoolSliceCmd
	ScriptLoad(ctx context.Context, script string) *StringCmd
}

func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (c cmdable) EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (c cmdable) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (c cmdable) ScriptExists(ctx context.Context, hashes ...string) (_ *BoolSliceCmd) { return }
func (c cmdable) ScriptLoad(ctx context.Context, script string) (_ *StringCmd)         { return }

type SetCmdable interface {
	SMove(ctx context.Context, source, destination string, member interface{}) *BoolCmd
	SPop(ctx context.Context, key string) *StringCmd
	SAdd(ctx context.Context, key string, members ...interface{}) *IntCmd
	SMembers(ctx context.Context, key string) *StringSliceCmd
	SRem(ctx context.Context, key string, members ...interface{}) *IntCmd
}

func (c cmdable) SAdd(ctx context.Context, key string, members ...interface{}) (_ *IntCmd) { return }
func (c cmdable) SMembers(ctx context.Context, key string) (_ *StringSliceCmd)             { return }
func (c cmdable) SRem(ctx context.Context, key string, members ...interface{}) (_ *IntCmd) { return }

type Z struct {
	Score  float64
	Member interface{}
}

type SortedSetCmdable interface {
	ZRemRangeByRank(ctx context.Context, key string, start, stop int64) *IntCmd
	ZRemRangeByScore(ctx context.Context, key, min, max string) *IntCmd
	ZIncrBy(ctx context.Context, key string, increment float64, member string) *FloatCmd
	ZAddArgs(ctx context.Context, key string, args ZAddArgs) *IntCmd
	ZAdd(ctx context.Context, key string, members ...Z) *IntCmd
	ZRem(ctx context.Context, key string, members ...interface{}) *IntCmd
}

func (c cmdable) ZAdd(ctx context.Context, key string, members ...Z) (_ *IntCmd)           { return }
func (c cmdable) ZRem(ctx context.Context, key string, members ...interface{}) (_ *IntCmd) { return }

type XAddArgs struct {
	Stream     string
	NoMkStream bool
	MaxLen     int64
	MinID      string
	Approx     bool
	Limit      int64
	ID         string
	Values     interface{}
}

type StreamCmdable interface {
	XTrimMaxLen(ctx context.Context, key string, maxLen int64) *IntCmd
	XTrimMaxLenApprox(ctx context.Context, key string, maxLen, limit int64) *IntCmd
	XTrimMaxLenMode(ctx context.Context, key string, maxLen int64, mode string) *IntCmd
	XTrimMaxLenApproxMode(ctx context.Context, key string, maxLen, limit int64, mode string) *IntCmd
	XTrimMinID(ctx context.Context, key string, minID string) *IntCmd
	XTrimMinIDApprox(ctx context.Context, key string, minID string, limit int64) *IntCmd
	XTrimMinIDMode(ctx context.Context, key string, minID string, mode string) *IntCmd
	XTrimMinIDApproxMode(ctx context.Context, key string, minID string, limit int64, mode string) *IntCmd
	XDel(ctx context.Context, stream string, ids ...string) *IntCmd
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
}

func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) (_ *StringCmd) { return }

type StringCmdable interface {
	DecrBy(ctx context.Context, key string, decrement int64) *IntCmd
	IncrByFloat(ctx context.Context, key string, value float64) *FloatCmd
	MSetNX(ctx context.Context, values ...interface{}) *BoolCmd
	Append(ctx context.Context, key, value string) *IntCmd
	Decr(ctx context.Context, key string) *IntCmd
	Get(ctx context.Context, key string) *StringCmd
	GetSet(ctx context.Context, key string, value interface{}) *StringCmd
	GetDel(ctx context.Context, key string) *StringCmd
	Incr(ctx context.Context, key string) *IntCmd
	IncrBy(ctx context.Context, key string, value int64) *IntCmd
	MSet(ctx context.Context, values ...interface{}) *StatusCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetArgs(ctx context.Context, key string, value interface{}, a SetArgs) *StatusCmd
	SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
	SetXX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
}

func (c cmdable) Append(ctx context.Context, key, value string) (_ *IntCmd)                { return }
func (c cmdable) Decr(ctx context.Context, key string) (_ *IntCmd)                         { return }
func (c cmdable) Get(ctx context.Context, key string) (_ *StringCmd)                       { return }
func (c cmdable) GetSet(ctx context.Context, key string, value interface{}) (_ *StringCmd) { return }
func (c cmdable) GetDel(ctx context.Context, key string) (_ *StringCmd)                    { return }
func (c cmdable) Incr(ctx context.Context, key string) (_ *IntCmd)                         { return }
func (c cmdable) IncrBy(ctx context.Context, key string, value int64) (_ *IntCmd)          { return }
func (c cmdable) MSet(ctx context.Context, values ...interface{}) (_ *StatusCmd)           { return }
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) (_ *StatusCmd) {
	return
}

type SetArgs struct {
	Mode        string
	MatchValue  interface{}
	MatchDigest uint64
	TTL         time.Duration
	ExpireAt    time.Time
	Get         bool
	KeepTTL     bool
}

func (c cmdable) SetArgs(ctx context.Context, key string, value interface{}, a SetArgs) (_ *StatusCmd) {
	return
}
func (c cmdable) SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) (_ *StatusCmd) {
	return
}
func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) (_ *BoolCmd) {
	return
}
func (c cmdable) SetXX(ctx context.Context, key string, value interface{}, expiration time.Duration) (_ *BoolCmd) {
	return
}

type BitMapCmdable interface {
	SetBit(ctx context.Context, key string, offset int64, value int) *IntCmd
}

type HyperLogLogCmdable interface {
	PFAdd(ctx context.Context, key string, els ...interface{}) *IntCmd
}

type ZAddArgs struct {
	NX      bool
	XX      bool
	LT      bool
	GT      bool
	Ch      bool
	Members []Z
}

func (c cmdable) MSetNX(ctx context.Context, values ...interface{}) (_ *BoolCmd)           { return }
func (c cmdable) IncrByFloat(ctx context.Context, key string, value float64) (_ *FloatCmd) { return }
func (c cmdable) DecrBy(ctx context.Context, key string, decrement int64) (_ *IntCmd)      { return }
func (c cmdable) PExpireAt(ctx context.Context, key string, tm time.Time) (_ *BoolCmd)     { return }
func (c cmdable) Persist(ctx context.Context, key string) (_ *BoolCmd)                     { return }
func (c cmdable) Rename(ctx context.Context, key, newkey string) (_ *StatusCmd)            { return }
func (c cmdable) RenameNX(ctx context.Context, key, newkey string) (_ *BoolCmd)            { return }
func (c cmdable) HMSet(ctx context.Context, key string, values ...interface{}) (_ *BoolCmd) {
	return
}
func (c cmdable) HIncrByFloat(ctx context.Context, key, field string, incr float64) (_ *FloatCmd) {
	return
}
func (c cmdable) LPop(ctx context.Context, key string) (_ *StringCmd) { return }
func (c cmdable) LMove(ctx context.Context, source, destination, srcpos, destpos string) (_ *StringCmd) {
	return
}
func (c cmdable) ZPopMin(ctx context.Context, key string, count ...int64) (_ *ZSliceCmd) { return }
func (c cmdable) ZRank(ctx context.Context, key, member string) (_ *IntCmd)              { return }
func (c cmdable) RPop(ctx context.Context, key string) (_ *StringCmd)                    { return }
func (c cmdable) LSet(ctx context.Context, key string, index int64, value interface{}) (_ *StatusCmd) {
	return
}
func (c cmdable) LRem(ctx context.Context, key string, count int64, value interface{}) (_ *IntCmd) {
	return
}
func (c cmdable) LTrim(ctx context.Context, key string, start, stop int64) (_ *StatusCmd) { return }
func (c cmdable) SPop(ctx context.Context, key string) (_ *StringCmd)                     { return }
func (c cmdable) SMove(ctx context.Context, source, destination string, member interface{}) (_ *BoolCmd) {
	return
}
func (c cmdable) ZAddArgs(ctx context.Context, key string, args ZAddArgs) (_ *IntCmd) { return }
func (c cmdable) ZIncrBy(ctx context.Context, key string, increment float64, member string) (_ *FloatCmd) {
	return
}
func (c cmdable) ZRemRangeByScore(ctx context.Context, key, min, max string) (_ *IntCmd) { return }
func (c cmdable) ZRemRangeByRank(ctx context.Context, key string, start, stop int64) (_ *IntCmd) {
	return
}
func (c cmdable) XDel(ctx context.Context, stream string, ids ...string) (_ *IntCmd) { return }
func (c cmdable) SetBit(ctx context.Context, key string, offset int64, value int) (_ *IntCmd) {
	return
}
func (c cmdable) PFAdd(ctx context.Context, key string, els ...interface{}) (_ *IntCmd) { return }
func (c cmdable) FlushAll(ctx context.Context) (_ *StatusCmd)                           { return }

func (c cmdable) XTrimMaxLen(ctx context.Context, key string, maxLen int64) (_ *IntCmd) { return }
func (c cmdable) XTrimMaxLenApprox(ctx context.Context, key string, maxLen, limit int64) (_ *IntCmd) {
	return
}
func (c cmdable) XTrimMaxLenMode(ctx context.Context, key string, maxLen int64, mode string) (_ *IntCmd) {
	return
}
func (c cmdable) XTrimMaxLenApproxMode(ctx context.Context, key string, maxLen, limit int64, mode string) (_ *IntCmd) {
	return
}
func (c cmdable) XTrimMinID(ctx context.Context, key string, minID string) (_ *IntCmd) { return }
func (c cmdable) XTrimMinIDApprox(ctx context.Context, key string, minID string, limit int64) (_ *IntCmd) {
	return
}
func (c cmdable) XTrimMinIDMode(ctx context.Context, key string, minID string, mode string) (_ *IntCmd) {
	return
}
func (c cmdable) XTrimMinIDApproxMode(ctx context.Context, key string, minID string, limit int64, mode string) (_ *IntCmd) {
	return
}

// Pops, moves and stores (catalogued as writes).

type KeyValuesCmd struct{ baseCmd }
type ZSliceWithKeyCmd struct{ baseCmd }
type ZStore struct{}
type ZRangeArgs struct{}
type GeoLocation struct{}

func (c cmdable) SetRange(ctx context.Context, key string, offset int64, value string) (_ *IntCmd) {
	return
}
func (c cmdable) LPushX(ctx context.Context, key string, values ...interface{}) (_ *IntCmd) { return }
func (c cmdable) RPushX(ctx context.Context, key string, values ...interface{}) (_ *IntCmd) { return }
func (c cmdable) LInsert(ctx context.Context, key, op string, pivot, value interface{}) (_ *IntCmd) {
	return
}
func (c cmdable) LInsertBefore(ctx context.Context, key string, pivot, value interface{}) (_ *IntCmd) {
	return
}
func (c cmdable) LInsertAfter(ctx context.Context, key string, pivot, value interface{}) (_ *IntCmd) {
	return
}
func (c cmdable) LPopCount(ctx context.Context, key string, count int) (_ *StringSliceCmd) { return }
func (c cmdable) RPopCount(ctx context.Context, key string, count int) (_ *StringSliceCmd) { return }
func (c cmdable) LMPop(ctx context.Context, direction string, count int64, keys ...string) (_ *KeyValuesCmd) {
	return
}
func (c cmdable) RPopLPush(ctx context.Context, source, destination string) (_ *StringCmd) { return }
func (c cmdable) SPopN(ctx context.Context, key string, count int64) (_ *StringSliceCmd)   { return }
func (c cmdable) SInterStore(ctx context.Context, destination string, keys ...string) (_ *IntCmd) {
	return
}
func (c cmdable) SUnionStore(ctx context.Context, destination string, keys ...string) (_ *IntCmd) {
	return
}
func (c cmdable) SDiffStore(ctx context.Context, destination string, keys ...string) (_ *IntCmd) {
	return
}
func (c cmdable) ZPopMax(ctx context.Context, key string, count ...int64) (_ *ZSliceCmd) { return }
func (c cmdable) ZMPop(ctx context.Context, order string, count int64, keys ...string) (_ *ZSliceWithKeyCmd) {
	return
}
func (c cmdable) ZRemRangeByLex(ctx context.Context, key, min, max string) (_ *IntCmd)    { return }
func (c cmdable) ZUnionStore(ctx context.Context, dest string, store *ZStore) (_ *IntCmd) { return }
func (c cmdable) ZInterStore(ctx context.Context, destination string, store *ZStore) (_ *IntCmd) {
	return
}
func (c cmdable) ZDiffStore(ctx context.Context, destination string, keys ...string) (_ *IntCmd) {
	return
}
func (c cmdable) ZRangeStore(ctx context.Context, dst string, z ZRangeArgs) (_ *IntCmd) { return }
func (c cmdable) GeoAdd(ctx context.Context, key string, geoLocation ...*GeoLocation) (_ *IntCmd) {
	return
}
func (c cmdable) PFMerge(ctx context.Context, dest string, keys ...string) (_ *StatusCmd)  { return }
func (c cmdable) BitOpAnd(ctx context.Context, destKey string, keys ...string) (_ *IntCmd) { return }
func (c cmdable) BitOpOr(ctx context.Context, destKey string, keys ...string) (_ *IntCmd)  { return }
func (c cmdable) BitOpXor(ctx context.Context, destKey string, keys ...string) (_ *IntCmd) { return }
func (c cmdable) BitOpNot(ctx context.Context, destKey string, key string) (_ *IntCmd)     { return }
func (c cmdable) Copy(ctx context.Context, sourceKey, destKey string, db int, replace bool) (_ *IntCmd) {
	return
}
func (c cmdable) Restore(ctx context.Context, key string, ttl time.Duration, value string) (_ *StatusCmd) {
	return
}
func (c cmdable) RestoreReplace(ctx context.Context, key string, ttl time.Duration, value string) (_ *StatusCmd) {
	return
}
func (c cmdable) SlaveOf(ctx context.Context, host, port string) (_ *StatusCmd) { return }

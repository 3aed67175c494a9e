// Package sortedclaims holds a dispatcher that hands out work from a Redis
// sorted set scored by deadline: it pops the due members and adds them
// back with their next deadline, under a redsync mutex kept in a package
// variable. A pop is a write: a dispatcher paused past the mutex's expiry
// after its pop adds back members the next holder has claimed since.
package sortedclaims

import (
	"context"
	"strconv"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

const due = "due"

var mutex *redsync.Mutex

func score(t time.Time) float64 { return float64(t.UnixMilli()) }

// dispatch pops the three earliest members and schedules them again.
func dispatch(ctx context.Context, rdb *redis.Client) error {
	if err := mutex.Lock(); err != nil {
		return err
	}
	defer mutex.Unlock()
	popped, err := rdb.ZPopMin(ctx, due, 3).Result() // want `ZPopMin writes to Redis without a fencing token while the redsync lock taken by Mutex.Lock \(line 25\) is held`
	if err != nil {
		return err
	}
	for _, z := range popped {
		z.Score = score(time.Now().Add(time.Minute))
		rdb.ZAdd(ctx, due, z) // want `ZAdd writes to Redis without a fencing token`
	}
	return nil
}

// sync adds the members missing from the set.
func sync(ctx context.Context, rdb *redis.Client, ids []int) {
	for _, id := range ids {
		if err := mutex.Lock(); err != nil {
			continue
		}
		member := strconv.Itoa(id)
		if rdb.ZRank(ctx, due, member).Err() != nil {
			rdb.ZAdd(ctx, due, redis.Z{Score: score(time.Now()), Member: member}) // want `ZAdd writes to Redis without a fencing token`
		}
		mutex.Unlock()
	}
}

// consume is a queue consumer with no lock: each pop takes its own
// element, nothing is held, nothing to report.
func consume(ctx context.Context, rdb *redis.Client) (string, error) {
	zs, err := rdb.ZPopMin(ctx, due).Result()
	if err != nil || len(zs) == 0 {
		return "", err
	}
	return rdb.LMove(ctx, "queue", "processing", "LEFT", "RIGHT").Result()
}

// popAfterRelease pops once the mutex is given back.
func popAfterRelease(ctx context.Context, rdb *redis.Client) error {
	if err := mutex.Lock(); err != nil {
		return err
	}
	n, _ := rdb.ZRank(ctx, due, "x").Result()
	mutex.Unlock()
	if n > 0 {
		return rdb.ZPopMin(ctx, due).Err()
	}
	return nil
}

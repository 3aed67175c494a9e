// Command periodicworkers wires the workers into their locks.
package main

import (
	"context"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"periodicworkers/action"
	"periodicworkers/engine"
)

func main() {
	rdb := redis.NewClient(&redis.Options{})
	locker := redislock.New(rdb)
	ctx := context.Background()
	_ = engine.NewLockedWorker(locker, "scenarios", action.NewScenarioWorker(action.NewService(rdb))).Tick(ctx)
	_ = engine.NewLockedToucher(locker, action.NewTouchWorker(action.NewStore(rdb))).Tick(ctx)
	_ = engine.NewLockedArchiver(locker, action.NewArchiveWorker(action.NewRedisArchive(rdb))).Tick(ctx)
	_ = engine.NewLockedArchiver(locker, action.NewArchiveWorker(action.NewRingArchive(rdb))).Tick(ctx)
}

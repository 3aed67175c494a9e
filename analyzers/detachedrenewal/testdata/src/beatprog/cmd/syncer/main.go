// Command syncer wires the heartbeat to the redsync lock.
package main

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"beatprog/heartbeat"
	"beatprog/redislock"
)

func main() {
	ctx := context.Background()
	m := redsync.New().NewMutex("sync")
	if err := m.LockContext(ctx); err != nil {
		return
	}
	heartbeat.New(&redislock.Lock{Mutex: m}).Start(ctx)
}

// Command lockedrepo wires the Redis repository into the commands.
package main

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"

	"lockedrepo/commands"
	"lockedrepo/redisrepo"
)

func main() {
	h := commands.New(redisrepo.New(redis.NewClient(&redis.Options{}), redsync.New()))
	_ = h.Advance(context.Background(), 1)
}

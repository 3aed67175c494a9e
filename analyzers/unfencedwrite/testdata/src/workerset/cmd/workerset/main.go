// Command workerset wires the workers into the leader.
package main

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"

	"workerset/app"
	"workerset/centrals"
	"workerset/clusters"
	"workerset/redisstate"
	"workerset/sqlstate"
)

func main() {
	db, _ := sql.Open("pgx", "")
	l := app.New(redsync.New(), centrals.New(db), clusters.New(db))
	_ = l.Lead(context.Background())
	_ = sqlstate.New(db).SaveProgress(context.Background(), "start")
	_ = redisstate.New(redis.NewClient(&redis.Options{})).SaveProgress(context.Background(), "start")
}

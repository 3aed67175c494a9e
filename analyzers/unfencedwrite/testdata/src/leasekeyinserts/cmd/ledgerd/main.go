package main

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"

	"leasekeyinserts/database"
	"leasekeyinserts/ledger"
)

func main() {
	var db *sql.DB
	var rdb *redis.Client
	l := ledger.New(rdb, db, database.Datasource{Conn: db})
	l.Commit(context.Background(), "txn_1")
}

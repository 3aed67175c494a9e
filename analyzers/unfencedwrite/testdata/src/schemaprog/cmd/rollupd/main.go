package main

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-redsync/redsync/v4"

	"schemaprog/migrations"
	"schemaprog/store"
)

var _ = migrations.FS

func main() {
	var db *sql.DB
	var rs *redsync.Redsync
	s := store.New(rs, db)
	s.Report(context.Background(), time.Now(), 1, "")
}

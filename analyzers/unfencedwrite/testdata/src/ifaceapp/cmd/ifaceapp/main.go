// Command ifaceapp wires the implementations into the service.
package main

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"

	"ifaceapp/app"
	"ifaceapp/pgstore"
	"ifaceapp/redislocker"
)

func main() {
	db, _ := sql.Open("pgx", "")
	store := pgstore.New(db)
	svc := app.New(store, store, redislocker.New(redsync.New()))
	_ = svc.Nightly(context.Background(), "nightly")
}

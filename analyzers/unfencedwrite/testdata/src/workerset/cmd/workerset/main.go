// Command workerset wires the workers into the leader.
package main

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"

	"workerset/app"
	"workerset/centrals"
	"workerset/clusters"
)

func main() {
	db, _ := sql.Open("pgx", "")
	l := app.New(redsync.New(), centrals.New(db), clusters.New(db))
	_ = l.Lead(context.Background())
}

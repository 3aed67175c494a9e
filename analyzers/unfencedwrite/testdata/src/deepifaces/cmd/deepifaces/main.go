// Command deepifaces wires the Postgres run store under the two services.
package main

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"

	"deepifaces/escalate"
	"deepifaces/notify"
	"deepifaces/pgruns"
	"deepifaces/sweep"
)

func main() {
	db, err := sql.Open("postgres", "")
	if err != nil {
		panic(err)
	}
	var rs *redsync.Redsync
	s := sweep.New(rs, escalate.New(notify.New(pgruns.New(db))))
	_ = s.Sweep(context.Background())
}

package main

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"localsqlite/leader"
	"localsqlite/nodes"
)

func main() {
	store, err := nodes.Open("/var/lib/node.db")
	if err != nil {
		panic(err)
	}
	leader.New(&redsync.Redsync{}, store).Sweep(context.Background(), nil)
}

package main

import (
	"context"

	"github.com/go-redsync/redsync/v4"

	"sharedsql/leader"
	"sharedsql/nodes"
)

func main() {
	store, err := nodes.Open("postgres", "postgres://cluster")
	if err != nil {
		panic(err)
	}
	leader.New(&redsync.Redsync{}, store).Sweep(context.Background(), nil)
}

package main

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"embedcoords/clustered"
	"embedcoords/qdb"
)

func main() {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"localhost:2379"}})
	if err != nil {
		panic(err)
	}
	session, err := concurrency.NewSession(cli)
	if err != nil {
		panic(err)
	}
	c := clustered.New(qdb.New(cli), session)
	_ = c.Move(context.Background(), "1")
}

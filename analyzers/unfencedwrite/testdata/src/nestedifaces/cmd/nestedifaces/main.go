// Command nestedifaces wires the etcd client into the controller.
package main

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"

	"nestedifaces/controller"
	"nestedifaces/etcdkv"
	"nestedifaces/segments"
)

func main() {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"localhost:2379"}})
	if err != nil {
		panic(err)
	}
	c := controller.New(cli, etcdkv.New(cli), segments.NewManager())
	_ = c.Lead(context.Background())
}

// Package timer wires the election to the timing wheel: leadership reaches
// the wheel only through SetLeader.
package timer

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flagsetter/election"
	"flagsetter/wheel"
)

func Run(ctx context.Context, client *clientv3.Client) error {
	w := wheel.New(client)
	w.SetActive(true) // at start-up, whoever leads
	pump := wheel.NewPump(client)
	pump.Primary.Store(true)
	e := election.New(client, "/timer/leader")
	go e.Run(ctx, election.Callbacks{
		OnStartedLeading: func(ctx context.Context) {
			w.SetLeader(true)
			w.SetActive(true)
			pump.Leading.Store(true)
			pump.Primary.Store(true)
			pump.MarkMaster(true)
		},
		OnStoppedLeading: func(ctx context.Context) {
			w.SetLeader(false)
			pump.Leading.Store(false)
			pump.MarkMaster(false)
		},
	})
	return w.Start(ctx)
}

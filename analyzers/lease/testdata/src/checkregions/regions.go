// Package checkregions marks with probe() the code a validity check guards
// and the code it does not.
package checkregions

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/hashicorp/raft"
	"k8s.io/client-go/tools/leaderelection"
)

func probe() {}

func ifThen(le *leaderelection.LeaderElector) {
	if le.IsLeader() {
		probe() // want `the Kubernetes leader election lease that LeaderElector.IsLeader says is held`
	} else {
		probe()
	}
	probe()
}

func earlyReturn(r *raft.Raft) {
	probe()
	if r.State() != raft.Leader {
		probe()
		return
	}
	probe() // want `the raft lease that Raft.State says is held`
}

func loop(le *leaderelection.LeaderElector, n int) {
	for i := 0; le.IsLeader() && i < n; i++ {
		probe() // want `LeaderElector.IsLeader says is held`
	}
	probe()
}

func waitLoop(le *leaderelection.LeaderElector) {
	for !le.IsLeader() {
		probe()
	}
	probe() // want `LeaderElector.IsLeader says is held`
}

func assigned(le *leaderelection.LeaderElector, ready bool) {
	ok := le.IsLeader() && ready
	probe()
	if ok {
		probe() // want `LeaderElector.IsLeader says is held`
	}
}

func either(le *leaderelection.LeaderElector, forced bool) {
	if le.IsLeader() || forced {
		probe()
	}
}

func ttl(ctx context.Context, l *redislock.Lock) {
	d, err := l.TTL(ctx)
	if err != nil {
		return
	}
	if d < time.Second {
		probe()
		return
	}
	probe() // want `bsm/redislock lease that Lock.TTL says is held`
}

func nested(le *leaderelection.LeaderElector, r *raft.Raft) {
	if le.IsLeader() {
		if r.State() == raft.Leader {
			probe() // want `LeaderElector.IsLeader says is held` `Raft.State says is held`
		}
		probe() // want `LeaderElector.IsLeader says is held`
	}
}

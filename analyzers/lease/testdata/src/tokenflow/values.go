package tokenflow

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"strconv"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"github.com/hashicorp/raft"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func values(ctx context.Context, m *redsync.Mutex, l *redislock.Lock) {
	probe(m.Value())              // want `not-ordered Mutex.Value\(\)`
	probe(l.Token())              // want `not-ordered Lock.Token\(\)`
	probe(l.Metadata())           // want `not-ordered Lock.Metadata\(\)`
	probe(uuid.NewString())       // want `not-ordered uuid.NewString\(\)`
	probe(uuid.New().String())    // want `not-ordered uuid.New\(\).String\(\)`
	probe(time.Now().UnixNano())  // want `not-ordered time.Now\(\).UnixNano\(\)`
	probe(time.Now().Unix() / 60) // want `not-ordered time.Now\(\).Unix\(\)`
	probe(time.Now().UnixMilli()) // want `not-ordered time.Now\(\).UnixMilli\(\)`
	probe(rand.Int63())           // want `not-ordered rand.Int63\(\)`
	probe(os.Getpid())            // want `not-ordered os.Getpid\(\)`
	host, _ := os.Hostname()
	probe(host) // want `not-ordered os.Hostname\(\)`
	n, _ := crand.Int(crand.Reader, big.NewInt(1<<62))
	probe(n.Int64())                                // want `not-ordered rand.Int\(\).Int64\(\)`
	probe(strconv.FormatInt(time.Now().Unix(), 10)) // want `not-ordered time.Now\(\).Unix\(\)`
	probe(fmt.Sprintf("%d", time.Now().Unix()))     // want `not-ordered time.Now\(\).Unix\(\)`
	probe(fmt.Sprintf("%s-%d", host, os.Getpid()))  // want `unknown`
}

func raftTerm(r *raft.Raft) {
	probe(r.CurrentTerm()) // want `monotonic Raft.CurrentTerm\(\)`
}

func k8s(ctx context.Context, ll *resourcelock.LeaseLock, spec *coordinationv1.LeaseSpec) {
	rec, _, err := ll.Get(ctx)
	if err != nil {
		return
	}
	probe(rec.LeaderTransitions)  // want `not-ordered LeaseLock.Get\(\).LeaderTransitions`
	probe(*spec.LeaseTransitions) // want `not-ordered LeaseSpec.LeaseTransitions`
}

// Package clustered is the coordinator of a cluster: it embeds the shared
// coordinator, whose UpdateMoveStatus it promotes under the name and
// signature of the store's, and takes an etcd lock per move. The fact the
// shared coordinator's method carries was learned through the store's
// interface, and that method is also this package's own implementation of
// it: resolving one through the other must end (it overflowed the stack).
package clustered

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"

	"embedcoords/coord"
	"embedcoords/qdb"
)

// Coord is what the server runs.
type Coord interface {
	Move(ctx context.Context, id string) error
	UpdateMoveStatus(ctx context.Context, id, status string) error
}

type ClusteredCoordinator struct {
	*coord.Coordinator
	session *concurrency.Session
}

func New(db qdb.QDB, session *concurrency.Session) Coord {
	return &ClusteredCoordinator{Coordinator: coord.NewCoordinator(db), session: session}
}

// Move journals the move under the range's lock.
func (c *ClusteredCoordinator) Move(ctx context.Context, id string) error {
	mu := concurrency.NewMutex(c.session, "/locks/"+id)
	if err := mu.Lock(ctx); err != nil {
		return err
	}
	defer mu.Unlock(ctx)
	return c.Coordinator.UpdateMoveStatus(ctx, id, "planned") // want `Coordinator.UpdateMoveStatus \(KV.Put at qdb.go:22, via \*qdb.EtcdQDB.UpdateMoveStatus, .*\) writes to etcd without a fencing token`
}

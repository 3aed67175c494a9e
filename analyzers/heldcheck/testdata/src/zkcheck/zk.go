// Package zkcheck asks ZooKeeper about its session and lock node before
// writing.
package zkcheck

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-zookeeper/zk"
)

var errLost = errors.New("lost the lock")

type worker struct {
	conn     *zk.Conn
	db       *sql.DB
	lockNode string
}

// state reads the connection's state: the session can expire right after.
func (w *worker) state(ctx context.Context) {
	if w.conn.State() == zk.StateHasSession { // want `Conn.State only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE shards\) at line 24`
		w.db.ExecContext(ctx, "UPDATE shards SET owner = 'w1' WHERE id = 3")
	}
}

// lockNodeExists checks that our ephemeral lock node is still there.
func (w *worker) lockNodeExists() error {
	ok, _, err := w.conn.Exists(w.lockNode) // want `Conn.Exists only tells that the lease was held when it ran, yet it guards the unfenced write Conn.Set at line 34`
	if err != nil || !ok {
		return errLost
	}
	_, err = w.conn.Set("/shards/3", []byte("w1"), -1)
	return err
}

// versioned checks, then writes with the version it read: fenced.
func (w *worker) versioned(version int32) error {
	ok, _, err := w.conn.Exists(w.lockNode)
	if err != nil || !ok {
		return errLost
	}
	_, err = w.conn.Set("/shards/3", []byte("w1"), version)
	return err
}

// createIfMissing checks an ordinary node: not a lock check.
func (w *worker) createIfMissing() error {
	ok, _, err := w.conn.Exists("/shards/4")
	if err != nil {
		return err
	}
	if ok {
		_, err = w.conn.Set("/shards/4", []byte("seen"), -1)
	}
	return err
}

// expired cleans up once the session is gone: not guarded.
func (w *worker) expired(ctx context.Context) {
	if w.conn.State() == zk.StateExpired {
		w.db.ExecContext(ctx, "UPDATE shards SET owner = NULL WHERE owner = 'w1'")
	}
}

// ownNode creates its own lock node and later checks that it still exists.
func (w *worker) ownNode(ctx context.Context, lockDir string) error {
	node, err := w.conn.CreateProtectedEphemeralSequential(lockDir+"/n-", nil, zk.WorldACL(31))
	if err != nil {
		return err
	}
	if ok, _, err := w.conn.Exists(node); err != nil || !ok { // want `Conn.Exists only tells .* DB.ExecContext \(UPDATE shards\)`
		return errLost
	}
	_, err = w.db.ExecContext(ctx, "UPDATE shards SET owner = 'w2' WHERE id = 5")
	return err
}

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

// state holds the ZooKeeper lock and reads the connection's state before
// writing: the session, and the lock node with it, can expire right after.
func (w *worker) state(ctx context.Context) error {
	l := zk.NewLock(w.conn, "/locks/shards", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	if w.conn.State() == zk.StateHasSession { // want `Conn.State only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE shards\) at line 30`
		w.db.ExecContext(ctx, "UPDATE shards SET owner = 'w1' WHERE id = 3")
	}
	return nil
}

// ready wraps the connection-state check, as applications do.
func (w *worker) ready() bool {
	switch w.conn.State() {
	case zk.StateConnected, zk.StateHasSession:
		return true
	}
	return false
}

// underLock asks ready() while holding the lock: a check of the lock's
// session, stale by the write.
func (w *worker) underLock(ctx context.Context) error {
	l := zk.NewLock(w.conn, "/locks/shards", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	if !w.ready() { // want `worker.ready only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE shards\)`
		return errLost
	}
	_, err := w.db.ExecContext(ctx, "UPDATE shards SET owner = 'w1' WHERE id = 6")
	return err
}

// initStore checks that the connection is up at start-up, holding no lock:
// a readiness check, not a lease check (kafka-kit's tag storage Init).
func (w *worker) initStore(ctx context.Context) error {
	if !w.ready() {
		return errors.New("zookeeper not ready")
	}
	if w.conn.State() != zk.StateHasSession {
		return errors.New("no session")
	}
	_, err := w.db.ExecContext(ctx, "UPDATE shards SET owner = NULL WHERE id = 7")
	return err
}

// lockNodeExists checks that our ephemeral lock node is still there.
func (w *worker) lockNodeExists() error {
	ok, _, err := w.conn.Exists(w.lockNode) // want `Conn.Exists only tells that the lease was held when it ran, yet it guards the unfenced write Conn.Set at line 78`
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

// Package zklock is a batch job serialized by a ZooKeeper lock.
package zklock

import "github.com/go-zookeeper/zk"

// run writes the job's output node with version -1 under the lock.
func run(conn *zk.Conn, out []byte) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Set("/batch/output", out, -1) // want `Conn.Set writes to ZooKeeper without a fencing token while the ZooKeeper lock taken by Lock.Lock \(line 9\) is held`
	return err
}

// runVersioned writes only if the node is still at the version read.
func runVersioned(conn *zk.Conn, out []byte) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := conn.Get("/batch/output")
	if err != nil {
		return err
	}
	_, err = conn.Set("/batch/output", out, stat.Version)
	return err
}

// runMulti checks its own lock node in the same multi-op.
func runMulti(conn *zk.Conn, node string, version int32, out []byte) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Multi(
		&zk.CheckVersionRequest{Path: node, Version: version},
		&zk.SetDataRequest{Path: "/batch/output", Data: out, Version: -1},
	)
	return err
}

// runMultiUnchecked has no check op.
func runMultiUnchecked(conn *zk.Conn, out []byte) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Multi(&zk.SetDataRequest{Path: "/batch/output", Data: out, Version: -1}) // want `Conn.Multi writes to ZooKeeper without a fencing token`
	return err
}

// runAppend adds a sequential node on every call: a stale holder's copy is
// one more entry in the queue.
func runAppend(conn *zk.Conn, out []byte) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Create("/batch/results/r-", out, zk.FlagSequence, zk.WorldACL(zk.PermAll)) // want `Conn.Create writes to ZooKeeper without a fencing token`
	return err
}

// runCreateMarker makes a persistent node only if it is absent: ZooKeeper
// refuses a Create of an existing path (ErrNodeExists), so a stale holder's
// copy changes nothing.
func runCreateMarker(conn *zk.Conn, flags int32) error {
	l := zk.NewLock(conn, "/locks/batch", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	if _, err := conn.Create("/batch/done", nil, 0, zk.WorldACL(zk.PermAll)); err != nil && err != zk.ErrNodeExists {
		return err
	}
	if _, err := conn.Create("/batch/owner", nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		return err
	}
	_, err := conn.Create("/batch/unknown", nil, flags, zk.WorldACL(zk.PermAll)) // want `Conn.Create writes to ZooKeeper without a fencing token`
	return err
}

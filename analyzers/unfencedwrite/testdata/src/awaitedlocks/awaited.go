// Package awaitedlocks takes a ZooKeeper lock in a goroutine so that the
// caller can give up on its context (go-zookeeper's Lock takes none), and
// writes a database under it, as Kafka topic managers do.
package awaitedlocks

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-zookeeper/zk"
)

// acquire returns the lock held, or an error: the goroutine's Lock is
// awaited beside ctx.Done().
func acquire(ctx context.Context, conn *zk.Conn, path string) (*zk.Lock, error) {
	lock := zk.NewLock(conn, path, zk.WorldACL(zk.PermAll))
	errc := make(chan error, 1)
	go func() {
		errc <- lock.Lock()
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-errc:
		return lock, err
	}
}

// reassign writes under the lock acquire returns.
func reassign(ctx context.Context, conn *zk.Conn, db *sql.DB, topic string) error {
	lock, err := acquire(ctx, conn, "/locks/"+topic)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	_, err = db.ExecContext(ctx, "UPDATE topics SET moving = true WHERE name = $1", topic) // want `DB.ExecContext \(UPDATE topics\) writes to SQL database without a fencing token while the ZooKeeper lock taken by awaitedlocks.acquire \(line 32\) is held`
	return err
}

// inline awaits the goroutine's Lock itself, with a plain receive, and
// writes only once it is held.
func inline(ctx context.Context, conn *zk.Conn, db *sql.DB, topic string) error {
	lock := zk.NewLock(conn, "/locks/"+topic, zk.WorldACL(zk.PermAll))
	errc := make(chan error, 1)
	go func() { errc <- lock.Lock() }()
	if err := <-errc; err != nil {
		// Not held here: the acquisition failed (a hard negative).
		_, err := db.ExecContext(ctx, "UPDATE topics SET failed = true WHERE name = $1", topic)
		return errors.Join(err, errLocked)
	}
	defer lock.Unlock()
	_, err := db.ExecContext(ctx, "UPDATE topics SET moving = true WHERE name = $1", topic) // want `DB.ExecContext \(UPDATE topics\) writes to SQL database without a fencing token while the ZooKeeper lock taken by Lock.Lock \(line 46\) is held`
	return err
}

var errLocked = errors.New("topic is being moved")

// notAwaited starts the goroutine and never waits for it: nothing is held
// where it writes (a hard negative).
func notAwaited(ctx context.Context, conn *zk.Conn, db *sql.DB, topic string) error {
	lock := zk.NewLock(conn, "/locks/"+topic, zk.WorldACL(zk.PermAll))
	errc := make(chan error, 1)
	go func() { errc <- lock.Lock() }()
	_, err := db.ExecContext(ctx, "UPDATE topics SET queued = true WHERE name = $1", topic)
	return err
}

// Lock is how the package hands its ZooKeeper lock out: an interface of
// its own that names none of the library's types. The conversion of
// *zk.Lock to it below says what Unlock runs.
type Lock interface {
	Unlock() error
}

// acquireLock returns the lock as a Lock.
func acquireLock(ctx context.Context, conn *zk.Conn, path string) (Lock, error) {
	return acquire(ctx, conn, path)
}

// addPartitions takes the lock, runs grow under it and lets the lock go
// through the interface before it returns: it holds nothing when its
// caller goes on.
func addPartitions(ctx context.Context, conn *zk.Conn, topic string, grow func() error) error {
	lock, err := acquireLock(ctx, conn, "/locks/"+topic)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	return grow()
}

// apply writes after addPartitions returned: no lease is held there (a
// hard negative that needs Lock.Unlock read as a release).
func apply(ctx context.Context, conn *zk.Conn, db *sql.DB, topic string) error {
	if err := addPartitions(ctx, conn, topic, func() error { return nil }); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE topics SET applied = now() WHERE name = $1", topic)
	return err
}

// acquireWrapped awaits take from its goroutine, and is an acquire too.
func acquireWrapped(ctx context.Context, conn *zk.Conn, path string) (*zk.Lock, error) {
	lock := zk.NewLock(conn, path, zk.WorldACL(zk.PermAll))
	errc := make(chan error, 1)
	go func() { errc <- take(lock) }()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-errc:
		return lock, err
	}
}

func rebalance(ctx context.Context, conn *zk.Conn, db *sql.DB, topic string) error {
	lock, err := acquireWrapped(ctx, conn, "/locks/"+topic)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	_, err = db.ExecContext(ctx, "UPDATE topics SET balanced = true WHERE name = $1", topic) // want `DB.ExecContext \(UPDATE topics\) writes to SQL database without a fencing token while the ZooKeeper lock taken by awaitedlocks.acquireWrapped \(line \d+\) is held`
	return err
}

// take is the package's own acquire, declared after its use: its role may
// be learned in a later round than the function that awaits it.
func take(l *zk.Lock) error { return l.Lock() }

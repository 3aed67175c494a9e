// Package zktoken fences SQL writes made under ZooKeeper locks.
package zktoken

import (
	"context"
	"database/sql"

	"github.com/go-zookeeper/zk"
)

const update = "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND fence < $2"

// czxid fences with the creation zxid of the lock's node: a global order.
func czxid(ctx context.Context, db *sql.DB, conn *zk.Conn, node string) error {
	l := zk.NewLock(conn, "/locks/docs", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := conn.Get(node)
	if err != nil {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", stat.Czxid, 1))
}

// nodeVersion fences with the node's Version, which restarts on recreate.
func nodeVersion(ctx context.Context, db *sql.DB, conn *zk.Conn, node string) error {
	l := zk.NewLock(conn, "/locks/docs", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := conn.Get(node)
	if err != nil {
		return err
	}
	return checked(db.ExecContext(ctx, update, "body", stat.Version, 1)) // want `is fenced with Conn.Get\(\).Version \(line 38\), which is not a fencing token: a znode's Version counts its writes.*; use the Czxid of your own lock node`
}

// sessionID fences with the connection's session ID.
func sessionID(ctx context.Context, db *sql.DB, conn *zk.Conn) error {
	l := zk.NewLock(conn, "/locks/docs", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	return checked(db.ExecContext(ctx, update, "body", conn.SessionID(), 1)) // want `is fenced with Conn.SessionID\(\) \(line 48\), which is not a fencing token: a ZooKeeper session ID`
}

func checked(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

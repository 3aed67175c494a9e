// Package samuelzk takes ZooKeeper locks through
// github.com/samuel/go-zookeeper, the original of go-zookeeper/zk.
package samuelzk

import (
	"github.com/samuel/go-zookeeper/zk"
)

// Rebalancer rewrites partition assignments under a ZooKeeper lock.
type Rebalancer struct {
	conn *zk.Conn
}

// Run writes the assignment with version -1: any version, so no fence.
func (r *Rebalancer) Run(data []byte) error {
	l := zk.NewLock(r.conn, "/locks/rebalance", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := r.conn.Set("/config/partitions", data, -1) // want unfencedwrite:"without a fencing token"
	return err
}

// RunVersioned writes only over the version it read: a hard negative.
func (r *Rebalancer) RunVersioned(data []byte) error {
	l := zk.NewLock(r.conn, "/locks/rebalance", zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := r.conn.Get("/config/partitions")
	if err != nil {
		return err
	}
	_, err = r.conn.Set("/config/partitions", data, stat.Version)
	return err
}

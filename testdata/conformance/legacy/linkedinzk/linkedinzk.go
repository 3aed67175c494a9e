// Package linkedinzk takes ZooKeeper locks through github.com/linkedin/go-zk,
// LinkedIn's fork of go-zookeeper (Burrow's), whose Lock and Conn keep the
// original's API.
package linkedinzk

import (
	"github.com/linkedin/go-zk"
)

// Offsets stores a consumer group's committed offsets under a ZooKeeper lock.
type Offsets struct {
	conn *zk.Conn
}

// Commit writes the offsets with version -1 (any version): no fence.
func (o *Offsets) Commit(group string, data []byte) error {
	l := zk.NewLock(o.conn, "/locks/"+group, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := o.conn.Set("/offsets/"+group, data, -1) // want unfencedwrite:"without a fencing token"
	return err
}

// Journal appends a sequential node per commit: a stale holder appends
// one more, so it is a write with no fence.
func (o *Offsets) Journal(group string, data []byte) error {
	l := zk.NewLock(o.conn, "/locks/"+group, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := o.conn.Create("/journal/"+group+"-", data, zk.FlagSequence, zk.WorldACL(zk.PermAll)) // want unfencedwrite:"without a fencing token"
	return err
}

// CommitVersioned writes only over the version it read: a hard negative.
func (o *Offsets) CommitVersioned(group string, data []byte) error {
	l := zk.NewLock(o.conn, "/locks/"+group, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, stat, err := o.conn.Get("/offsets/" + group)
	if err != nil {
		return err
	}
	_, err = o.conn.Set("/offsets/"+group, data, stat.Version)
	return err
}

// Claim creates a plain node, which fails when it exists: a hard negative.
func (o *Offsets) Claim(group string, owner []byte) error {
	l := zk.NewLock(o.conn, "/locks/"+group, zk.WorldACL(zk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := o.conn.Create("/owners/"+group, owner, 0, zk.WorldACL(zk.PermAll))
	return err
}

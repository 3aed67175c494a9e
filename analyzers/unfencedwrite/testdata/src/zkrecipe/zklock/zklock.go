// Package zklock implements cluster.Lock with the ZooKeeper lock recipe,
// by hand, behind an interface of its own that *zk.Conn satisfies (so that
// tests can pass a mock).
package zklock

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// Client is the part of *zk.Conn the lock uses.
type Client interface {
	Children(string) ([]string, *zk.Stat, error)
	CreateProtectedEphemeralSequential(string, []byte, []zk.ACL) (string, error)
	Delete(string, int32) error
}

// Lock claims an ephemeral sequential node and holds the lock while its
// claim is the lowest.
type Lock struct {
	c    Client
	path string
	node string
}

func New(addr, path string) (*Lock, error) {
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &Lock{c: conn, path: path}, nil
}

func (l *Lock) Lock(ctx context.Context) error {
	node, err := l.c.CreateProtectedEphemeralSequential(l.path+"/lock-", nil, zk.WorldACL(zk.PermAll))
	if err != nil {
		return err
	}
	for {
		children, _, err := l.c.Children(l.path)
		if err != nil {
			return err
		}
		sort.Strings(children)
		if strings.HasSuffix(node, children[0]) {
			l.node = node
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (l *Lock) Owner() string { return l.node }

func (l *Lock) Unlock(context.Context) error {
	return l.c.Delete(l.node, -1)
}

// FlagLock claims its node with Create's flags, the same recipe.
type FlagLock struct {
	conn *zk.Conn
	node string
}

func (l *FlagLock) Lock(ctx context.Context) error {
	node, err := l.conn.Create("/locks/registry/lock-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		return err
	}
	l.node = node
	return nil
}

func (l *FlagLock) Owner() string { return l.node }

func (l *FlagLock) Unlock(context.Context) error {
	return l.conn.Delete(l.node, -1)
}

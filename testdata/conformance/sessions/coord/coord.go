// Package coord opens the etcd session and the ZooKeeper connection a
// service's locks are made from, and leaves watching them to the packages
// that lock (which is where the work runs).
package coord

import (
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-zookeeper/zk"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Coordinator holds the service's coordination handles.
type Coordinator struct {
	session *concurrency.Session
	ZK      *zk.Conn
}

// New opens an etcd session and a ZooKeeper connection whose session
// events it drops.
func New(cli *clientv3.Client, servers []string) (*Coordinator, error) {
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(15))
	if err != nil {
		return nil, err
	}
	conn, _, err := zk.Connect(servers, 10*time.Second)
	if err != nil {
		s.Close()
		return nil, err
	}
	return &Coordinator{session: s, ZK: conn}, nil
}

// Session returns the etcd session locks are made from.
func (c *Coordinator) Session() *concurrency.Session { return c.session }

// KeepExtending extends a redsync mutex every two seconds and only logs
// when that fails.
func KeepExtending(m *redsync.Mutex) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for range t.C {
		if ok, err := m.Extend(); !ok || err != nil {
			log.Printf("extend %s: ok=%v err=%v", m.Name(), ok, err)
		}
	}
}

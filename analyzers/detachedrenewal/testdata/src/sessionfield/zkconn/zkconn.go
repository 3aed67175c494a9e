// Package zkconn opens a ZooKeeper connection and drops its session events.
package zkconn

import (
	"time"

	"github.com/go-zookeeper/zk"
)

// A Client holds the connection locks are made on.
type Client struct {
	Conn *zk.Conn
}

// Dial connects and throws the event channel away.
func Dial(servers []string) (*Client, error) {
	conn, _, err := zk.Connect(servers, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &Client{Conn: conn}, nil
}

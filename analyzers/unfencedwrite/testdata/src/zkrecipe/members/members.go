// Package members registers this node with an ephemeral node (not
// sequential): membership, not a lock, so what follows is no lease region.
package members

import "github.com/go-zookeeper/zk"

func Register(conn *zk.Conn, id string, info []byte) error {
	if _, err := conn.Create("/members/"+id, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		return err
	}
	_, err := conn.Set("/members/"+id+"/info", info, -1)
	return err
}

// Closer shares Close with *zk.Conn but names none of zk's types: calls
// of it are not zk's.
type Closer interface{ Close() }

func Shutdown(c Closer) { c.Close() }

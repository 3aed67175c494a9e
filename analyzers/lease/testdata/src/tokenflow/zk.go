package tokenflow

import "github.com/go-zookeeper/zk"

func zkSources(conn *zk.Conn, node string) {
	_, stat, err := conn.Get(node)
	if err != nil {
		return
	}
	probe(stat.Czxid)       // want `monotonic Conn.Get\(\).Czxid`
	probe(stat.Mzxid)       // want `monotonic Conn.Get\(\).Mzxid`
	probe(stat.Version)     // want `not-ordered Conn.Get\(\).Version`
	probe(conn.SessionID()) // want `not-ordered Conn.SessionID\(\)`
}

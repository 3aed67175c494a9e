// Package registry merges tags into znodes under the cluster lock, through
// a narrow interface over *zk.Conn.
package registry

import (
	"context"
	"encoding/json"

	"github.com/go-zookeeper/zk"

	"zkrecipe/cluster"
)

// Store is the part of *zk.Conn the registry writes through.
type Store interface {
	Get(string) ([]byte, *zk.Stat, error)
	Set(string, []byte, int32) (*zk.Stat, error)
}

type Server struct {
	locks cluster.Lock
	zk    Store
}

// SetTags reads, merges and writes back with version -1: a holder whose
// session expired overwrites the tags the next holder wrote.
func (s *Server) SetTags(ctx context.Context, path string, tags map[string]string) error {
	if err := s.locks.Lock(ctx); err != nil {
		return err
	}
	defer s.locks.Unlock(ctx)
	data, _, err := s.zk.Get(path)
	if err != nil {
		return err
	}
	merged := map[string]string{}
	_ = json.Unmarshal(data, &merged)
	for k, v := range tags {
		merged[k] = v
	}
	out, _ := json.Marshal(merged)
	_, err = s.zk.Set(path, out, -1) // want `Store.Set \(as Conn.Set\) writes to ZooKeeper without a fencing token while the ZooKeeper lock taken by Lock.Lock \(via \*zklock.(Flag)?Lock.Lock\)`
	return err
}

// SetTagsVersioned writes with the version it read: ZooKeeper refuses the
// write if anyone wrote in between.
func (s *Server) SetTagsVersioned(ctx context.Context, path string, out []byte) error {
	if err := s.locks.Lock(ctx); err != nil {
		return err
	}
	defer s.locks.Unlock(ctx)
	_, stat, err := s.zk.Get(path)
	if err != nil {
		return err
	}
	_, err = s.zk.Set(path, out, stat.Version)
	return err
}

// Package etcdstore implements lock.Store on etcd, its Save spelled with
// any.
package etcdstore

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"aliaslocks/etcdmutex"
	"aliaslocks/lock"
)

type Store struct{ cli *clientv3.Client }

func (s *Store) CreateLock(key string) (lock.DistributedLock, error) {
	return etcdmutex.New(s.cli, "/locks/"+key)
}

func (s *Store) Save(ctx context.Context, key string, v any) error {
	_, err := s.cli.Put(ctx, key, fmt.Sprint(v))
	return err
}

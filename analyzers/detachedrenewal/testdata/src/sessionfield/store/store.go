// Package store opens the etcd session a service's locks are made from,
// and never watches it: that is left to the packages that lock.
package store

import (
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A Store holds the service's etcd session.
type Store struct {
	Session *concurrency.Session
	shared  *concurrency.Session
}

// Open starts the sessions.
func Open(cli *clientv3.Client) (*Store, error) {
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(10))
	if err != nil {
		return nil, err
	}
	shared, err := concurrency.NewSession(cli, concurrency.WithTTL(10))
	if err != nil {
		return nil, err
	}
	return &Store{Session: s, shared: shared}, nil
}

// Shared returns the session shared by the service's elections.
func (st *Store) Shared() *concurrency.Session { return st.shared }

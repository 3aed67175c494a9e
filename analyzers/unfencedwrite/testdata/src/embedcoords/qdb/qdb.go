// Package qdb keeps a sharding coordinator's metadata in etcd.
package qdb

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// QDB is the coordinator's metadata store.
type QDB interface {
	UpdateMoveStatus(ctx context.Context, id, status string) error
}

// EtcdQDB is the etcd implementation.
type EtcdQDB struct{ cli *clientv3.Client }

func New(cli *clientv3.Client) *EtcdQDB { return &EtcdQDB{cli: cli} }

// UpdateMoveStatus journals a key-range move's status, blindly.
func (q *EtcdQDB) UpdateMoveStatus(ctx context.Context, id, status string) error {
	_, err := q.cli.Put(ctx, "/moves/"+id, status)
	return err
}

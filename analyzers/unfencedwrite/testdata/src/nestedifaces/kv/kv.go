// Package kv declares the application's own key-value client: its
// managers write through it and never see the etcd implementation, which
// main wires in.
package kv

import "context"

// Client stores metadata records by key.
type Client interface {
	Set(ctx context.Context, key string, value []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

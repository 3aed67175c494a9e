package concurrency

import (
	"context"

	v3 "go.etcd.io/etcd/client/v3"
)

type STM interface {
	Get(key ...string) string
	Put(key, val string, opts ...v3.OpOption)
	Rev(key string) int64
	Del(key string)

	commit() *v3.TxnResponse
	reset()
}

type Isolation int

const (
	SerializableSnapshot Isolation = iota
	Serializable
	RepeatableReads
	ReadCommitted
)

type stmOptions struct {
	iso      Isolation
	ctx      context.Context
	prefetch []string
}

type STMOption func(*stmOptions)

func WithIsolation(lvl Isolation) (_ STMOption)          { return }
func WithAbortContext(ctx context.Context) (_ STMOption) { return }
func WithPrefetch(keys ...string) (_ STMOption)          { return }

func NewSTM(c *v3.Client, apply func(STM) error, so ...STMOption) (_ *v3.TxnResponse, _ error) {
	return
}

func NewSTMRepeatable(ctx context.Context, c *v3.Client, apply func(STM) error) (_ *v3.TxnResponse, _ error) {
	return
}

func NewSTMSerializable(ctx context.Context, c *v3.Client, apply func(STM) error) (_ *v3.TxnResponse, _ error) {
	return
}

func NewSTMReadCommitted(ctx context.Context, c *v3.Client, apply func(STM) error) (_ *v3.TxnResponse, _ error) {
	return
}

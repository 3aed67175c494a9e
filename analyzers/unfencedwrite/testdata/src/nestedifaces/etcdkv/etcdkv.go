// Package etcdkv implements kv.Client on etcd with plain Puts.
package etcdkv

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
)

type Client struct{ cli *clientv3.Client }

func New(cli *clientv3.Client) *Client { return &Client{cli: cli} }

func (c *Client) Set(ctx context.Context, key string, value []byte) error {
	_, err := c.cli.Put(ctx, key, string(value))
	return err
}

func (c *Client) Get(ctx context.Context, key string) ([]byte, error) {
	resp, err := c.cli.Get(ctx, key)
	if err != nil || len(resp.Kvs) == 0 {
		return nil, err
	}
	return resp.Kvs[0].Value, nil
}

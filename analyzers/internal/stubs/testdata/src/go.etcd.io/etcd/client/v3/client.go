// Package clientv3 is a stub of go.etcd.io/etcd/client/v3 v3.7.3 for
// analysistest fixtures: real signatures, no behaviour.
package clientv3

import (
	"context"
	"time"
)

type Client struct {
	KV
	Lease

	Username string
	Password string
	Token    string
}

type Config struct {
	Endpoints   []string      `json:"endpoints"`
	DialTimeout time.Duration `json:"dial-timeout"`
	Username    string        `json:"username"`
	Password    string        `json:"password"`
	Context     context.Context
}

func New(cfg Config) (_ *Client, _ error) { return }

func (c *Client) Close() (_ error) { return }

func (c *Client) Ctx() (_ context.Context) { return }

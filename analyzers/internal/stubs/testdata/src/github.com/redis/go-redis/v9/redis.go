package redis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9/internal/proto"
)

const Nil = proto.Nil

const TxFailedErr = proto.RedisError("redis: transaction failed")

type Options struct {
	Network      string
	Addr         string
	ClientName   string
	Username     string
	Password     string
	DB           int
	MaxRetries   int
	DialTimeout  time.Duration
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	PoolSize     int
}

type baseClient struct {
	opt *Options
}

func (c *baseClient) String() (_ string) { return }
func (c *baseClient) Close() (_ error)   { return }

type Client struct {
	*baseClient
	cmdable
}

func NewClient(opt *Options) (_ *Client) { return }

func (c *Client) Process(ctx context.Context, cmd Cmder) (_ error) { return }
func (c *Client) Pipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Client) Pipeline() (_ Pipeliner) { return }
func (c *Client) TxPipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Client) TxPipeline() (_ Pipeliner) { return }
func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) (_ error) {
	return
}

type UniversalClient interface {
	Cmdable
	Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error
	Do(ctx context.Context, args ...interface{}) *Cmd
	Process(ctx context.Context, cmd Cmder) error
	Close() error
}

type UniversalOptions struct {
	Addrs      []string
	MasterName string
	Username   string
	Password   string
	DB         int
}

func NewUniversalClient(opts *UniversalOptions) (_ UniversalClient) { return }

type Pipeliner interface {
	StatefulCmdable
	Len() int
	Do(ctx context.Context, args ...interface{}) *Cmd
	Process(ctx context.Context, cmd Cmder) error
	Discard()
	Exec(ctx context.Context) ([]Cmder, error)
	Cmds() []Cmder
}

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

func (c *baseClient) String() string { panic("stub") }
func (c *baseClient) Close() error   { panic("stub") }

type Client struct {
	*baseClient
	cmdable
}

func NewClient(opt *Options) *Client { panic("stub") }

func (c *Client) Process(ctx context.Context, cmd Cmder) error { panic("stub") }
func (c *Client) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	panic("stub")
}
func (c *Client) Pipeline() Pipeliner { panic("stub") }
func (c *Client) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	panic("stub")
}
func (c *Client) TxPipeline() Pipeliner { panic("stub") }
func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	panic("stub")
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

func NewUniversalClient(opts *UniversalOptions) UniversalClient { panic("stub") }

type Pipeliner interface {
	StatefulCmdable
	Len() int
	Do(ctx context.Context, args ...interface{}) *Cmd
	Process(ctx context.Context, cmd Cmder) error
	Discard()
	Exec(ctx context.Context) ([]Cmder, error)
	Cmds() []Cmder
}

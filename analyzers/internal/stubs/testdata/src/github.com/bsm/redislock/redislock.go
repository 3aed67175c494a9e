// Package redislock is a stub of github.com/bsm/redislock v0.9.4 for
// analysistest fixtures: real signatures, no behaviour.
package redislock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	ErrNotObtained = errors.New("redislock: not obtained")
	ErrLockNotHeld = errors.New("redislock: lock not held")
)

type RedisClient interface {
	redis.Scripter
}

type Client struct {
	client RedisClient
}

func New(client RedisClient) *Client { panic("stub") }

func (c *Client) Obtain(ctx context.Context, key string, ttl time.Duration, opt *Options) (*Lock, error) {
	panic("stub")
}

type Lock struct {
	*Client
	key   string
	value string
}

func Obtain(ctx context.Context, client RedisClient, key string, ttl time.Duration, opt *Options) (*Lock, error) {
	panic("stub")
}

func (l *Lock) Key() string                                                        { return l.key }
func (l *Lock) Token() string                                                      { panic("stub") }
func (l *Lock) Metadata() string                                                   { panic("stub") }
func (l *Lock) TTL(ctx context.Context) (time.Duration, error)                     { panic("stub") }
func (l *Lock) Refresh(ctx context.Context, ttl time.Duration, opt *Options) error { panic("stub") }
func (l *Lock) Release(ctx context.Context) error                                  { panic("stub") }

type Options struct {
	RetryStrategy RetryStrategy
	Metadata      string
	Token         string
}

type RetryStrategy interface {
	NextBackoff() time.Duration
}

func NoRetry() RetryStrategy                                  { panic("stub") }
func LinearBackoff(backoff time.Duration) RetryStrategy       { panic("stub") }
func LimitRetry(s RetryStrategy, max int) RetryStrategy       { panic("stub") }
func ExponentialBackoff(min, max time.Duration) RetryStrategy { panic("stub") }

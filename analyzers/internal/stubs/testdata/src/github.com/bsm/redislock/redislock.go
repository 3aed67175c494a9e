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

func New(client RedisClient) (_ *Client) { return }

func (c *Client) Obtain(ctx context.Context, key string, ttl time.Duration, opt *Options) (_ *Lock, _ error) {
	return
}

type Lock struct {
	*Client
	key   string
	value string
}

func Obtain(ctx context.Context, client RedisClient, key string, ttl time.Duration, opt *Options) (_ *Lock, _ error) {
	return
}

func (l *Lock) Key() string                                                            { return l.key }
func (l *Lock) Token() (_ string)                                                      { return }
func (l *Lock) Metadata() (_ string)                                                   { return }
func (l *Lock) TTL(ctx context.Context) (_ time.Duration, _ error)                     { return }
func (l *Lock) Refresh(ctx context.Context, ttl time.Duration, opt *Options) (_ error) { return }
func (l *Lock) Release(ctx context.Context) (_ error)                                  { return }

type Options struct {
	RetryStrategy RetryStrategy
	Metadata      string
	Token         string
}

type RetryStrategy interface {
	NextBackoff() time.Duration
}

func NoRetry() (_ RetryStrategy)                                  { return }
func LinearBackoff(backoff time.Duration) (_ RetryStrategy)       { return }
func LimitRetry(s RetryStrategy, max int) (_ RetryStrategy)       { return }
func ExponentialBackoff(min, max time.Duration) (_ RetryStrategy) { return }

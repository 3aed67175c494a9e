// Package redsync is a stub of github.com/go-redsync/redsync/v4 v4.18.1 for
// analysistest fixtures: real signatures, no behaviour.
package redsync

import (
	"time"

	"github.com/go-redsync/redsync/v4/redis"
)

type Redsync struct {
	pools []redis.Pool
}

func New(pools ...redis.Pool) *Redsync { panic("stub") }

func (r *Redsync) NewMutex(name string, options ...Option) *Mutex { panic("stub") }

type Option interface {
	Apply(*Mutex)
}

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(mutex *Mutex) { f(mutex) }

type DelayFunc func(tries int) time.Duration

func WithExpiry(expiry time.Duration) Option                      { panic("stub") }
func WithTries(tries int) Option                                  { panic("stub") }
func WithRetryDelay(delay time.Duration) Option                   { panic("stub") }
func WithRetryDelayFunc(delayFunc DelayFunc) Option               { panic("stub") }
func WithDriftFactor(factor float64) Option                       { panic("stub") }
func WithTimeoutFactor(factor float64) Option                     { panic("stub") }
func WithGenValueFunc(genValueFunc func() (string, error)) Option { panic("stub") }
func WithValue(v string) Option                                   { panic("stub") }
func WithFailFast(b bool) Option                                  { panic("stub") }
func WithShufflePools(b bool) Option                              { panic("stub") }
func WithSetNXOnExtend() Option                                   { panic("stub") }

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

func New(pools ...redis.Pool) (_ *Redsync) { return }

func (r *Redsync) NewMutex(name string, options ...Option) (_ *Mutex) { return }

type Option interface {
	Apply(*Mutex)
}

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(mutex *Mutex) { f(mutex) }

type DelayFunc func(tries int) time.Duration

func WithExpiry(expiry time.Duration) (_ Option)                      { return }
func WithTries(tries int) (_ Option)                                  { return }
func WithRetryDelay(delay time.Duration) (_ Option)                   { return }
func WithRetryDelayFunc(delayFunc DelayFunc) (_ Option)               { return }
func WithDriftFactor(factor float64) (_ Option)                       { return }
func WithTimeoutFactor(factor float64) (_ Option)                     { return }
func WithGenValueFunc(genValueFunc func() (string, error)) (_ Option) { return }
func WithValue(v string) (_ Option)                                   { return }
func WithFailFast(b bool) (_ Option)                                  { return }
func WithShufflePools(b bool) (_ Option)                              { return }
func WithSetNXOnExtend() (_ Option)                                   { return }

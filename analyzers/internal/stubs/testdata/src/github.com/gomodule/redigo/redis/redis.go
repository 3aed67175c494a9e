// Package redis is a stub of github.com/gomodule/redigo/redis (v1.9): the
// connection interfaces and pool, and the reply helpers.
package redis

import (
	"context"
	"errors"
	"time"
)

// Conn is a connection to a Redis server.
type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

// ConnWithTimeout is a Conn that runs commands with a per-command timeout.
type ConnWithTimeout interface {
	Conn
	DoWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (reply interface{}, err error)
	ReceiveWithTimeout(timeout time.Duration) (reply interface{}, err error)
}

// ConnWithContext is a Conn that runs commands under a context.
type ConnWithContext interface {
	Conn
	DoContext(ctx context.Context, commandName string, args ...interface{}) (reply interface{}, err error)
	ReceiveContext(ctx context.Context) (reply interface{}, err error)
}

// DoContext runs a command on c under ctx.
func DoContext(c Conn, ctx context.Context, cmd string, args ...interface{}) (interface{}, error) {
	return c.Do(cmd, args...)
}

// DoWithTimeout runs a command on c with a timeout.
func DoWithTimeout(c Conn, timeout time.Duration, cmd string, args ...interface{}) (interface{}, error) {
	return c.Do(cmd, args...)
}

// Pool is a pool of connections.
type Pool struct {
	Dial        func() (Conn, error)
	MaxIdle     int
	MaxActive   int
	IdleTimeout time.Duration
	Wait        bool
}

// Get returns a connection from the pool.
func (p *Pool) Get() Conn { return nil }

// GetContext returns a connection from the pool, waiting under ctx.
func (p *Pool) GetContext(ctx context.Context) (Conn, error) { return nil, nil }

// Close releases the pool's resources.
func (p *Pool) Close() error { return nil }

// Dial connects to the Redis server at address.
func Dial(network, address string, options ...DialOption) (Conn, error) { return nil, nil }

// DialOption configures Dial.
type DialOption struct{ f func() }

// ErrNil is the reply helpers' error for a nil reply.
var ErrNil = errors.New("redigo: nil returned")

// Script is a Lua script.
type Script struct{ src string }

// NewScript returns a script of keyCount keys.
func NewScript(keyCount int, src string) *Script { return &Script{src: src} }

// Do runs the script on c.
func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) { return nil, nil }

// String converts a reply to a string.
func String(reply interface{}, err error) (string, error) { return "", err }

// Int converts a reply to an int.
func Int(reply interface{}, err error) (int, error) { return 0, err }

// Int64 converts a reply to an int64.
func Int64(reply interface{}, err error) (int64, error) { return 0, err }

// Bool converts a reply to a bool.
func Bool(reply interface{}, err error) (bool, error) { return false, err }

// Strings converts a reply to a []string.
func Strings(reply interface{}, err error) ([]string, error) { return nil, err }

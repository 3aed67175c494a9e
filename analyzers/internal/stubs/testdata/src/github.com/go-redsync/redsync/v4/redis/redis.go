// Package redis is a stub of github.com/go-redsync/redsync/v4/redis v4.18.1.
package redis

import (
	"context"
	"time"
)

type Pool interface {
	Get(ctx context.Context) (Conn, error)
}

type Conn interface {
	Get(name string) (string, error)
	Set(name string, value string) (bool, error)
	SetNX(name string, value string, expiry time.Duration) (bool, error)
	Eval(script *Script, keysAndArgs ...any) (any, error)
	ScriptLoad(script *Script) error
	PTTL(name string) (time.Duration, error)
	Close() error
}

type Script struct {
	KeyCount int
	Src      string
	Hash     string
}

func NewScript(keyCount int, src, hash string) (_ *Script) { return }

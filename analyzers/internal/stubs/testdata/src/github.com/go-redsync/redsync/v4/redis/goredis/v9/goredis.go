// Package goredis is a stub of github.com/go-redsync/redsync/v4/redis/goredis/v9 v4.18.1.
package goredis

import (
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/redis/go-redis/v9"
)

func NewPool(delegate redis.UniversalClient) (_ redsyncredis.Pool) { return }

// Package rds is the application's Redis client package: it re-exports
// go-redis's types under aliases, so that the rest of the application
// imports it and never go-redis itself.
package rds

import r "github.com/redis/go-redis/v9"

type (
	Cmdable = r.Cmdable
	Client  = r.Client
)

const Nil = r.Nil

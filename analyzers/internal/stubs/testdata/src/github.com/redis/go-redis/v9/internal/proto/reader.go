// Package proto is a stub of go-redis's internal/proto.
package proto

type RedisError string

func (e RedisError) Error() string { return string(e) }

const Nil = RedisError("redis: nil") // nolint:errname

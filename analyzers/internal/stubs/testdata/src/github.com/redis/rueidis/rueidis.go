// Package rueidis is a stub of github.com/redis/rueidis v1.0.79 for
// analysistest fixtures: real signatures, no behaviour. Only the client's
// command methods and the results the fixtures read are here.
package rueidis

import (
	"context"

	"github.com/redis/rueidis/internal/cmds"
)

// Builder represents a command builder. It should only be created from the client.B() method.
type Builder = cmds.Builder

// Completed represents a completed Redis command. It should only be created from the Build() of a command builder.
type Completed = cmds.Completed

// CommandClient is a public interface that only exposes the B(), Do(), and DoMulti() methods of a client.
type CommandClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
}

// CoreClient is the minimum interface shared by the Client and the DedicatedClient.
type CoreClient interface {
	CommandClient
	Close()
}

// Client is the redis client interface for both single redis instance and redis cluster.
type Client interface {
	CoreClient
}

// RedisResult is the return struct from Client.Do or Client.DoCache.
type RedisResult struct{}

func (r RedisResult) Error() (err error) { return nil }

func (r RedisResult) ToString() (v string, err error) { return "", nil }

func (r RedisResult) DecodeJSON(v any) (err error) { return nil }

func (r RedisResult) AsInt64() (v int64, err error) { return 0, nil }

// IsRedisNil is a handy method to check if the error is a redis nil response.
func IsRedisNil(err error) bool { return false }

// Package mongogodriver holds an event sink written with mongo-go-driver
// v0.0.17 (github.com/mongodb/mongo-go-driver, before the move to
// go.mongodb.org), under a SET NX lock written with go-redis v8: the sink
// inserts events while it holds the lock, as nomad-firehose does.
package mongogodriver

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/mongodb/mongo-go-driver/mongo"
)

var errBusy = errors.New("another sink is running")

// Sink copies events to a collection while it holds the lock.
type Sink struct {
	rdb    *redis.Client
	events *mongo.Collection
}

func New(ctx context.Context, rdb *redis.Client, uri string) (*Sink, error) {
	client, err := mongo.NewClient(uri)
	if err != nil {
		return nil, err
	}
	if err := client.Connect(ctx); err != nil {
		return nil, err
	}
	return &Sink{rdb: rdb, events: client.Database("firehose").Collection("events")}, nil
}

// Drain inserts each event it receives: a sink paused past the lock's
// expiry inserts events the next holder also inserts.
func (s *Sink) Drain(ctx context.Context, events <-chan map[string]interface{}) error {
	ok, err := s.rdb.SetNX(ctx, "lock:sink", "owner", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer s.rdb.Del(ctx, "lock:sink")
	for ev := range events {
		if _, err := s.events.InsertOne(ctx, ev); err != nil { // want unfencedwrite:"without a fencing token"
			return err
		}
	}
	return nil
}

// Count only reads.
func (s *Sink) Count(ctx context.Context) (int64, error) {
	return s.events.Count(ctx, map[string]interface{}{})
}

// Package store keeps jobs in Redis for package freshkeys: its writes are
// to keys built from the ID the caller passes.
package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Jobs struct{ rdb *redis.Client }

func New(rdb *redis.Client) *Jobs { return &Jobs{rdb: rdb} }

func jobKey(id string) string { return "job:{" + id + "}" }

// Save stores a job's body and its deadline under the job's keys.
func (j *Jobs) Save(ctx context.Context, id string, body []byte) error {
	key := jobKey(id)
	if err := j.rdb.Set(ctx, key, body, time.Hour).Err(); err != nil {
		return err
	}
	return j.rdb.HSet(ctx, key+":meta", "deadline", time.Now().Add(time.Hour).Unix()).Err()
}

// Link puts the job's ID on the queue.
func (j *Jobs) Link(ctx context.Context, id string) error {
	return j.rdb.LPush(ctx, "jobs:queue", id).Err()
}

// Package queue is a job queue of the application's over Redis lists:
// producers push a job, workers block on the list and take each job once.
package queue

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

type Queue struct {
	rdb *redis.Client
}

func New(rdb *redis.Client) *Queue { return &Queue{rdb: rdb} }

// Enqueue appends a job for the workers: a message, not state.
func (q *Queue) Enqueue(ctx context.Context, name string, job any) error {
	body, err := json.Marshal(job)
	if err != nil {
		return err
	}
	return q.rdb.LPush(ctx, "queue:"+name, body).Err()
}

// Dequeue waits for the next job; the worker re-reads what the job names.
func (q *Queue) Dequeue(ctx context.Context, name string) ([]byte, error) {
	res, err := q.rdb.BRPop(ctx, 5*time.Second, "queue:"+name).Result()
	if err != nil {
		return nil, err
	}
	return []byte(res[1]), nil
}

// Remember keeps the last hundred jobs enqueued, for the dashboard: a
// bounded list is state, whatever type keeps it.
func (q *Queue) Remember(ctx context.Context, name, id string) error {
	if err := q.rdb.LPush(ctx, "recent:"+name, id).Err(); err != nil {
		return err
	}
	return q.rdb.LTrim(ctx, "recent:"+name, 0, 99).Err()
}

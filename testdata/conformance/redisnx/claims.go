package redisnx

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Reschedule pops the due members of a deadline-scored set and adds them
// back with their next deadline under the dispatcher's lock: the pop and
// the add back are both writes a stale holder makes.
func (s *Sessions) Reschedule(ctx context.Context) error {
	won, err := s.rdb.SetNX(ctx, "lock:dispatch", 1, 8*time.Second).Result()
	if err != nil || !won {
		return errBusy
	}
	defer s.rdb.Del(context.Background(), "lock:dispatch")
	due, err := s.rdb.ZPopMin(ctx, "due", 3).Result() // want unfencedwrite:"without a fencing token"
	if err != nil {
		return err
	}
	next := float64(time.Now().Add(time.Minute).UnixMilli())
	for _, z := range due {
		s.rdb.ZAdd(ctx, "due", redis.Z{Score: next, Member: z.Member}) // want unfencedwrite:"without a fencing token"
	}
	return nil
}

// Take moves a job to the processing list with no lock held: a queue
// consumer, not reported.
func (s *Sessions) Take(ctx context.Context) (string, error) {
	return s.rdb.LMove(ctx, "jobs", "processing", "LEFT", "RIGHT").Result()
}

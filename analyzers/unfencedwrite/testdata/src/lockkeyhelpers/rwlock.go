package lockkeyhelpers

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// RWLocker is a hand-rolled Redis read-writer lock: a writer takes
// <prefix>{name}:writer with SET NX, readers register in the hash
// <prefix>{name}:readers, and a writer waits for the readers to leave.
// The keys beside the lock key are the lock's own bookkeeping.
type RWLocker struct {
	client    *redis.Client
	keyPrefix string
	readerID  string
}

// Lock takes the writer key, then clears the readers whose registration
// expired or cannot be read: those deletes keep the lock, not data.
func (rw *RWLocker) Lock(ctx context.Context, key string, ttl time.Duration) error {
	writerKey := fmt.Sprintf("%s{%s}:writer", rw.keyPrefix, key)
	readersKey := fmt.Sprintf("%s{%s}:readers", rw.keyPrefix, key)
	for {
		ok, err := rw.client.SetNX(ctx, writerKey, rw.readerID, ttl).Result()
		if err != nil {
			return err
		}
		if ok {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for {
		readers, err := rw.client.HGetAll(ctx, readersKey).Result()
		if err != nil {
			rw.client.Del(ctx, writerKey)
			return err
		}
		active := 0
		for id, expires := range readers {
			at, err := time.Parse(time.RFC3339, expires)
			if err != nil || at.Before(time.Now()) {
				rw.client.HDel(ctx, readersKey, id)
				continue
			}
			active++
		}
		if active == 0 {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TryLock is Lock without waiting: the readers' bookkeeping is the same.
func (rw *RWLocker) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	writerKey := rw.keyPrefix + "{" + key + "}:writer"
	readersKey := rw.keyPrefix + "{" + key + "}:readers"
	ok, err := rw.client.SetNX(ctx, writerKey, rw.readerID, ttl).Result()
	if err != nil || !ok {
		return false, err
	}
	readers, err := rw.client.HGetAll(ctx, readersKey).Result()
	if err != nil {
		rw.client.Del(ctx, writerKey)
		return false, err
	}
	for id, expires := range readers {
		if at, err := time.Parse(time.RFC3339, expires); err != nil || at.Before(time.Now()) {
			rw.client.HDel(ctx, readersKey, id)
		}
	}
	return true, nil
}

// Unlock lets the writer key go.
func (rw *RWLocker) Unlock(ctx context.Context, key string) error {
	return rw.client.Del(ctx, fmt.Sprintf("%s{%s}:writer", rw.keyPrefix, key)).Err()
}

// RLock registers a reader while no writer holds the name.
func (rw *RWLocker) RLock(ctx context.Context, key string, ttl time.Duration) error {
	n, err := rw.client.Exists(ctx, fmt.Sprintf("%s{%s}:writer", rw.keyPrefix, key)).Result()
	if err != nil || n > 0 {
		return fmt.Errorf("write-locked: %v", err)
	}
	expires := time.Now().Add(ttl).Format(time.RFC3339)
	return rw.client.HSet(ctx, fmt.Sprintf("%s{%s}:readers", rw.keyPrefix, key), rw.readerID, expires).Err()
}

// LockAndStamp takes the lock, then writes data under it beside the lock
// key: a key built the same way that a function named for locking writes
// is the lock's only when its other parts are the lock key's. Here the
// stamp goes to the caller's document, whose name is another value.
func (rw *RWLocker) LockAndStamp(ctx context.Context, key, doc string, ttl time.Duration) error {
	ok, err := rw.client.SetNX(ctx, fmt.Sprintf("%s{%s}:writer", rw.keyPrefix, key), rw.readerID, ttl).Result()
	if err != nil || !ok {
		return err
	}
	return rw.client.HSet(ctx, fmt.Sprintf("%s{%s}:stamp", rw.keyPrefix, doc), "by", rw.readerID).Err() // want `HSet writes to Redis without a fencing token`
}

// saveReport takes a job's lock and writes the job's report beside it: the
// function is not named for locking, so the report is data the lock guards.
func (rw *RWLocker) saveReport(ctx context.Context, job, report string) error {
	ok, err := rw.client.SetNX(ctx, fmt.Sprintf("%s{%s}:lock", rw.keyPrefix, job), rw.readerID, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rw.client.Del(ctx, fmt.Sprintf("%s{%s}:lock", rw.keyPrefix, job))
	return rw.client.Set(ctx, fmt.Sprintf("%s{%s}:report", rw.keyPrefix, job), report, 0).Err() // want `Set writes to Redis without a fencing token`
}

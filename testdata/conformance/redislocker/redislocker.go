// Package redislocker holds report jobs serialized with bsm/redislock,
// which writes their output to S3.
package redislocker

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

// Reporter renders the daily report once per cluster.
type Reporter struct {
	locker *redislock.Client
	rdb    *redis.Client
	s3     *s3.Client
	db     *sql.DB
	bucket string
}

// NewReporter builds a reporter on a Redis client.
func NewReporter(rdb *redis.Client, s3c *s3.Client, db *sql.DB) *Reporter {
	return &Reporter{locker: redislock.New(rdb), rdb: rdb, s3: s3c, db: db, bucket: "reports"}
}

// Publish overwrites the report object with no precondition.
func (r *Reporter) Publish(ctx context.Context, day string, body []byte) error {
	lock, err := r.locker.Obtain(ctx, "report:"+day, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil
	} else if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = r.s3.PutObject(ctx, &s3.PutObjectInput{ // want unfencedwrite:"without a fencing token"
		Bucket: aws.String(r.bucket),
		Key:    aws.String("daily/" + day + ".csv"),
		Body:   bytes.NewReader(body),
	})
	return err
}

// PublishIfUnchanged writes only over the version it read: S3 rejects the
// write with 412 if another reporter replaced the object meanwhile.
func (r *Reporter) PublishIfUnchanged(ctx context.Context, day string, body []byte) error {
	lock, err := redislock.Obtain(ctx, r.rdb, "report:"+day, time.Minute, &redislock.Options{
		RetryStrategy: redislock.LimitRetry(redislock.LinearBackoff(100*time.Millisecond), 3),
	})
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	head, err := r.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(r.bucket), Key: aws.String("daily/" + day + ".csv")})
	if err != nil {
		return err
	}
	_, err = r.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:  aws.String(r.bucket),
		Key:     aws.String("daily/" + day + ".csv"),
		Body:    bytes.NewReader(body),
		IfMatch: head.ETag,
	})
	return err
}

// PublishIfTTLLeft trusts the remaining TTL: redislock returns 0 with no
// error once the lock is gone, and the lock can expire right after.
func (r *Reporter) PublishIfTTLLeft(ctx context.Context, day string, rows int64) error {
	lock, err := r.locker.Obtain(ctx, "lock:report:"+day, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if ttl, err := lock.TTL(ctx); err == nil && ttl > 5*time.Second { // want heldcheck:"only tells that the lease was held"
		return r.rdb.HSet(ctx, "report:"+day, "rows", rows, "done", true).Err() // want unfencedwrite:"without a fencing token"
	}
	return errors.New("report lock about to expire")
}

// PublishWithTokenFence uses redislock's random token as the fence.
func (r *Reporter) PublishWithTokenFence(ctx context.Context, day string, rows int64) error {
	lock, err := r.locker.Obtain(ctx, "report:"+day, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	res, err := r.db.ExecContext(ctx, `UPDATE reports SET rows = $1, fence = $3 WHERE day = $2 AND fence < $3`, rows, day, lock.Token()) // want weaktoken:"is not a fencing token"
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("stale report writer")
	}
	return nil
}

// PublishRefreshing refreshes from a goroutine that stops on the first
// failure and tells nobody.
func (r *Reporter) PublishRefreshing(ctx context.Context, day string, body []byte) error {
	lock, err := r.locker.Obtain(ctx, "report:"+day, 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	go func() { // want detachedrenewal:"never hears"
		for range time.Tick(3 * time.Second) {
			if err := lock.Refresh(ctx, 10*time.Second, nil); err != nil {
				return
			}
		}
	}()
	_, err = r.s3.PutObject(ctx, &s3.PutObjectInput{ // want unfencedwrite:"without a fencing token"
		Bucket: aws.String(r.bucket),
		Key:    aws.String("daily/" + day + ".csv"),
		Body:   bytes.NewReader(body),
	})
	return err
}

// CreateOnce writes the report only if no object exists yet.
func (r *Reporter) CreateOnce(ctx context.Context, day string, body []byte) error {
	lock, err := r.locker.Obtain(ctx, "report:"+day, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = r.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String(r.bucket),
		Key:         aws.String("daily/" + day + ".csv"),
		Body:        bytes.NewReader(body),
		IfNoneMatch: aws.String("*"),
	})
	return err
}

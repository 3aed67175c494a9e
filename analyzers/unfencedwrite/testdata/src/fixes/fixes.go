// Package fixes holds writes whose fence fencelint can add by itself.
package fixes

import (
	"context"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/go-redsync/redsync/v4"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type leader struct {
	cli *clientv3.Client
	mu  *concurrency.Mutex
}

func (l *leader) publish(ctx context.Context, cfg string) error {
	if err := l.mu.Lock(ctx); err != nil {
		return err
	}
	defer l.mu.Unlock(ctx)
	if _, err := l.cli.Put(ctx, "/config", cfg); err != nil { // want `KV.Put writes to etcd without a fencing token`
		return err
	}
	_, err := l.cli.Delete(ctx, "/config/draft") // want `KV.Delete writes to etcd without a fencing token`
	return err
}

// publishAgain assigns to an err declared earlier: the fix declares the
// response.
func (l *leader) publishAgain(ctx context.Context, cfg string) error {
	if err := l.mu.Lock(ctx); err != nil {
		return err
	}
	defer l.mu.Unlock(ctx)
	var err error
	_, err = l.cli.Put(ctx, "/config", cfg) // want `KV.Put writes to etcd without a fencing token`
	return err
}

// keepResp uses the PutResponse: rewriting it would not compile, so no fix.
func (l *leader) keepResp(ctx context.Context, cfg string) (int64, error) {
	if err := l.mu.Lock(ctx); err != nil {
		return 0, err
	}
	defer l.mu.Unlock(ctx)
	resp, err := l.cli.Put(ctx, "/config", cfg) // want `KV.Put writes to etcd without a fencing token`
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

func reupload(ctx context.Context, c *s3.Client, m *redsync.Mutex, body io.Reader) error {
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String("k")})
	if err != nil {
		return err
	}
	_ = head
	_, err = c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("b"), Key: aws.String("k"), Body: body}) // want `Client.PutObject writes to S3 without a fencing token`
	return err
}

func reuploadWithTag(ctx context.Context, c *s3.Client, m *redsync.Mutex, etag string, body io.Reader) error {
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("b"), Key: aws.String("k"), Body: body}) // want `Client.PutObject writes to S3 without a fencing token`
	return err
}

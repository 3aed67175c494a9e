// Package cloudstores publishes reports to S3 and Cloud Storage under a lock.
package cloudstores

import (
	"context"
	"errors"
	"io"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/go-redsync/redsync/v4"
)

type publisher struct {
	s3  *s3.Client
	up  *manager.Uploader
	gcs *storage.Client
	mu  *redsync.Mutex
}

func (p *publisher) putS3(ctx context.Context, body io.Reader) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	_, err := p.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("latest"), Body: body}) // want `Client.PutObject writes to S3 without a fencing token while the redsync lock taken by Mutex.LockContext \(line 25\) is held: .*IfMatch`
	return err
}

func (p *publisher) putS3IfMatch(ctx context.Context, etag string, body io.Reader) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	_, err := p.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("latest"), Body: body, IfMatch: aws.String(etag)})
	return err
}

func (p *publisher) upload(ctx context.Context, body io.Reader) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	_, err := p.up.Upload(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("big"), Body: body}) // want `Uploader.Upload writes to S3 without a fencing token`
	return err
}

func (p *publisher) putGCS(ctx context.Context, data string) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	w := p.gcs.Bucket("reports").Object("latest").NewWriter(ctx) // want `ObjectHandle.NewWriter writes to Cloud Storage without a fencing token`
	if _, err := io.Copy(w, strings.NewReader(data)); err != nil {
		return err
	}
	return w.Close()
}

func (p *publisher) putGCSIf(ctx context.Context, gen int64, data string) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	w := p.gcs.Bucket("reports").Object("latest").If(storage.Conditions{GenerationMatch: gen}).NewWriter(ctx)
	if _, err := io.Copy(w, strings.NewReader(data)); err != nil {
		return err
	}
	return w.Close()
}

// deleteGiven deletes through a handle made elsewhere: fencelint cannot
// tell whether the caller applied If, and stays quiet.
func (p *publisher) deleteGiven(ctx context.Context, obj *storage.ObjectHandle) error {
	if err := p.mu.LockContext(ctx); err != nil {
		return err
	}
	defer p.mu.UnlockContext(ctx)
	if err := obj.Delete(ctx); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// Package objectstore holds a catalog publisher that writes objects to S3
// and Cloud Storage while it holds a lock.
package objectstore

import (
	"bytes"
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

const bucket = "catalog"

// S3Publisher writes the product catalog to S3 under an etcd mutex.
type S3Publisher struct {
	etcd *clientv3.Client
	s3   *s3.Client
}

func (p *S3Publisher) lock(ctx context.Context) (*concurrency.Session, *concurrency.Mutex, error) {
	s, err := concurrency.NewSession(p.etcd, concurrency.WithTTL(10), concurrency.WithContext(ctx))
	if err != nil {
		return nil, nil, err
	}
	return s, concurrency.NewMutex(s, "/locks/catalog"), nil
}

// Publish overwrites, copies and deletes objects with no precondition.
func (p *S3Publisher) Publish(ctx context.Context, version string, body []byte) error {
	s, m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	ctx = s.Ctx()
	if _, err := p.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("catalog.json"), Body: bytes.NewReader(body)}); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	if _, err := p.s3.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String(bucket), Key: aws.String("archive/" + version + ".json"), CopySource: aws.String(bucket + "/catalog.json")}); err != nil { // want unfencedwrite:"without a fencing token"
		return err
	}
	if _, err := p.s3.PutObjectTagging(ctx, &s3.PutObjectTaggingInput{ // want unfencedwrite:"without a fencing token"
		Bucket:  aws.String(bucket),
		Key:     aws.String("catalog.json"),
		Tagging: &types.Tagging{TagSet: []types.Tag{{Key: aws.String("version"), Value: aws.String(version)}}},
	}); err != nil {
		return err
	}
	_, err = p.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String("catalog.draft.json")}) // want unfencedwrite:"without a fencing token"
	return err
}

// PublishConditional writes only over the ETag it read, and deletes only
// the draft it saw.
func (p *S3Publisher) PublishConditional(ctx context.Context, version string, body []byte) error {
	s, m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	head, err := p.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String("catalog.json")})
	if err != nil {
		return err
	}
	if _, err := p.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:  aws.String(bucket),
		Key:     aws.String("catalog.json"),
		Body:    bytes.NewReader(body),
		IfMatch: head.ETag,
	}); err != nil {
		return err
	}
	if _, err := p.s3.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket:      aws.String(bucket),
		Key:         aws.String("archive/" + version + ".json"),
		CopySource:  aws.String(bucket + "/catalog.json"),
		IfNoneMatch: aws.String("*"),
	}); err != nil {
		return err
	}
	draft, err := p.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String("catalog.draft.json")})
	if err != nil {
		return err
	}
	_, err = p.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String("catalog.draft.json"), IfMatch: draft.ETag})
	return err
}

// Upload streams a large catalog through the upload manager.
func (p *S3Publisher) Upload(ctx context.Context, body []byte, etag *string) error {
	s, m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	up := manager.NewUploader(p.s3)
	if etag != nil {
		_, err = up.Upload(s.Ctx(), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("full.json"), Body: bytes.NewReader(body), IfMatch: etag})
		return err
	}
	_, err = up.Upload(s.Ctx(), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("full.json"), Body: bytes.NewReader(body)}) // want unfencedwrite:"without a fencing token"
	return err
}

// Prune deletes many objects at once; DeleteObjects without per-object
// ETags is unconditional.
func (p *S3Publisher) Prune(ctx context.Context, keys []string) error {
	s, m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	ids := make([]types.ObjectIdentifier, 0, len(keys))
	for _, k := range keys {
		ids = append(ids, types.ObjectIdentifier{Key: aws.String(k)})
	}
	out, err := p.s3.DeleteObjects(s.Ctx(), &s3.DeleteObjectsInput{Bucket: aws.String(bucket), Delete: &types.Delete{Objects: ids}}) // want unfencedwrite:"without a fencing token"
	if err != nil {
		return err
	}
	if len(out.Errors) > 0 {
		return errors.New("prune: some deletes failed")
	}
	return nil
}

// Finish completes a multipart upload with no precondition.
func (p *S3Publisher) Finish(ctx context.Context, uploadID string, parts []types.CompletedPart) error {
	s, m, err := p.lock(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := m.Lock(s.Ctx()); err != nil {
		return err
	}
	defer m.Unlock(context.Background())
	_, err = p.s3.CompleteMultipartUpload(s.Ctx(), &s3.CompleteMultipartUploadInput{ // want unfencedwrite:"without a fencing token"
		Bucket:          aws.String(bucket),
		Key:             aws.String("full.json"),
		UploadId:        aws.String(uploadID),
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	return err
}

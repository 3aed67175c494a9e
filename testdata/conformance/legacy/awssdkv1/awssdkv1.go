// Package awssdkv1 holds a nightly report exporter that writes to S3 with
// aws-sdk-go v1 (github.com/aws/aws-sdk-go), whose write inputs cannot
// carry IfMatch or IfNoneMatch, under a bsm/redislock lock.
package awssdkv1

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/s3"
	"github.com/aws/aws-sdk-go/service/s3/s3manager"
	"github.com/bsm/redislock"
)

var errBusy = errors.New("export: another replica is exporting")

// Exporter writes the day's report; one replica at a time does.
type Exporter struct {
	locker   *redislock.Client
	s3       *s3.S3
	uploader *s3manager.Uploader
	bucket   string
}

// Export reads the current manifest, uploads the report, replaces the
// manifest and deletes the drafts: every write is unconditional.
func (e *Exporter) Export(ctx context.Context, day string, report []byte, drafts []string) error {
	lock, err := e.locker.Obtain(ctx, "export:"+day, 5*time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer lock.Release(context.Background())
	if _, err := e.s3.HeadObjectWithContext(ctx, &s3.HeadObjectInput{Bucket: aws.String(e.bucket), Key: aws.String("manifest.json")}); err != nil {
		return err
	}
	if _, err := e.uploader.UploadWithContext(ctx, &s3manager.UploadInput{ // want unfencedwrite:"aws-sdk-go v1 sends no condition"
		Bucket: aws.String(e.bucket),
		Key:    aws.String("reports/" + day + ".csv"),
		Body:   bytes.NewReader(report),
	}); err != nil {
		return err
	}
	if _, err := e.s3.PutObjectWithContext(ctx, &s3.PutObjectInput{ // want unfencedwrite:"without a fencing token"
		Bucket: aws.String(e.bucket),
		Key:    aws.String("manifest.json"),
		Body:   bytes.NewReader([]byte(`{"latest":"` + day + `"}`)),
	}); err != nil {
		return err
	}
	objects := make([]*s3.ObjectIdentifier, 0, len(drafts))
	for _, d := range drafts {
		objects = append(objects, &s3.ObjectIdentifier{Key: aws.String(d)})
	}
	_, err = e.s3.DeleteObjects(&s3.DeleteObjectsInput{Bucket: aws.String(e.bucket), Delete: &s3.Delete{Objects: objects}}) // want unfencedwrite:"without a fencing token"
	return err
}

// Package manager is a stub of
// github.com/aws/aws-sdk-go-v2/feature/s3/manager v1.23.24 for analysistest
// fixtures: real signatures, no behaviour.
package manager

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

type UploadAPIClient interface {
	PutObject(context.Context, *s3.PutObjectInput, ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	UploadPart(context.Context, *s3.UploadPartInput, ...func(*s3.Options)) (*s3.UploadPartOutput, error)
	CreateMultipartUpload(context.Context, *s3.CreateMultipartUploadInput, ...func(*s3.Options)) (*s3.CreateMultipartUploadOutput, error)
	CompleteMultipartUpload(context.Context, *s3.CompleteMultipartUploadInput, ...func(*s3.Options)) (*s3.CompleteMultipartUploadOutput, error)
	AbortMultipartUpload(context.Context, *s3.AbortMultipartUploadInput, ...func(*s3.Options)) (*s3.AbortMultipartUploadOutput, error)
}

type UploadOutput struct {
	Location       string
	UploadID       string
	CompletedParts []types.CompletedPart
	ETag           *string
	Key            *string
	VersionID      *string
}

type Uploader struct {
	PartSize          int64
	Concurrency       int
	LeavePartsOnError bool
	MaxUploadParts    int32
	S3                UploadAPIClient
	ClientOptions     []func(*s3.Options)
}

func NewUploader(client UploadAPIClient, options ...func(*Uploader)) (_ *Uploader) { return }

func (u Uploader) Upload(ctx context.Context, input *s3.PutObjectInput, opts ...func(*Uploader)) (_ *UploadOutput, _ error,
) {
	return
}

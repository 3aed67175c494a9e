// Package s3 is a stub of github.com/aws/aws-sdk-go-v2/service/s3 v1.114.10
// for analysistest fixtures: real signatures, no behaviour.
package s3

import (
	"context"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

type Options struct {
	Region       string
	UsePathStyle bool
}

type Client struct {
	options Options
}

func New(options Options, optFns ...func(*Options)) (_ *Client)          { return }
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) (_ *Client) { return }

type PutObjectInput struct {
	Bucket        *string
	Key           *string
	ACL           types.ObjectCannedACL
	Body          io.Reader
	ContentLength *int64
	ContentType   *string
	IfMatch       *string
	IfNoneMatch   *string
	Metadata      map[string]string
	Tagging       *string
}

type PutObjectOutput struct {
	ETag      *string
	VersionId *string
}

func (c *Client) PutObject(ctx context.Context, params *PutObjectInput, optFns ...func(*Options)) (_ *PutObjectOutput, _ error) {
	return
}

type DeleteObjectInput struct {
	Bucket                  *string
	Key                     *string
	IfMatch                 *string
	IfMatchLastModifiedTime *time.Time
	IfMatchSize             *int64
	VersionId               *string
}

type DeleteObjectOutput struct {
	VersionId *string
}

func (c *Client) DeleteObject(ctx context.Context, params *DeleteObjectInput, optFns ...func(*Options)) (_ *DeleteObjectOutput, _ error) {
	return
}

type CopyObjectInput struct {
	Bucket            *string
	CopySource        *string
	Key               *string
	ACL               types.ObjectCannedACL
	ContentType       *string
	CopySourceIfMatch *string
	IfMatch           *string
	IfNoneMatch       *string
	Metadata          map[string]string
	Tagging           *string
}

type CopyObjectOutput struct {
	VersionId *string
}

func (c *Client) CopyObject(ctx context.Context, params *CopyObjectInput, optFns ...func(*Options)) (_ *CopyObjectOutput, _ error) {
	return
}

type CompleteMultipartUploadInput struct {
	Bucket          *string
	Key             *string
	UploadId        *string
	IfMatch         *string
	IfNoneMatch     *string
	MultipartUpload *types.CompletedMultipartUpload
}

type CompleteMultipartUploadOutput struct {
	Bucket    *string
	ETag      *string
	Key       *string
	VersionId *string
}

func (c *Client) CompleteMultipartUpload(ctx context.Context, params *CompleteMultipartUploadInput, optFns ...func(*Options)) (_ *CompleteMultipartUploadOutput, _ error) {
	return
}

type CreateMultipartUploadInput struct {
	Bucket *string
	Key    *string
}

type CreateMultipartUploadOutput struct {
	UploadId *string
}

func (c *Client) CreateMultipartUpload(ctx context.Context, params *CreateMultipartUploadInput, optFns ...func(*Options)) (_ *CreateMultipartUploadOutput, _ error) {
	return
}

type UploadPartInput struct {
	Bucket     *string
	Key        *string
	UploadId   *string
	PartNumber *int32
	Body       io.Reader
}

type UploadPartOutput struct {
	ETag *string
}

func (c *Client) UploadPart(ctx context.Context, params *UploadPartInput, optFns ...func(*Options)) (_ *UploadPartOutput, _ error) {
	return
}

type AbortMultipartUploadInput struct {
	Bucket   *string
	Key      *string
	UploadId *string
}

type AbortMultipartUploadOutput struct{}

func (c *Client) AbortMultipartUpload(ctx context.Context, params *AbortMultipartUploadInput, optFns ...func(*Options)) (_ *AbortMultipartUploadOutput, _ error) {
	return
}

type DeleteObjectsInput struct {
	Bucket *string
	Delete *types.Delete
}

type DeleteObjectsOutput struct {
	Deleted []types.DeletedObject
	Errors  []types.Error
}

func (c *Client) DeleteObjects(ctx context.Context, params *DeleteObjectsInput, optFns ...func(*Options)) (_ *DeleteObjectsOutput, _ error) {
	return
}

type PutObjectTaggingInput struct {
	Bucket    *string
	Key       *string
	Tagging   *types.Tagging
	VersionId *string
}

type PutObjectTaggingOutput struct {
	VersionId *string
}

func (c *Client) PutObjectTagging(ctx context.Context, params *PutObjectTaggingInput, optFns ...func(*Options)) (_ *PutObjectTaggingOutput, _ error) {
	return
}

type PutObjectAclInput struct {
	Bucket    *string
	Key       *string
	ACL       types.ObjectCannedACL
	VersionId *string
}

type PutObjectAclOutput struct{}

func (c *Client) PutObjectAcl(ctx context.Context, params *PutObjectAclInput, optFns ...func(*Options)) (_ *PutObjectAclOutput, _ error) {
	return
}

type PutObjectRetentionInput struct {
	Bucket    *string
	Key       *string
	Retention *types.ObjectLockRetention
	VersionId *string
}

type PutObjectRetentionOutput struct{}

func (c *Client) PutObjectRetention(ctx context.Context, params *PutObjectRetentionInput, optFns ...func(*Options)) (_ *PutObjectRetentionOutput, _ error) {
	return
}

type PutObjectLegalHoldInput struct {
	Bucket    *string
	Key       *string
	LegalHold *types.ObjectLockLegalHold
	VersionId *string
}

type PutObjectLegalHoldOutput struct{}

func (c *Client) PutObjectLegalHold(ctx context.Context, params *PutObjectLegalHoldInput, optFns ...func(*Options)) (_ *PutObjectLegalHoldOutput, _ error) {
	return
}

type GetObjectInput struct {
	Bucket            *string
	Key               *string
	IfMatch           *string
	IfModifiedSince   *time.Time
	IfNoneMatch       *string
	IfUnmodifiedSince *time.Time
	VersionId         *string
}

type GetObjectOutput struct {
	Body          io.ReadCloser
	ContentLength *int64
	ContentType   *string
	ETag          *string
	LastModified  *time.Time
	Metadata      map[string]string
	VersionId     *string
}

func (c *Client) GetObject(ctx context.Context, params *GetObjectInput, optFns ...func(*Options)) (_ *GetObjectOutput, _ error) {
	return
}

type HeadObjectInput struct {
	Bucket            *string
	Key               *string
	IfMatch           *string
	IfModifiedSince   *time.Time
	IfNoneMatch       *string
	IfUnmodifiedSince *time.Time
	VersionId         *string
}

type HeadObjectOutput struct {
	ContentLength *int64
	ContentType   *string
	ETag          *string
	LastModified  *time.Time
	Metadata      map[string]string
	VersionId     *string
}

func (c *Client) HeadObject(ctx context.Context, params *HeadObjectInput, optFns ...func(*Options)) (_ *HeadObjectOutput, _ error) {
	return
}

// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/s3/types v1.114.10.
package types

import "time"

type ObjectCannedACL string

type CompletedPart struct {
	ETag       *string
	PartNumber *int32
}

type CompletedMultipartUpload struct {
	Parts []CompletedPart
}

type ObjectIdentifier struct {
	Key              *string
	ETag             *string
	LastModifiedTime *time.Time
	Size             *int64
	VersionId        *string
}

type Delete struct {
	Objects []ObjectIdentifier
	Quiet   *bool
}

type DeletedObject struct {
	Key       *string
	VersionId *string
}

type Error struct {
	Code    *string
	Key     *string
	Message *string
}

type Tag struct {
	Key   *string
	Value *string
}

type Tagging struct {
	TagSet []Tag
}

type ObjectLockLegalHold struct{}

type ObjectLockRetention struct {
	RetainUntilDate *time.Time
}

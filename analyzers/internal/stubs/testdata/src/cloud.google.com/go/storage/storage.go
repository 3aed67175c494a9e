// Package storage is a stub of cloud.google.com/go/storage v1.70.0 for
// analysistest fixtures: real signatures, no behaviour.
package storage

import (
	"context"
	"errors"
	"time"

	"cloud.google.com/go/internal/optional"
	"google.golang.org/api/option"
)

var ErrObjectNotExist = errors.New("storage: object doesn't exist")

type Client struct{}

func NewClient(ctx context.Context, opts ...option.ClientOption) (_ *Client, _ error) { return }
func (c *Client) Close() (_ error)                                                    { return }
func (c *Client) Bucket(name string) (_ *BucketHandle)                                { return }

type BucketHandle struct {
	c    *Client
	name string
}

func (b *BucketHandle) Object(name string) (_ *ObjectHandle) { return }

type ObjectHandle struct {
	bucket string
	object string
	gen    int64
	conds  *Conditions
}

func (o *ObjectHandle) Generation(gen int64) (_ *ObjectHandle)                    { return }
func (o *ObjectHandle) If(conds Conditions) (_ *ObjectHandle)                     { return }
func (o *ObjectHandle) Attrs(ctx context.Context) (attrs *ObjectAttrs, err error) { return }
func (o *ObjectHandle) Update(ctx context.Context, uattrs ObjectAttrsToUpdate) (oa *ObjectAttrs, err error) {
	return
}
func (o *ObjectHandle) Delete(ctx context.Context) (err error)    { return }
func (o *ObjectHandle) NewWriter(ctx context.Context) (_ *Writer) { return }
func (o *ObjectHandle) NewReader(ctx context.Context, opts ...ReaderOption) (_ *Reader, _ error) {
	return
}
func (dst *ObjectHandle) CopierFrom(src *ObjectHandle) (_ *Copier)         { return }
func (dst *ObjectHandle) ComposerFrom(srcs ...*ObjectHandle) (_ *Composer) { return }

type Conditions struct {
	GenerationMatch        int64
	GenerationNotMatch     int64
	DoesNotExist           bool
	MetagenerationMatch    int64
	MetagenerationNotMatch int64
}

type ObjectAttrs struct {
	Bucket         string
	Name           string
	ContentType    string
	Size           int64
	Metadata       map[string]string
	Generation     int64
	Metageneration int64
	Created        time.Time
	Updated        time.Time
	Etag           string
}

type ObjectAttrsToUpdate struct {
	EventBasedHold optional.Bool
	TemporaryHold  optional.Bool
	ContentType    optional.String
	CacheControl   optional.String
	CustomTime     time.Time
	Metadata       map[string]string
}

type Writer struct {
	ObjectAttrs
	SendCRC32C bool
	ChunkSize  int
	o          *ObjectHandle
}

func (w *Writer) Write(p []byte) (_ int, _ error) { return }
func (w *Writer) Close() (_ error)                { return }
func (w *Writer) Attrs() (_ *ObjectAttrs)         { return }

type ReaderOption interface {
	apply(*newRangeReaderParams)
}

type newRangeReaderParams struct{}

type Reader struct {
	Attrs ReaderObjectAttrs
}

type ReaderObjectAttrs struct {
	Size           int64
	ContentType    string
	Generation     int64
	Metageneration int64
}

func (r *Reader) Close() (_ error)               { return }
func (r *Reader) Read(p []byte) (_ int, _ error) { return }

type Copier struct {
	ObjectAttrs
	dst, src *ObjectHandle
}

func (c *Copier) Run(ctx context.Context) (attrs *ObjectAttrs, err error) { return }

type Composer struct {
	ObjectAttrs
	dst  *ObjectHandle
	srcs []*ObjectHandle
}

func (c *Composer) Run(ctx context.Context) (attrs *ObjectAttrs, err error) { return }

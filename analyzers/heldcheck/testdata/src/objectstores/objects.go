// Package objectstores publishes to S3, Cloud Storage and PostgreSQL (pgx)
// while a raft node leads.
package objectstores

import (
	"bytes"
	"context"

	"cloud.google.com/go/storage"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/hashicorp/raft"
	"github.com/jackc/pgx/v5/pgxpool"
)

type publisher struct {
	r    *raft.Raft
	s3   *s3.Client
	gcs  *storage.Client
	pool *pgxpool.Pool
}

// s3Put overwrites the object whoever wrote it last.
func (p *publisher) s3Put(ctx context.Context, body []byte) error {
	if p.r.State() != raft.Leader { // want `Raft.State only tells that the lease was held when it ran, yet it guards the unfenced write Client.PutObject at line 28: .*IfMatch`
		return nil
	}
	_, err := p.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("latest"), Body: bytes.NewReader(body)})
	return err
}

// s3PutIfMatch writes only over the version it read: fenced by the ETag.
func (p *publisher) s3PutIfMatch(ctx context.Context, body []byte, etag string) error {
	if p.r.State() != raft.Leader {
		return nil
	}
	_, err := p.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("latest"), Body: bytes.NewReader(body), IfMatch: aws.String(etag)})
	return err
}

// gcsWrite opens a writer without preconditions.
func (p *publisher) gcsWrite(ctx context.Context) *storage.Writer {
	if p.r.State() == raft.Leader { // want `Raft.State only tells .* unfenced write ObjectHandle.NewWriter at line 44: .*GenerationMatch`
		return p.gcs.Bucket("reports").Object("latest").NewWriter(ctx)
	}
	return nil
}

// gcsWriteIf writes only over the generation it read: fenced.
func (p *publisher) gcsWriteIf(ctx context.Context, gen int64) *storage.Writer {
	if p.r.State() == raft.Leader {
		return p.gcs.Bucket("reports").Object("latest").If(storage.Conditions{GenerationMatch: gen}).NewWriter(ctx)
	}
	return nil
}

// pgxExec updates through a pgx pool.
func (p *publisher) pgxExec(ctx context.Context) error {
	if p.r.State() != raft.Leader { // want `Raft.State only tells .* unfenced write Pool.Exec \(UPDATE reports\) at line 62`
		return nil
	}
	_, err := p.pool.Exec(ctx, "UPDATE reports SET published = true")
	return err
}

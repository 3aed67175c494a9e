package objectstore

import (
	"context"
	"errors"

	"cloud.google.com/go/storage"
	"github.com/go-redsync/redsync/v4"
)

// GCSPublisher writes the catalog to Cloud Storage under a redsync mutex
// taken through a small wrapper.
type GCSPublisher struct {
	rs  *redsync.Redsync
	gcs *storage.Client
}

// withLock takes the named mutex and returns its release.
func (p *GCSPublisher) withLock(ctx context.Context, name string) (func(), error) {
	m := p.rs.NewMutex(name)
	if err := m.LockContext(ctx); err != nil {
		return nil, err
	}
	return func() { m.UnlockContext(context.Background()) }, nil
}

// Publish writes with no precondition.
func (p *GCSPublisher) Publish(ctx context.Context, body []byte) error {
	unlock, err := p.withLock(ctx, "catalog")
	if err != nil {
		return err
	}
	defer unlock()
	obj := p.gcs.Bucket(bucket).Object("catalog.json")
	w := obj.NewWriter(ctx) // want unfencedwrite:"without a fencing token"
	w.ContentType = "application/json"
	if _, err := w.Write(body); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return p.gcs.Bucket(bucket).Object("catalog.draft.json").Delete(ctx) // want unfencedwrite:"without a fencing token"
}

// PublishConditional writes only over the generation it read, creates the
// archive copy only if absent, and updates metadata only over the
// metageneration it read.
func (p *GCSPublisher) PublishConditional(ctx context.Context, version string, body []byte) error {
	unlock, err := p.withLock(ctx, "catalog")
	if err != nil {
		return err
	}
	defer unlock()
	obj := p.gcs.Bucket(bucket).Object("catalog.json")
	attrs, err := obj.Attrs(ctx)
	if err != nil {
		return err
	}
	w := obj.If(storage.Conditions{GenerationMatch: attrs.Generation}).NewWriter(ctx)
	if _, err := w.Write(body); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	dst := p.gcs.Bucket(bucket).Object("archive/" + version + ".json").If(storage.Conditions{DoesNotExist: true})
	if _, err := dst.CopierFrom(obj).Run(ctx); err != nil {
		return err
	}
	_, err = obj.If(storage.Conditions{MetagenerationMatch: attrs.Metageneration}).Update(ctx, storage.ObjectAttrsToUpdate{
		Metadata: map[string]string{"version": version},
	})
	return err
}

// Compose concatenates parts into a destination with no precondition.
func (p *GCSPublisher) Compose(ctx context.Context, parts []string) error {
	unlock, err := p.withLock(ctx, "catalog")
	if err != nil {
		return err
	}
	defer unlock()
	b := p.gcs.Bucket(bucket)
	srcs := make([]*storage.ObjectHandle, 0, len(parts))
	for _, part := range parts {
		srcs = append(srcs, b.Object(part))
	}
	_, err = b.Object("catalog.json").ComposerFrom(srcs...).Run(ctx) // want unfencedwrite:"without a fencing token"
	return err
}

// Read holds the lock only to read.
func (p *GCSPublisher) Read(ctx context.Context) ([]byte, error) {
	unlock, err := p.withLock(ctx, "catalog")
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := p.gcs.Bucket(bucket).Object("catalog.json").NewReader(ctx)
	if errors.Is(err, storage.ErrObjectNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer r.Close()
	buf := make([]byte, r.Attrs.Size)
	_, err = r.Read(buf)
	return buf, err
}

// Retag rewrites the object's metadata with no metageneration condition.
func (p *GCSPublisher) Retag(ctx context.Context, version string) error {
	unlock, err := p.withLock(ctx, "catalog")
	if err != nil {
		return err
	}
	defer unlock()
	_, err = p.gcs.Bucket(bucket).Object("catalog.json").Update(ctx, storage.ObjectAttrsToUpdate{ // want unfencedwrite:"without a fencing token"
		Metadata: map[string]string{"version": version},
	})
	return err
}

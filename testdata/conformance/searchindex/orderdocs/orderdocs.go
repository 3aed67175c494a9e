// Package orderdocs is the indexers' repository of order documents: its
// writes are judged where the indexers call it, under their locks.
package orderdocs

import (
	"context"

	"github.com/olivere/elastic/v7"
)

// Repo writes order documents.
type Repo struct {
	ES *elastic.Client
}

// Save replaces the order's document.
func (r *Repo) Save(ctx context.Context, id string, doc any) error {
	_, err := r.ES.Index().Index("orders").Id(id).BodyJson(doc).Do(ctx)
	return err
}

// SaveAt writes the document with the caller's token as its external
// version: the caller's lease fences it.
func (r *Repo) SaveAt(ctx context.Context, id string, doc any, token int64) error {
	_, err := r.ES.Index().Index("orders").Id(id).Version(token).VersionType("external").BodyJson(doc).Do(ctx)
	return err
}

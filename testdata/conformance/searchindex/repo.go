package searchindex

import (
	"context"

	"github.com/fencelint/fencelint/testdata/conformance/searchindex/orderdocs"
)

// Republish writes the orders through the repository package, once plainly
// and once with the lease's token as the version.
func (x *Indexer) Republish(ctx context.Context, repo *orderdocs.Repo, orders []Order) error {
	return x.locked(ctx, func(ctx context.Context, token int64) error {
		for _, o := range orders {
			if err := repo.Save(ctx, o.ID, o); err != nil { // want unfencedwrite:"without a fencing token"
				return err
			}
			if err := repo.SaveAt(ctx, o.ID, o, token); err != nil {
				return err
			}
		}
		return nil
	})
}
